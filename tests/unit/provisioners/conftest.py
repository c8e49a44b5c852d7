"""Shared helpers for the provisioner tests: a recording Hooks and config loading."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engine.addrs import AbsResourceInstance
from engine.addrs.resources import parse_abs_resource_instance
from engine.configs.loader import load_module
from engine.configs.provisioners import Provisioner
from engine.diags import Diagnostic
from engine.lang import EvalContext
from engine.lang.functions import function_table
from engine.plans.hooks import Hooks
from engine.values import Value


class RecordingHooks(Hooks):
    """Keeps every provisioner hook call, in order, thread-safely."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str, object]] = []
        self._lock = threading.Lock()

    def pre_provision(self, addr: AbsResourceInstance, type_name: str) -> None:
        with self._lock:
            self.events.append(("pre", type_name, str(addr)))

    def provision_output(self, addr: AbsResourceInstance, type_name: str, line: str) -> None:
        with self._lock:
            self.events.append(("out", type_name, line))

    def post_provision(
        self, addr: AbsResourceInstance, type_name: str, error: Diagnostic | None
    ) -> None:
        with self._lock:
            self.events.append(("post", type_name, error))

    @property
    def lines(self) -> list[str]:
        return [str(e[2]) for e in self.events if e[0] == "out"]


@dataclass
class Loaded:
    """A one-resource configuration ready for run_provisioners."""

    directory: Path
    provisioners: list[Provisioner]
    addr: AbsResourceInstance
    hooks: RecordingHooks = field(default_factory=RecordingHooks)

    def ctx(self, **names: Value) -> EvalContext:
        return EvalContext(dict(names), function_table(str(self.directory)))


LoadFn = Callable[..., Loaded]


@pytest.fixture
def load(tmp_path: Path) -> LoadFn:
    """load(hcl, resource="terraform_data.a") -> Loaded; fails on configuration errors."""

    def _load(text: str, resource: str = "terraform_data.a", addr: str | None = None) -> Loaded:
        (tmp_path / "main.tf").write_text(text)
        mod, diags = load_module(str(tmp_path))
        assert not diags.has_errors, [d.summary for d in diags]
        res = mod.managed_resources[resource]
        return Loaded(tmp_path, res.provisioners, parse_abs_resource_instance(addr or resource))

    return _load
