"""The last step of every execution, on every path: merge what was applied into the state,
settle the run's status, release its locks.

Input: the execution's state (`run_id`, and `error` when a step failed, `approval` when the
run was approved). Output: `{"status"}`, the run's final status. Whatever fails here, the
locks are released before the error propagates (the state machine then also deletes the
workspace lock item itself)."""

from __future__ import annotations

import json
from typing import Any

from functions.common import applying, audit, fanout, locks, runs
from functions.common.powertools import observability
from functions.common.workspaces import get as get_workspace

logger, tracer, metrics = observability("groundplan-finalize")


def _cause(error: Any) -> str:
    if not isinstance(error, dict):
        return str(error)
    cause = str(error.get("Cause") or "")
    try:
        doc = json.loads(cause)
        cause = str(doc.get("errorMessage") or cause)
    except ValueError:
        pass
    return f"{error.get('Error', 'Error')}: {cause}"[:2000]


def finalize(event: dict[str, Any]) -> dict[str, Any]:
    run = runs.get_run(str(event["run_id"]))
    ws = get_workspace(run.workspace)
    try:
        error = event.get("error")
        if run.status == "applying":
            if run.node_count:
                fanout.stop(run.id)  # the apply step ended (or timed out): start no more nodes
            nodes = fanout.all_nodes(run.id) if run.node_count else []
            try:
                written, problems = applying.final_state(run, ws, nodes)
            except Exception as exc:
                runs.transition(run, "errored", "groundplan", "state not written",
                                failed_nodes=[n.node_id for n in nodes if n.status == "failed"],
                                error=str(exc)[:2000])
                raise
            failed = [n.node_id for n in nodes if n.status == "failed"]
            if failed or error is not None:
                runs.transition(run, "errored", "groundplan", "apply failed",
                                failed_nodes=failed,
                                error=(problems or _cause(error))[:2000] if (problems or error)
                                else None)
            else:
                if run.kind == "run":
                    # before the run reads "applied": whoever sees that status (a drift tick,
                    # a client) sees the configuration drift detection compares with
                    ws.update(actions=[type(ws).applied_configuration_version.set(
                        run.configuration_version), type(ws).applied_run.set(run.id)])
                runs.transition(run, "applied", "groundplan",
                                "state written" if written else "no state change")
        elif run.status == "awaiting_approval" and isinstance(error, dict) \
                and error.get("Error") == "States.Timeout":
            runs.transition(run, "discarded", "groundplan", "approval timed out")
        elif run.status in runs.ACTIVE:
            runs.transition(run, "errored", "groundplan", "run failed",
                            error=_cause(error) if error is not None else None)
        if (run.status in ("applied", "errored") and run.approved_digest) or run.auto_apply:
            audit.record(f"run.{run.status}", "groundplan", "state-machine",
                         workspace=run.workspace, run_id=run.id, plan_digest=run.plan_digest,
                         detail={"failed_nodes": list(run.failed_nodes or [])})
        return {"status": run.status}
    finally:
        locks.release(run.workspace, ws.lineage, run.id)
        locks.release(run.workspace, run.prior_lineage, run.id)
        applying.close_registry(run.id)
        _after(run.id)


def _after(run_id: str) -> None:
    """What follows a run once its locks are released: a drift run that found drift on a
    workspace that reconciles starts a normal run, which waits for approval."""
    run = runs.get_run(run_id)
    ws = get_workspace(run.workspace)
    if run.kind == "drift" and ws.reconcile and ws.drift_status == "drifted":
        from functions.common.run_service import start_run
        from functions.common.workdir import variables

        started = start_run(ws.name, {"configuration_version": run.configuration_version,
                                      "operation": "apply", "variables": variables(run)},
                            "groundplan-drift", "schedule")
        logger.info("reconcile run started", extra={"run_id": started.id, "drift_run": run.id})


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return finalize(event)
