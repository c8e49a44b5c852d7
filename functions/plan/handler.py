"""The plan step: `{"run_id"}` → `{"apply", "auto_apply", "digest"}`.

Moves the run to `planning`, plans it (functions.common.planning), records the digest and the
change counts, and answers whether the state machine goes on to an apply. Idempotent by run
id: a retried invocation answers what the first one decided without planning again."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.idempotency import idempotent_function

from functions.common import drift, planning, runs
from functions.common.powertools import idempotency, observability
from functions.common.workspaces import get as get_workspace

logger, tracer, metrics = observability("groundplan-plan")
_persistence, _config = idempotency("run_id")


@idempotent_function(data_keyword_argument="event", persistence_store=_persistence,
                     config=_config)
def plan_step(event: dict[str, Any]) -> dict[str, Any]:
    run = runs.get_run(str(event["run_id"]))
    ws = get_workspace(run.workspace)
    runs.transition(run, "planning", "groundplan")
    try:
        outcome = planning.run_plan(run, ws)
    except Exception as exc:
        runs.transition(run, "errored", "groundplan", "plan failed", error=str(exc)[:2000])
        if run.kind == "drift":
            drift.record(run, ws, None)
        raise
    if outcome.error is not None:
        runs.transition(run, "errored", "groundplan", "plan failed", error=outcome.error[:2000])
        if run.kind == "drift":
            drift.record(run, ws, None)
        return {"apply": False, "auto_apply": False, "digest": None}
    fields = {"plan_digest": outcome.digest, "has_changes": outcome.has_changes,
              "resource_changes": outcome.counts, "prior_serial": outcome.prior_serial,
              "prior_lineage": outcome.prior_lineage}
    applies = outcome.has_changes and run.operation != "plan" and run.kind != "drift"
    if run.kind == "drift":
        found = drift.record(run, ws, outcome.drift)
        metrics.add_metric(name="DriftFound" if found == "drifted" else "DriftInSync",
                           unit="Count", value=1)
    status = "planned" if applies else "planned_and_finished"
    runs.transition(run, status, "groundplan", "changes" if outcome.has_changes else "no changes",
                    **fields)
    metrics.add_metric(name="Plans", unit="Count", value=1)
    return {"apply": applies, "auto_apply": bool(run.auto_apply), "digest": outcome.digest}


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    _config.register_lambda_context(context)
    return plan_step(event=event)
