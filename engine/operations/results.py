"""What an operation hands back: its diagnostics and what it made.

`success` is the exit status a front end reports (terraform's 0 or 1); the other fields are
what it renders. Every diagnostic the view was shown is in `diagnostics` too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.diags import Diagnostics
from engine.plans.model import Action, Plan, PlanMode
from engine.states.state import OutputValue, State, StateFile


def plan_has_changes(plan: Plan) -> bool:
    """Whether the plan proposes anything (terraform's !PlanEmpty): a change to apply, or in
    refresh-only mode any detected drift (including moves)."""
    return plan.applyable or (plan.mode is PlanMode.REFRESH_ONLY and bool(plan.drift) and any(
        d.action is not Action.NOOP or d.moved for d in plan.drift))


@dataclass
class PlanResult:
    """A plan operation's outcome.

    `plan` is None when the operation stopped before planning (bad configuration, variables,
    lock). `base` is the state snapshot planned against (None: no state yet); `refreshed` the
    refreshed prior state and `prev_run` the state as found (both the planner's). `schemas` and
    `relevant_attributes` are what rendering the plan needs. `saved` is the plan file written
    ("" when none), `generated` the file of generated configuration written
    (`-generate-config-out`; "" when none). `interrupted` says a stop request cut the walk short. `shown` is False
    when a human view should not show the plan: it errored without changes where terraform
    stops before showing one (its validate walk fails, or planning never began).
    """

    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    plan: Plan | None = None
    base: StateFile | None = None
    refreshed: State | None = None
    prev_run: State | None = None
    schemas: dict[Any, Any] = field(default_factory=dict)
    relevant_attributes: list[tuple[str, Any]] = field(default_factory=list)
    saved: str = ""
    generated: str = ""
    interrupted: bool = False
    shown: bool = True

    @property
    def success(self) -> bool:
        return (self.plan is not None and not self.plan.errored and not self.interrupted
                and not self.diagnostics.has_errors)

    @property
    def changed(self) -> bool:
        """Whether the plan proposes anything (see `plan_has_changes`)."""
        return self.plan is not None and plan_has_changes(self.plan)


@dataclass
class ApplyCounts:
    """What the apply did, for "Apply complete! Resources: ..."."""

    added: int = 0
    changed: int = 0
    removed: int = 0
    imported: int = 0


@dataclass
class ApplyResult:
    """An apply operation's outcome.

    `plan` is the plan applied (saved or made here); `planned` the planning step's result when
    the plan was made here. `applied` says the walk ran; `cancelled` that the approval callback
    said no. `state` is the state after the apply (None when nothing was applied).
    """

    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    plan: Plan | None = None
    planned: PlanResult | None = None
    state: State | None = None
    applied: bool = False
    cancelled: bool = False
    interrupted: bool = False
    counts: ApplyCounts = field(default_factory=ApplyCounts)

    @property
    def success(self) -> bool:
        return self.applied and not self.interrupted and not self.diagnostics.has_errors

    @property
    def outputs(self) -> dict[str, OutputValue]:
        """The root outputs in the new state."""
        return dict(self.state.outputs) if self.state is not None else {}


@dataclass
class ImportResult:
    """An import operation's outcome: `state` is the state written (None on failure);
    `not_in_config` says the address is not declared in the configuration (terraform then
    prints its own text, not a diagnostic)."""

    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    state: State | None = None
    not_in_config: bool = False

    @property
    def success(self) -> bool:
        return self.state is not None and not self.diagnostics.has_errors


__all__ = ["ApplyCounts", "ApplyResult", "ImportResult", "PlanResult", "plan_has_changes"]
