"""Workspaces: create, read, list (the records behind `/workspaces`)."""

from __future__ import annotations

import re
from typing import Any

from pynamodb.exceptions import PutError

from functions.common.clock import now_iso
from functions.common.errors import Conflict, InvalidRequest, NotFound, condition_failed
from functions.common.models import Credentials, Workspace, WorkspaceVersion

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,89}$")


def _strings(value: Any, field: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise InvalidRequest(f"{field} must be a list of non-empty strings",
                             code="invalid_field", field=field)
    return list(value)


def create(body: dict[str, Any], actor: str) -> Workspace:
    """A new workspace from the API body; Conflict when the name is taken."""
    name = body.get("name")
    if not isinstance(name, str) or not NAME.match(name):
        raise InvalidRequest("name must be 1-90 letters, digits, '-' or '_'",
                             code="invalid_field", field="name")
    url = body.get("notification_url")
    if url is not None and (not isinstance(url, str) or not url.startswith(("http://", "https://"))):
        raise InvalidRequest("notification_url must be an http(s) URL", code="invalid_field",
                             field="notification_url")
    creds = body.get("credentials") or {}
    if not isinstance(creds, dict) or set(creds) - {"role_arn", "secret_id"}:
        raise InvalidRequest("credentials takes role_arn or secret_id", code="invalid_field",
                             field="credentials")
    drift = body.get("drift", {}) or {}
    if not isinstance(drift, dict) or set(drift) - {"enabled", "reconcile", "sns_topic_arn",
                                                    "interval_minutes"}:
        raise InvalidRequest("drift takes enabled, interval_minutes, reconcile and "
                             "sns_topic_arn", code="invalid_field", field="drift")
    interval = drift.get("interval_minutes", 60)
    if not isinstance(interval, int) or isinstance(interval, bool) or not 5 <= interval <= 10080:
        raise InvalidRequest("drift.interval_minutes must be a whole number from 5 to 10080",
                             code="invalid_field", field="drift.interval_minutes")
    ws = Workspace(
        name,
        drift_detection=bool(drift.get("enabled", True)),
        drift_interval=interval,
        reconcile=bool(drift.get("reconcile", False)),
        sns_topic_arn=drift.get("sns_topic_arn"),
        approvers=_strings(body.get("approvers"), "approvers"),
        notification_url=url,
        credentials=Credentials(role_arn=creds.get("role_arn"), secret_id=creds.get("secret_id")),
        state_key=f"workspaces/{name}/terraform.tfstate",
        versions=[WorkspaceVersion(number=1, state_key=f"workspaces/{name}/terraform.tfstate",
                                   status="live", created_at=now_iso(), created_by=actor)],
        created_at=now_iso(),
        created_by=actor,
    )
    try:
        ws.save(condition=Workspace.name.does_not_exist())
    except PutError as exc:
        if condition_failed(exc):
            raise Conflict(f"workspace {name} already exists", code="workspace_exists") from None
        raise
    from functions.common import audit

    audit.record("workspace.created", actor, "api", workspace=name,
                 detail={"approvers": list(ws.approvers or [])})
    return ws


def get(name: str) -> Workspace:
    try:
        return Workspace.get(name, consistent_read=True)
    except Workspace.DoesNotExist:
        raise NotFound(f"workspace {name} does not exist", code="workspace_not_found") from None


def list_all() -> list[Workspace]:
    return sorted(Workspace.scan(), key=lambda w: w.name)
