"""Run states and the transitions between them (HCP Terraform's run model, trimmed).

    pending → planning → planned_and_finished            (no changes, or a plan-only run)
                       → awaiting_approval → applying → applied
                       → applying (auto-apply)
    any active state → errored | canceled;  awaiting_approval → discarded

Every transition is a conditional update on the current status, recorded with who and when;
an illegal one is a `Conflict` (409, code `illegal_transition`).
"""

from __future__ import annotations

from typing import Any

from pynamodb.exceptions import UpdateError
from pynamodb.expressions.update import Action

from functions.common.clock import now_iso
from functions.common.errors import Conflict, NotFound, condition_failed
from functions.common.models import Run, Transition

ACTIVE = ("pending", "planning", "planned", "awaiting_approval", "applying")
FINAL = ("planned_and_finished", "applied", "errored", "discarded", "canceled")

ALLOWED: dict[str, tuple[str, ...]] = {
    "pending": ("planning", "errored", "canceled"),
    "planning": ("planned", "planned_and_finished", "errored", "canceled"),
    "planned": ("awaiting_approval", "applying", "planned_and_finished", "errored", "canceled"),
    "awaiting_approval": ("applying", "discarded", "errored", "canceled"),
    "applying": ("applied", "errored", "canceled"),
}


def get_run(run_id: str) -> Run:
    """The run `run_id`, or NotFound."""
    try:
        return Run.get(run_id, consistent_read=True)
    except Run.DoesNotExist:
        raise NotFound(f"run {run_id} does not exist", code="run_not_found") from None


def transition(run: Run, to: str, by: str, reason: str | None = None,
               **fields: Any) -> Run:
    """Move `run` to status `to` (recording who and why) and set `fields`; refuses a move the
    state diagram does not allow or one that lost a race with another transition."""
    current = run.status
    if to not in ALLOWED.get(current, ()):
        raise Conflict(f"run {run.id} is {current}; it cannot become {to}",
                       code="illegal_transition", status=current)
    at = now_iso()
    actions: list[Action] = [
        Run.status.set(to),
        Run.updated_at.set(at),
        Run.history.set(Run.history.append([Transition(status=to, at=at, by=by, reason=reason)])),
    ]
    for name, value in fields.items():
        actions.append(getattr(Run, name).set(value))
    try:
        run.update(actions=actions, condition=Run.status == current)
    except UpdateError as exc:
        if condition_failed(exc):
            fresh = get_run(run.id)
            raise Conflict(f"run {run.id} is {fresh.status}; it cannot become {to}",
                           code="illegal_transition", status=fresh.status) from None
        raise
    return run
