"""Hooks the operations add to the view's: counting what an apply did, and fanning out.

`CountHooks` counts completed operations for "Apply complete! Resources: X added, ...";
`FanOutHooks` calls several hook objects in order (the view's first, then the counter).
"""

from __future__ import annotations

import threading

from engine.addrs import AbsResourceInstance
from engine.diags import Diagnostic
from engine.operations.results import ApplyCounts
from engine.plans.hooks import Hooks
from engine.plans.model import Action
from engine.values import Value


class CountHooks(Hooks):
    """Counts completed operations (imported, added, changed, destroyed); thread-safe."""

    def __init__(self) -> None:
        self._mu = threading.Lock()
        self.counts = ApplyCounts()

    def post_apply_import(self, addr: AbsResourceInstance, id: str) -> None:
        with self._mu:
            self.counts.imported += 1

    def post_apply(self, addr: AbsResourceInstance, action: Action, id: str | None,
                   elapsed: float, error: Diagnostic | None, deposed: str = "") -> None:
        if error is not None:
            return
        with self._mu:
            if action is Action.CREATE or action.is_replace:
                self.counts.added += 1
            elif action is Action.UPDATE:
                self.counts.changed += 1
            elif action is Action.DELETE:
                self.counts.removed += 1


class FanOutHooks(Hooks):
    """Calls every hook of `targets` in order."""

    def __init__(self, *targets: Hooks) -> None:
        self.targets = targets

    def pre_refresh(self, addr: AbsResourceInstance, id: str | None) -> None:
        for t in self.targets:
            t.pre_refresh(addr, id)

    def post_refresh(self, addr: AbsResourceInstance, id: str | None) -> None:
        for t in self.targets:
            t.post_refresh(addr, id)

    def pre_plan(self, addr: AbsResourceInstance) -> None:
        for t in self.targets:
            t.pre_plan(addr)

    def post_plan(self, addr: AbsResourceInstance, action: Action) -> None:
        for t in self.targets:
            t.post_plan(addr, action)

    def pre_plan_import(self, addr: AbsResourceInstance, id: str) -> None:
        for t in self.targets:
            t.pre_plan_import(addr, id)

    def pre_apply_import(self, addr: AbsResourceInstance, id: str) -> None:
        for t in self.targets:
            t.pre_apply_import(addr, id)

    def post_apply_import(self, addr: AbsResourceInstance, id: str) -> None:
        for t in self.targets:
            t.post_apply_import(addr, id)

    def pre_apply(self, addr: AbsResourceInstance, action: Action, id: str | None,
                  deposed: str = "") -> None:
        for t in self.targets:
            if deposed:
                t.pre_apply(addr, action, id, deposed=deposed)
            else:
                t.pre_apply(addr, action, id)

    def still_applying(self, addr: AbsResourceInstance, action: Action, elapsed: float) -> None:
        for t in self.targets:
            t.still_applying(addr, action, elapsed)

    def post_apply(self, addr: AbsResourceInstance, action: Action, id: str | None,
                   elapsed: float, error: Diagnostic | None, deposed: str = "") -> None:
        for t in self.targets:
            if deposed:
                t.post_apply(addr, action, id, elapsed, error, deposed=deposed)
            else:
                t.post_apply(addr, action, id, elapsed, error)

    def pre_provision(self, addr: AbsResourceInstance, type_name: str) -> None:
        for t in self.targets:
            t.pre_provision(addr, type_name)

    def provision_output(self, addr: AbsResourceInstance, type_name: str, line: str) -> None:
        for t in self.targets:
            t.provision_output(addr, type_name, line)

    def post_provision(self, addr: AbsResourceInstance, type_name: str,
                       error: Diagnostic | None) -> None:
        for t in self.targets:
            t.post_provision(addr, type_name, error)

    def pre_read_data(self, addr: AbsResourceInstance) -> None:
        for t in self.targets:
            t.pre_read_data(addr)

    def post_read_data(self, addr: AbsResourceInstance, id: str | None, elapsed: float) -> None:
        for t in self.targets:
            t.post_read_data(addr, id, elapsed)

    def output_value(self, name: str, value: Value, sensitive: bool) -> None:
        for t in self.targets:
            t.output_value(name, value, sensitive)

    def stopping(self) -> None:
        for t in self.targets:
            t.stopping()


__all__ = ["CountHooks", "FanOutHooks"]
