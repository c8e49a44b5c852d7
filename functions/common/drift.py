"""Drift: what a refresh-only plan found changed outside groundplan, attribute by attribute.

`drift_of(plan_json)` reads terraform's JSON plan (already redacted: sensitive values are
"(sensitive value)") and answers `{"changed": [{"address", "attributes": [{"path", "before",
"after"}]}], "deleted": [addresses]}`. `record` keeps the result on the run and the
workspace's drift status (`in_sync`, `drifted`, `errored`, last checked), and notifies the
workspace (its webhook with a Block Kit message, or its SNS topic) when drift appears or
clears."""

from __future__ import annotations

import json
from typing import Any

from functions.common import slack, webhook
from functions.common.aws import client
from functions.common.clock import now_iso
from functions.common.models import Run, Workspace


def _paths(before: Any, after: Any, prefix: str) -> list[dict[str, Any]]:
    if isinstance(before, dict) and isinstance(after, dict):
        out = []
        for key in sorted(set(before) | set(after)):
            out.extend(_paths(before.get(key), after.get(key),
                              f"{prefix}.{key}" if prefix else key))
        return out
    if before == after:
        return []
    return [{"path": prefix, "before": before, "after": after}]


def drift_of(plan_json: dict[str, Any]) -> dict[str, Any]:
    changed, deleted = [], []
    for rc in plan_json.get("resource_drift", []) or []:
        change = rc.get("change") or {}
        actions = change.get("actions") or []
        if actions == ["delete"]:
            deleted.append(rc["address"])
        elif actions == ["update"]:
            changed.append({"address": rc["address"],
                            "attributes": _paths(change.get("before"), change.get("after"), "")})
    return {"changed": changed, "deleted": sorted(deleted)}


def _message(ws: Workspace, run: Run, result: dict[str, Any] | None, status: str) -> dict[str, Any]:
    if status == "in_sync":
        return slack.notice(f"Workspace `{ws.name}` is back in sync with its configuration "
                            f"(drift run `{run.id}`).")
    if status == "errored":
        return slack.notice(f"Drift detection on `{ws.name}` failed (run `{run.id}`): "
                            f"{run.error or 'see its log'}")
    lines = [f"*Drift detected on `{ws.name}`* (run `{run.id}`)"]
    for c in (result or {}).get("changed", []):
        attrs = ", ".join(f"`{a['path']}`" for a in c["attributes"]) or "attributes"
        lines.append(f"• `{c['address']}` changed outside groundplan: {attrs}")
    for d in (result or {}).get("deleted", []):
        lines.append(f"• `{d}` was deleted outside groundplan")
    return slack.notice("\n".join(lines))


def record(run: Run, ws: Workspace, result: dict[str, Any] | None) -> str:
    """Keep the drift result and status; notify on a change of status. The new status."""
    if result is None:
        status = "errored"
    else:
        status = "drifted" if result["changed"] or result["deleted"] else "in_sync"
        run.update(actions=[Run.drift.set(json.dumps(result))])
    previous = ws.drift_status
    ws.update(actions=[Workspace.drift_status.set(status),
                       Workspace.drift_checked_at.set(now_iso()),
                       Workspace.drift_run.set(run.id)])
    notify = status != previous and not (previous is None and status == "in_sync")
    if notify:
        message = _message(ws, run, result, status)
        if ws.sns_topic_arn:
            client("sns").publish(TopicArn=ws.sns_topic_arn, Subject=f"groundplan drift: {ws.name}",
                                  Message=json.dumps(message))
        elif ws.notification_url:
            webhook.post(ws.notification_url, message)
    return status
