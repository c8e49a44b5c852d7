"""How an operation reports while it runs: the `OperationView` protocol.

An operation never touches a terminal. It tells its view, in the order a user should see
them: diagnostics worth showing now (`diagnostics`), the plan it made (`plan`), the saved plan it is about to apply (`applying_saved_plan`), and
per-instance progress through `hooks` (engine.plans.hooks: `Creating...`, `Still
creating...`). `state_manager` hands the view the state manager while the state is locked
(None after unlocking) so an emergency exit can persist a snapshot first; `importing` and
`import_prepared` are the `import` command's progress.

Every diagnostic an operation shows is also in its result's `diagnostics`, so a front end
without a view (a Lambda handler) loses nothing by using `NULL_VIEW`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from engine.diags import Diagnostic
from engine.plans.hooks import NO_HOOKS, Hooks
from engine.plans.model import Plan

if TYPE_CHECKING:
    from engine.operations.results import PlanResult
    from engine.states.manager import StateManager


class OperationView(Protocol):
    """What an operation tells its front end (see the module docstring)."""

    @property
    def hooks(self) -> Hooks:
        """Progress callbacks for the walks (called from worker threads)."""
        ...

    def diagnostics(self, diags: Iterable[Diagnostic]) -> None:
        """Show `diags` now."""
        ...

    def plan(self, result: PlanResult) -> None:
        """Show the plan just made (before it is saved, approved or applied)."""
        ...

    def applying_saved_plan(self, plan: Plan) -> None:
        """A saved plan passed its checks and is about to be applied."""
        ...

    def state_manager(self, manager: StateManager | None) -> None:
        """The locked state's manager (None once it is unlocked)."""
        ...

    def importing(self, address: str, import_id: str) -> None:
        """`import`: asking the provider to import `import_id` into `address` begins."""
        ...

    def import_prepared(self, address: str, type_name: str) -> None:
        """`import`: the provider returned an object of `type_name` to import."""
        ...


class NullView:
    """A view that shows nothing (the results hold everything)."""

    @property
    def hooks(self) -> Hooks:
        return NO_HOOKS

    def diagnostics(self, diags: Iterable[Diagnostic]) -> None:
        pass

    def plan(self, result: PlanResult) -> None:
        pass

    def applying_saved_plan(self, plan: Plan) -> None:
        pass

    def state_manager(self, manager: StateManager | None) -> None:
        pass

    def importing(self, address: str, import_id: str) -> None:
        pass

    def import_prepared(self, address: str, type_name: str) -> None:
        pass


NULL_VIEW = NullView()

__all__ = ["NULL_VIEW", "NullView", "OperationView"]
