"""Starting, approving, discarding and cancelling runs: the control plane's run API behind
the HTTP routes and the Slack callback (both call these; neither holds run logic)."""

from __future__ import annotations

import json
import uuid
from typing import Any

from functions.common import artifacts, audit, locks
from functions.common.aws import client
from functions.common.clock import now_iso
from functions.common.errors import Conflict, Forbidden, InvalidRequest, NotFound, Unprocessable
from functions.common.models import Run, TaskToken, Transition
from functions.common.runs import ACTIVE, get_run, transition
from functions.common.sealing import seal
from functions.common.settings import settings
from functions.common.workspaces import get as get_workspace

OPERATIONS = ("plan", "apply", "destroy", "refresh-only")


def _check_body(body: dict[str, Any]) -> tuple[str, str, bool, dict[str, Any], list[str]]:
    cv = body.get("configuration_version")
    if not isinstance(cv, str) or not cv:
        raise InvalidRequest("configuration_version is required", code="invalid_field",
                             field="configuration_version")
    op = body.get("operation", "apply")
    if op not in OPERATIONS:
        raise InvalidRequest(f"operation must be one of {', '.join(OPERATIONS)}",
                             code="invalid_field", field="operation")
    auto = body.get("auto_apply", False)
    if not isinstance(auto, bool):
        raise InvalidRequest("auto_apply must be a boolean", code="invalid_field",
                             field="auto_apply")
    variables = body.get("variables", {}) or {}
    if not isinstance(variables, dict) or not all(isinstance(k, str) for k in variables):
        raise InvalidRequest("variables must be an object", code="invalid_field",
                             field="variables")
    targets = body.get("targets", []) or []
    if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
        raise InvalidRequest("targets must be a list of addresses", code="invalid_field",
                             field="targets")
    return cv, op, auto, variables, targets


def start_run(workspace: str, body: dict[str, Any], actor: str, source: str = "api",
              kind: str = "run") -> Run:
    """Create a run of `workspace` and start its state machine execution.

    Refuses (409) while another run of the workspace or of its state lineage is active; the
    lock taken here is released by the execution's finalize step on every exit path."""
    ws = get_workspace(workspace)
    cv, op, auto, variables, targets = _check_body(body)
    from functions.common.versions import check_run

    target = check_run(ws, {**body, "operation": op})
    cfg = settings()
    if not artifacts.exists(cfg.config_bucket, artifacts.config_key(workspace, cv)):
        raise Unprocessable(f"configuration version {cv} has not been uploaded",
                            code="configuration_version_missing")
    run_id = "run-" + uuid.uuid4().hex[:20]
    locks.acquire(workspace, ws.lineage, run_id, actor)
    try:
        at = now_iso()
        run = Run(
            run_id, workspace=workspace, operation=op, status="pending", auto_apply=auto,
            configuration_version=cv, targets=targets, source=source, created_by=actor, kind=kind,
            state_key=target.state_key, version=int(target.number),
            created_at=at, updated_at=at,
            history=[Transition(status="pending", at=at, by=actor, reason=source)],
        )
        if variables:
            key = artifacts.run_key(run_id, "variables.bin")
            artifacts.put(cfg.artifact_bucket, key, seal(variables, "variables", run_id))
            run.variables_key = key
        run.save(condition=Run.id.does_not_exist())
        out = client("stepfunctions").start_execution(
            stateMachineArn=cfg.state_machine_arn, name=run_id,
            input=json.dumps({"run_id": run_id, "workspace": workspace, "operation": op,
                              "auto_apply": auto}))
        run.update(actions=[Run.execution_arn.set(out["executionArn"])])
        audit.record("run.started", actor, source, workspace=workspace, run_id=run_id,
                     detail={"operation": op, "kind": kind, "auto_apply": auto})
    except Exception:
        locks.release(workspace, ws.lineage, run_id)
        raise
    return run


def list_runs(workspace: str, status: str | None = None, operation: str | None = None,
              since: str | None = None, limit: int = 50,
              before: str | None = None) -> tuple[list[Run], str | None]:
    """The workspace's runs, newest first, filtered; at most `limit` of them, created before
    `before` (the previous page's cursor). (runs, the next page's cursor or None)."""
    get_workspace(workspace)
    cond: Any = (Run.created_at < before) if before else None
    found: list[Run] = []
    for r in Run.by_workspace.query(workspace, range_key_condition=cond,
                                    scan_index_forward=False):
        if since and r.created_at < since:
            break
        if (status is None or r.status == status) and (operation is None
                                                       or r.operation == operation):
            found.append(r)
        if len(found) > limit:
            break
    more = len(found) > limit
    page = found[:limit]
    return page, (page[-1].created_at if more and page else None)


def _token(run: Run) -> TaskToken:
    try:
        return TaskToken.get(run.id, consistent_read=True)
    except TaskToken.DoesNotExist:
        raise Conflict(f"run {run.id} is not waiting for approval", code="not_awaiting_approval",
                       status=run.status) from None


def decide(run_id: str, approve: bool, user: str, source: str) -> Run:
    """Approve or reject run `run_id` as `user` (who must be one of its workspace's approvers).

    The approval is bound to the plan digest recorded when the approval was requested: the
    execution resumes with that digest and the apply refuses any other plan."""
    run = get_run(run_id)
    ws = get_workspace(run.workspace)
    if user not in (ws.approvers or []):
        raise Forbidden(f"{user} is not an approver of workspace {ws.name}",
                        code="not_an_approver")
    if run.status != "awaiting_approval":
        raise Conflict(f"run {run.id} is {run.status}, not awaiting approval",
                       code="not_awaiting_approval", status=run.status)
    token = _token(run)
    sfn = client("stepfunctions")
    audit.record("run.approved" if approve else "run.rejected", user, source,
                 workspace=run.workspace, run_id=run.id, plan_digest=token.digest)
    if approve:
        transition(run, "applying", user, f"approved via {source}", approved_by=user,
                   approved_digest=token.digest)
        sfn.send_task_success(taskToken=token.token, output=json.dumps(
            {"approved_by": user, "digest": token.digest}))
    else:
        transition(run, "discarded", user, f"rejected via {source}")
        sfn.send_task_failure(taskToken=token.token, error="Rejected",
                              cause=f"rejected by {user}")
    token.delete()
    return run


def discard(run_id: str, user: str) -> Run:
    """Discard a run waiting for approval (as a rejection by `user`)."""
    run = get_run(run_id)
    if run.status != "awaiting_approval":
        raise Conflict(f"run {run.id} is {run.status}; only a run awaiting approval can be "
                       "discarded", code="illegal_transition", status=run.status)
    token = _token(run)
    transition(run, "discarded", user, "discarded")
    audit.record("run.discarded", user, "api", workspace=run.workspace, run_id=run.id,
                 plan_digest=run.plan_digest)
    client("stepfunctions").send_task_failure(taskToken=token.token, error="Discarded",
                                              cause=f"discarded by {user}")
    token.delete()
    return run


def cancel(run_id: str, user: str) -> Run:
    """Stop an active run's execution, release its locks and mark it canceled."""
    run = get_run(run_id)
    if run.status not in ACTIVE:
        raise Conflict(f"run {run.id} is {run.status}; it is not active",
                       code="illegal_transition", status=run.status)
    transition(run, "canceled", user, "canceled")
    audit.record("run.canceled", user, "api", workspace=run.workspace, run_id=run.id)
    if run.execution_arn:
        client("stepfunctions").stop_execution(executionArn=run.execution_arn,
                                               error="Canceled", cause=f"canceled by {user}")
    if run.node_count:
        from functions.common import fanout

        fanout.stop(run.id)  # nodes running finish; no further node starts
    ws = get_workspace(run.workspace)
    locks.release(run.workspace, ws.lineage, run.id)
    return run


def plan_artifact(run_id: str, fmt: str) -> bytes:
    """The run's rendered plan (`text`) or redacted JSON plan (`json`)."""
    run = get_run(run_id)
    if fmt not in ("text", "json"):
        raise InvalidRequest("format must be text or json", code="invalid_field", field="format")
    if run.plan_digest is None:
        raise NotFound(f"run {run_id} has no plan yet", code="plan_not_found")
    return artifacts.get_artifact(run_id, "plan.txt" if fmt == "text" else "plan.json")


def detect_drift(workspace: str, actor: str, source: str) -> Run:
    """Start a drift run: a refresh-only plan of the configuration last applied, with no
    apply step. 409 while the workspace has an active run (a schedule skips it then)."""
    ws = get_workspace(workspace)
    cv = ws.applied_configuration_version
    if not cv:
        raise Conflict(f"workspace {workspace} has no applied configuration to compare with",
                       code="nothing_applied")
    values: dict[str, Any] = {}
    if ws.applied_run:
        from functions.common.workdir import variables

        values = variables(get_run(ws.applied_run))  # re-sealed for the drift run
    return start_run(workspace, {"configuration_version": cv, "operation": "refresh-only",
                                 "variables": values}, actor, source=source, kind="drift")
