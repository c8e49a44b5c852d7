"""The terminal side of one operation: the view the operations report to, and stop handling.

`Session` is an `engine.operations.OperationView` for the human or `-json` UI: diagnostics
in the active view, the plan rendered as terraform renders it, progress lines from the view's
hooks, the `import` command's progress. It owns the provider registry the operation uses
and the `StopController` wired to SIGINT/SIGTERM (first signal: terraform's "Interrupt
received." text and a graceful stop; second: "Two interrupts received..." and an immediate
exit 1, after persisting a snapshot of the state the operation has locked).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable
from typing import Any, Protocol, TypeVar

from engine.cli.hooks_ui import UiHooks
from engine.cli.json_view import JsonHooks, JsonView
from engine.cli.meta import Meta
from engine.diags import Diagnostic, Diagnostics
from engine.operations import OperationRequest, PlanResult, StopController
from engine.plans.hooks import Hooks
from engine.plans.model import Action, Plan
from engine.plugin.loader import PluginRegistry
from engine.plugin.registry import ProviderRegistry

R = TypeVar("R", bound=OperationRequest)


class _Persists(Protocol):
    """The state manager as the emergency exit sees it."""

    def persist_snapshot(self) -> Diagnostics: ...

INTERRUPTED = (
    "\nInterrupt received.\nPlease wait for groundplan to exit or data loss may occur.\n"
    "Gracefully shutting down...\n"
)
FATAL_INTERRUPT = (
    "\nTwo interrupts received. Exiting immediately. Note that data loss may have occurred.\n"
)


class Session:
    """One operation's view, registry and stop handling (see the module docstring).

    `command` is the CLI command ("plan", "apply", "destroy", "refresh", "import"): the
    `refresh` command shows no plan."""

    def __init__(self, meta: Meta, as_json: bool, command: str = "plan") -> None:
        self.meta = meta
        self.ui = meta.ui
        self.command = command
        self.json: JsonView | None = JsonView(meta.ui) if as_json else None
        self.view_hooks: UiHooks | JsonHooks = (
            JsonHooks(self.json) if self.json is not None else UiHooks(meta.ui)
        )
        self.registry: ProviderRegistry = PluginRegistry(meta.cwd)
        self.stop = StopController(on_hard_exit=self._hard_exit)
        self.stop.add_listener(self._interrupted)
        self.manager: _Persists | None = None

    def request(self, cls: type[R], **fields: Any) -> R:
        """A request of type `cls` for this invocation: the working directory, its backend
        and selected workspace, this session as the view, its registry and stop controller,
        the environment; `fields` give the rest."""
        meta = self.meta
        workspace, _ = meta.workspace()
        return cls(working_dir=meta.cwd, backend=meta.backend(),
                   workspace=workspace or "default", view=self, registry=self.registry,
                   stop=self.stop, environ=dict(meta.environ),
                   in_automation=meta.in_automation, handle_signals=True, encryption=meta,
                   **fields)

    # -- OperationView ---------------------------------------------------------------------
    @property
    def hooks(self) -> Hooks:
        return self.view_hooks

    def diagnostics(self, diags: Iterable[Diagnostic]) -> None:
        """Diagnostics in the active view."""
        if self.json is not None:
            self.json.diagnostics(diags)
        else:
            self.ui.diagnostics(diags)

    def plan(self, result: PlanResult) -> None:
        """The plan in the session's view (human: the plan text; json: the change messages)."""
        if result.plan is None:
            return
        if self.json is not None:
            self.json.plan(result.plan)
            return
        if not result.shown:
            return
        from engine.plans.render_human import render_plan

        text = render_plan(result.plan, result.schemas, result.relevant_attributes)
        if self.ui.color:
            from engine.cli.plan_color import color_plan

            text = color_plan(text)
        self.ui.raw(text)

    def applying_saved_plan(self, plan: Plan) -> None:
        if self.json is not None:
            for c in plan.changes:
                if c.action is not Action.NOOP or c.moved or c.importing is not None:
                    self.json.planned_change(c)

    def state_manager(self, manager: _Persists | None) -> None:
        self.manager = manager

    def importing(self, address: str, import_id: str) -> None:
        import json

        self.ui.out(f"[reset][bold]{address}: Importing from ID {json.dumps(import_id)}...")

    def import_prepared(self, address: str, type_name: str) -> None:
        self.ui.out(f"[reset][bold][green]{address}: Import prepared!")
        self.ui.out(f"[reset][green]  Prepared {type_name} for import")

    # -- stop handling -----------------------------------------------------------------------
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

    def close(self) -> Diagnostics:
        """Stop tickers and provider processes."""
        self.view_hooks.close()
        return self.registry.close()


__all__ = ["FATAL_INTERRUPT", "INTERRUPTED", "Session"]
