"""The audit log: every state-changing action with actor, time, source and, where one
applies, the run and plan digest. Items are append-only: a conditional put that never
overwrites (a new id per event)."""

from __future__ import annotations

import json
import uuid
from typing import Any

from functions.common.clock import now_iso
from functions.common.models import AuditEvent


def record(action: str, actor: str, source: str, *, workspace: str | None = None,
           run_id: str | None = None, plan_digest: str | None = None,
           detail: dict[str, Any] | None = None) -> AuditEvent:
    at = now_iso()
    event = AuditEvent(f"{at}#{uuid.uuid4().hex[:12]}", at=at, actor=actor, action=action,
                       source=source, workspace=workspace, run_id=run_id,
                       plan_digest=plan_digest, detail=json.dumps(detail) if detail else None)
    event.save(condition=AuditEvent.id.does_not_exist())
    return event


def query(workspace: str | None = None, run_id: str | None = None, action: str | None = None,
          since: str | None = None) -> list[dict[str, Any]]:
    out = []
    for e in AuditEvent.scan():
        if (workspace and e.workspace != workspace) or (run_id and e.run_id != run_id):
            continue
        if (action and e.action != action) or (since and e.at < since):
            continue
        out.append({"id": e.id, "at": e.at, "actor": e.actor, "action": e.action,
                    "source": e.source, "workspace": e.workspace, "run_id": e.run_id,
                    "plan_digest": e.plan_digest,
                    "detail": json.loads(e.detail) if e.detail else None})
    return sorted(out, key=lambda e: e["id"])
