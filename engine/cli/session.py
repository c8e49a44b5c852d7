"""What one plan/apply invocation with resources shares: views, hooks, stop handling, state.

`Session` bundles the human or `-json` view, the progress hooks (plus a counter for the
"Apply complete! Resources: ..." summary), the provider registry, the `StopController`
wired to SIGINT/SIGTERM (first signal: terraform's "Interrupt received." text and a graceful
stop; second: "Two interrupts received..." and an immediate exit 1), and the state manager
over the local state file with its lock.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from engine.addrs import AbsResourceInstance
from engine.cli.hooks_ui import UiHooks
from engine.cli.json_view import JsonHooks, JsonView
from engine.cli.meta import Meta, go_error_text
from engine.diags import Diagnostic, Diagnostics, error
from engine.graph.signals import StopController, install_signal_handlers
from engine.plans.hooks import Hooks
from engine.plans.model import Action
from engine.plugin.loader import PluginRegistry
from engine.plugin.registry import ProviderRegistry
from engine.states.local import LocalState
from engine.states.lock import LOCK_ERROR_MESSAGE
from engine.states.manager import StateManager
from engine.values import Value

INTERRUPTED = (
    "\nInterrupt received.\nPlease wait for Terraform to exit or data loss may occur.\n"
    "Gracefully shutting down...\n"
)
FATAL_INTERRUPT = (
    "\nTwo interrupts received. Exiting immediately. Note that data loss may have occurred.\n"
)


class CountHooks(Hooks):
    """Counts completed operations for the apply summary (imported, added, changed,
    destroyed)."""

    def __init__(self) -> None:
        self._mu = threading.Lock()
        self.added = 0
        self.changed = 0
        self.removed = 0
        self.imported = 0

    def post_apply_import(self, addr: AbsResourceInstance, id: str) -> None:
        with self._mu:
            self.imported += 1

    def post_apply(self, addr: AbsResourceInstance, action: Action, id: str | None,
                   elapsed: float, error: Diagnostic | None, deposed: str = "") -> None:
        if error is not None:
            return
        with self._mu:
            if action is Action.CREATE or action.is_replace:
                self.added += 1
            elif action is Action.UPDATE:
                self.changed += 1
            elif action is Action.DELETE:
                self.removed += 1


class FanOutHooks(Hooks):
    """Calls every hook of `targets` in order (the view first, then the counter)."""

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


def check_state_under_lock(storage: LocalState) -> Diagnostics:
    """Terraform's local backend reads the state file while it takes the lock: a state it
    cannot read fails the lock ("Error acquiring the state lock", the read errors as the
    message). Call right after locking; empty diagnostics when the state is readable."""
    _, rdiags = storage.read()
    return as_lock_error(rdiags)


def as_lock_error(read_diags: Diagnostics) -> Diagnostics:
    """A failed state read as the lock error terraform reports; empty when the read worked."""
    if not read_diags.has_errors:
        return Diagnostics()
    return Diagnostics([error("Error acquiring the state lock",
                              LOCK_ERROR_MESSAGE.format(go_error_text(read_diags)))])


@dataclass
class StateOptions:
    lock: bool = True
    lock_timeout: float = 0.0


class Session:
    """One operation's views, hooks, registry and stop handling (see the module docstring)."""

    def __init__(self, meta: Meta, as_json: bool) -> None:
        self.meta = meta
        self.ui = meta.ui
        self.json: JsonView | None = JsonView(meta.ui) if as_json else None
        self.view_hooks: UiHooks | JsonHooks = (
            JsonHooks(self.json) if self.json is not None else UiHooks(meta.ui)
        )
        self.counter = CountHooks()
        self.hooks = FanOutHooks(self.view_hooks, self.counter)
        self.registry: ProviderRegistry = PluginRegistry(meta.cwd)
        self.stop = StopController(on_hard_exit=self._hard_exit)
        self.stop.add_listener(self._interrupted)
        self.manager: StateManager | None = None

    # -- output ----------------------------------------------------------------------------
    def diagnostics(self, diags: Iterable[Diagnostic]) -> None:
        """Diagnostics in the active view."""
        if self.json is not None:
            self.json.diagnostics(diags)
        else:
            self.ui.diagnostics(diags)

    def _interrupted(self) -> None:
        if self.json is not None:
            self.json.log(INTERRUPTED)
        else:
            self.ui.out(INTERRUPTED)

    def _hard_exit(self) -> None:
        if self.json is not None:
            self.json.log(FATAL_INTERRUPT)
        else:
            self.ui.err(FATAL_INTERRUPT)
        mgr = self.manager
        if mgr is not None:
            with contextlib.suppress(Exception):  # best effort: the process is leaving now
                mgr.persist_snapshot()
        sys.stdout.flush()
        os._exit(1)

    # -- running -----------------------------------------------------------------------------
    @contextlib.contextmanager
    def signals(self) -> Iterator[None]:
        """SIGINT/SIGTERM go to this session's stop controller inside the block."""
        with install_signal_handlers(self.stop):
            yield

    @contextlib.contextmanager
    def locked_state(self, operation: str, opts: StateOptions) -> Iterator[Diagnostics]:
        """The state manager, locked unless `-lock=false`; recovery of a leftover journal
        has run (its warnings are in the yielded diagnostics). Unlocks on every exit path."""
        from engine.backend import StateOptions as BackendStateOptions

        name, _ = self.meta.workspace()
        found, diags = self.meta.backend().state_manager(
            name or "default", BackendStateOptions(lock=opts.lock))
        if found is None:
            yield diags
            return
        mgr = found
        self.manager = mgr
        with mgr.locked(operation, opts.lock_timeout) as diags:
            if not diags.has_errors and opts.lock:
                diags.extend(as_lock_error(mgr.read_ahead()))
            if not diags.has_errors:
                diags.extend(mgr.recover())
            yield diags

    def close(self) -> Diagnostics:
        """Stop tickers and provider processes."""
        self.view_hooks.close()
        return self.registry.close()
