"""The apply fan-out's node tasks: `{"action": "prepare" | "await" | "apply" | "fail", ...}`.

- `prepare {run_id}` → `{"nodes": [indices]}`: the approved plan's graph as node items.
- `await {run_id, index, token}`: park the wait step's token; released when the node's own
  dependencies are done (functions.common.fanout).
- `apply {run_id, index}` → `{"status"}`: apply one node; idempotent by (plan digest, node):
  a retried or duplicated task for a node already applied answers without applying again.
- `fail {run_id, index, error}`: the node's apply failed: record it, skip its dependents.
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
    try:
        applying.apply_one(run, ws, node)
    except Exception as exc:
        fanout.finish(node, "failed", str(exc))
        metrics.add_metric(name="NodesFailed", unit="Count", value=1)
        raise
    fanout.finish(node, "applied")
    metrics.add_metric(name="NodesApplied", unit="Count", value=1)
    return {"status": "applied"}


def _fail(run_id: str, index: int, error: Any) -> dict[str, Any]:
    node = fanout.get(run_id, index)
    if node.status not in ("failed", "applied"):
        cause = error.get("Cause") if isinstance(error, dict) else str(error)
        fanout.finish(node, "failed", str(cause))
    return {"status": "failed"}


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    action = event.get("action")
    run_id = str(event["run_id"])
    if action == "prepare":
        run = runs.get_run(run_id)
        if run.status == "planned" and run.auto_apply:
            runs.transition(run, "applying", "groundplan", "auto-apply")
        nodes = applying.prepare_fanout(run, get_workspace(run.workspace))
        run.update(actions=[type(run).node_count.set(len(nodes))])
        return {"nodes": nodes}
    if action == "await":
        fanout.park(run_id, int(event["index"]), str(event["token"]))
        return {"parked": True}
    if action == "apply":
        return _apply(run_id, int(event["index"]))
    if action == "fail":
        return _fail(run_id, int(event["index"]), event.get("error"))
    raise ValueError(f"unknown apply_node action {action!r}")
