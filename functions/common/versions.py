"""Workspace versions: one state per version of a pipeline, so versions never corrupt each
other (InfraGlide's model).

A workspace starts as version 1 (its state key). `create` makes version N+1 with its own key:
the live state of the version it replaces is copied (same bytes: same lineage and serial, so
existing resources stay managed), the previous version becomes `archived`, the new one `live`.
Runs target the live version unless they name one; two runs of one lineage never run at once
(the workspace and lineage locks). Destroying an archived version needs `force_archived` and is
refused while any of its resources is also in the live version's state."""

from __future__ import annotations

import json
import uuid
from typing import Any

from functions.common import audit, locks, state_store
from functions.common.clock import now_iso
from functions.common.errors import Conflict, InvalidRequest, NotFound
from functions.common.models import Workspace, WorkspaceVersion
from functions.common.state_crypto import default_state_encryption


def _all(ws: Workspace) -> list[WorkspaceVersion]:
    found = list(ws.versions or [])
    if not found:  # a workspace from before versions: its key is version 1
        found = [WorkspaceVersion(number=1, state_key=ws.state_key, status="live",
                                  created_at=ws.created_at, created_by=ws.created_by)]
    return found


def version(ws: Workspace, number: int | None) -> WorkspaceVersion:
    """Version `number` of `ws` (None: the live one)."""
    for v in _all(ws):
        if (number is None and v.status == "live") or (number is not None
                                                       and int(v.number) == number):
            return v
    raise NotFound(f"workspace {ws.name} has no version {number}", code="version_not_found")


def create(ws: Workspace, actor: str) -> WorkspaceVersion:
    """A new live version starting from a copy of the live state (see the module docstring)."""
    lock_id = "version-" + uuid.uuid4().hex[:12]
    locks.acquire(ws.name, ws.lineage, lock_id, actor)
    try:
        versions = _all(ws)
        live = version(ws, None)
        number = max(int(v.number) for v in versions) + 1
        key = f"workspaces/{ws.name}/v{number}/terraform.tfstate"
        data, _ = state_store.read(state_store.Location(ws.name, live.state_key))
        if data is not None:
            state_store.write(state_store.Location(ws.name, key), data, None, run_id=lock_id,
                              actor=actor)
        for v in versions:
            if v.status == "live":
                v.status = "archived"
        new = WorkspaceVersion(number=number, state_key=key, status="live",
                               created_at=now_iso(), created_by=actor)
        ws.update(actions=[Workspace.versions.set([*versions, new]),
                           Workspace.state_key.set(key)])
        audit.record("workspace.version_created", actor, "api", workspace=ws.name,
                     detail={"version": number, "copied_from": int(live.number)})
        return new
    finally:
        locks.release(ws.name, ws.lineage, lock_id)


def _addresses(key: str, name: str) -> set[str]:
    data, _ = state_store.read(state_store.Location(name, key))
    if data is None:
        return set()
    doc = json.loads(default_state_encryption().decrypt(data))
    out = set()
    for rs in doc.get("resources") or []:
        if rs.get("mode", "managed") != "managed":
            continue
        prefix = f"{rs['module']}." if rs.get("module") else ""
        for inst in rs.get("instances") or []:
            key_text = "" if "index_key" not in inst else f"[{json.dumps(inst['index_key'])}]"
            out.add(f"{prefix}{rs['type']}.{rs['name']}{key_text}")
    return out


def check_run(ws: Workspace, body: dict[str, Any]) -> WorkspaceVersion:
    """The version a run body targets (`version`, default the live one); refuses destroying an
    archived version without `force_archived`, or while its resources are also live."""
    number = body.get("version")
    if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
        raise InvalidRequest("version must be a version number", code="invalid_field",
                             field="version")
    target = version(ws, number)
    if target.status == "archived":
        if body.get("operation") != "destroy":
            raise Conflict(f"version {int(target.number)} of {ws.name} is archived: only a "
                           "destroy may run on it", code="version_archived")
        if body.get("force_archived") is not True:
            raise Conflict(f"destroying archived version {int(target.number)} of {ws.name} "
                           "needs force_archived=true", code="force_archived_required")
        live = version(ws, None)
        shared = _addresses(target.state_key, ws.name) & _addresses(live.state_key, ws.name)
        if shared:
            raise Conflict(f"archived version {int(target.number)} still shares resources "
                           f"with the live version {int(live.number)}: "
                           + ", ".join(sorted(shared)[:10]), code="resources_still_live",
                           resources=sorted(shared))
    return target
