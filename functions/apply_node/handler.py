"""The apply fan-out's node tasks: `{"action": "prepare" | "start" | "apply", ...}`, and
Lambda's failure record of an `apply` invocation it gave up on.

- `prepare {run_id}` → `{"nodes": count}`: the approved plan's graph as node items.
- `start {run_id, token}`: the state machine's apply step parks its token and the nodes that
  wait for none start (functions.common.fanout); the token is answered when the last node
  settles.
- `apply {run_id, index}` → `{"status"}` (invoked asynchronously, by `start` or by the last
  dependency to finish): apply one node, then start the dependents that may run.
  Idempotent by (plan digest, node): a retried or duplicated task for a node already settled
  answers without applying again. A node the engine fails to apply is recorded as failed
  (its dependents are skipped) and answers normally: retrying would not change the result.
- Lambda's on-failure destination record (`requestContext.condition`, `requestPayload`: the
  `apply` event): the task kept failing (timed out, crashed) until Lambda stopped retrying;
  the node is recorded as failed, so the apply settles instead of waiting for it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from functions.common import applying, fanout, runs
from functions.common.models import Run, Workspace
from functions.common.powertools import observability
from functions.common.workspaces import get as get_workspace

logger, tracer, metrics = observability("groundplan-apply-node")


#: run id -> (the run, its workspace) as the first node task of the run in this warm function
#: read them: what an apply reads of them (configuration version, variables, approved digest,
#: credentials) is fixed once the run is approved, which is before any node task starts.
_approved: OrderedDict[str, tuple[Run, Workspace]] = OrderedDict()
_approved_mu = threading.Lock()


def _run_and_workspace(run_id: str) -> tuple[Run, Workspace]:
    with _approved_mu:
        found = _approved.get(run_id)
    if found is None:
        run = runs.get_run(run_id)
        found = (run, get_workspace(run.workspace))
        with _approved_mu:
            _approved[run_id] = found
            while len(_approved) > 16:
                _approved.popitem(last=False)
    return found


def _apply(run_id: str, index: int) -> dict[str, Any]:
    run, ws = _run_and_workspace(run_id)
    node, claimed = fanout.claim(run_id, index)
    if not claimed:
        logger.info("node already applied", extra={"run_id": run_id, "node": node.node_id})
        return {"status": node.status}
    doc, problems = applying.apply_one(run, ws, node)
    result = fanout.seal_result(run_id, node.address, doc)
    if problems is not None:
        logger.info("node failed", extra={"run_id": run_id, "node": node.node_id})
        fanout.finish(node, "failed", problems, result=result)
        metrics.add_metric(name="NodesFailed", unit="Count", value=1)
        return {"status": "failed"}
    fanout.finish(node, "applied", result=result)
    metrics.add_metric(name="NodesApplied", unit="Count", value=1)
    return {"status": "applied"}


def _given_up(record: dict[str, Any]) -> dict[str, Any]:
    """Lambda stopped retrying an `apply` task: record its node as failed."""
    request = record.get("requestPayload") or {}
    run_id, index = str(request["run_id"]), int(request["index"])
    node = fanout.get(run_id, index)
    if node.status in ("applied", "failed", "skipped"):
        return {"status": node.status}
    response = record.get("responsePayload") or {}
    cause = (response.get("errorMessage") if isinstance(response, dict) else None) or str(
        (record.get("requestContext") or {}).get("condition") or "the task kept failing")
    logger.info("node task given up", extra={"run_id": run_id, "node": node.node_id})
    fanout.finish(node, "failed", f"the node's task failed: {cause}")
    metrics.add_metric(name="NodesFailed", unit="Count", value=1)
    return {"status": "failed"}


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    if "requestPayload" in event and "requestContext" in event:
        return _given_up(event)
    action = event.get("action")
    run_id = str(event["run_id"])
    if action == "prepare":
        run = runs.get_run(run_id)
        if run.status == "planned" and run.auto_apply:
            runs.transition(run, "applying", "groundplan", "auto-apply")
        count = applying.prepare_fanout(run, get_workspace(run.workspace))
        run.update(actions=[type(run).node_count.set(count)])
        return {"nodes": count}
    if action == "start":
        return {"started": len(fanout.start(run_id, str(event["token"])))}
    if action == "apply":
        return _apply(run_id, int(event["index"]))
    raise ValueError(f"unknown apply_node action {action!r}")
