"""The stale-plan check: a saved plan applies only to the state snapshot it was made from."""

from __future__ import annotations

from engine.diags import Diagnostics, error
from engine.states.state import StateFile

STALE_DETAIL = (
    "The given plan file can no longer be applied because the state was changed by another "
    "operation after the plan was created."
)


def check_plan_fresh(
    plan_prior_lineage: str | None, plan_prior_serial: int | None, current_state: StateFile | None
) -> Diagnostics:
    """Terraform's "Saved plan is stale" error when the current state is not the snapshot
    the plan was made against (another lineage, or a different serial). A plan made without
    a prior state is stale once a state exists with resources or outputs."""
    diags = Diagnostics()
    if current_state is None:
        return diags
    if plan_prior_lineage is None or plan_prior_serial is None:
        if not current_state.state.is_empty:
            diags.append(error("Saved plan is stale", STALE_DETAIL))
        return diags
    if (
        current_state.lineage != plan_prior_lineage
        or current_state.serial != plan_prior_serial
    ):
        diags.append(error("Saved plan is stale", STALE_DETAIL))
    return diags
