"""Notifications: the approval request (a `.waitForTaskToken` task) and run outcomes.

`{"kind": "approval_request", "run_id", "token"}` keeps the task token in the task-token table
(bound to the run's plan digest), moves the run to `awaiting_approval` and posts the Block Kit
approval message to the workspace's notification URL. The token never leaves the table: the
buttons carry only the run id. `{"kind": "run_finished", "run_id"}` posts the outcome."""

from __future__ import annotations

from typing import Any

from functions.common import artifacts, runs, slack, webhook
from functions.common.clock import now_iso
from functions.common.models import TaskToken
from functions.common.powertools import observability
from functions.common.workspaces import get as get_workspace

logger, tracer, metrics = observability("groundplan-notify")


def _summary(run_id: str) -> str:
    try:
        text = artifacts.get_artifact(run_id, "plan.txt").decode()
    except Exception:
        return ""
    lines = [ln for ln in text.splitlines() if ln.startswith(("  #", "Plan:", "Changes to"))]
    return "\n".join(lines[:40])


def approval_request(run_id: str, token: str) -> dict[str, Any]:
    run = runs.get_run(run_id)
    TaskToken(run_id, token=token, digest=run.plan_digest, created_at=now_iso()).save()
    if run.status == "planned":
        runs.transition(run, "awaiting_approval", "groundplan", "approval requested")
    ws = get_workspace(run.workspace)
    delivered = 0
    if ws.notification_url:
        delivered = webhook.post(ws.notification_url,
                                 slack.approval_message(run.public(), _summary(run_id), None))
    logger.info("approval requested", extra={"run_id": run_id, "delivered": delivered})
    return {"requested": True, "delivered": delivered}


def run_finished(run_id: str) -> dict[str, Any]:
    run = runs.get_run(run_id)
    ws = get_workspace(run.workspace)
    text = f"groundplan run `{run.id}` on `{run.workspace}` is *{run.status}*."
    if run.failed_nodes:
        text += " Failed: " + ", ".join(f"`{a}`" for a in run.failed_nodes)
    if run.error:
        text += f"\n{run.error}"
    delivered = webhook.post(ws.notification_url, slack.notice(text)) if ws.notification_url else 0
    metrics.add_metric(name=f"Runs_{run.status}", unit="Count", value=1)
    return {"delivered": delivered}


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    kind = event.get("kind")
    if kind == "approval_request":
        return approval_request(str(event["run_id"]), str(event["token"]))
    if kind == "run_finished":
        return run_finished(str(event["run_id"]))
    raise ValueError(f"unknown notification kind {kind!r}")
