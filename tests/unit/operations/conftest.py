"""Helpers for calling the operations without the CLI: a working directory with a
configuration, and a view that records what it is told."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from engine.backend import LocalBackend
from engine.diags import Diagnostic
from engine.operations import PlanResult
from engine.plans.hooks import Hooks
from engine.plans.model import Plan


@dataclass
class RecordingView:
    """An OperationView that keeps everything it is shown."""

    events: list[tuple[str, Any]] = field(default_factory=list)
    shown: list[Diagnostic] = field(default_factory=list)
    managers: list[Any] = field(default_factory=list)

    @property
    def hooks(self) -> Hooks:
        return Hooks()

    def diagnostics(self, diags: Iterable[Diagnostic]) -> None:
        items = list(diags)
        self.shown.extend(items)
        if items:
            self.events.append(("diagnostics", [d.summary for d in items]))

    def plan(self, result: PlanResult) -> None:
        self.events.append(("plan", result.plan))

    def applying_saved_plan(self, plan: Plan) -> None:
        self.events.append(("saved", plan))

    def state_manager(self, manager: Any) -> None:
        self.managers.append(manager)

    def importing(self, address: str, import_id: str) -> None:
        self.events.append(("importing", (address, import_id)))

    def import_prepared(self, address: str, type_name: str) -> None:
        self.events.append(("prepared", (address, type_name)))

    def kinds(self) -> list[str]:
        return [k for k, _ in self.events]


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working directory, made the current one (configurations load relative to it,
    as the CLI loads them)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def backend_of(root: Path) -> LocalBackend:
    return LocalBackend(str(root))
