"""State surgery through the control plane: `state mv` and `state rm` on a workspace's live
state, with the engine's own logic (`engine.operations.state_edit`, what `groundplan state
mv/rm` run).

Each action takes the workspace (and lineage) lock, so it is refused with a 409 naming the
active run while one holds it; reads the state with its ETag and S3 version id; edits a copy;
writes the result (serial + 1, same lineage) only over the version it read (`If-Match`); and
records an audit event. The version it replaced stays in the bucket (S3 versioning) as the
backup: the answer names it (`backup_version`) beside the new version, and
`POST …/state/versions/{backup_version}/restore` undoes the action. A refused edit (an
address that does not parse, a taken destination, nothing matched) writes nothing and is a
422 with terraform's diagnostics. Answers carry addresses only, scrubbed of every value the
state marks sensitive all the same.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

from engine.diags import Diagnostics, error
from engine.operations import state_edit
from engine.states.edit import copy_state_file
from engine.states.state import StateFile
from engine.states.statefile import read_state, write_state
from functions.common import audit, locks, state_store
from functions.common.errors import InvalidRequest, NotFound, Unprocessable
from functions.common.inspector import sensitive_values
from functions.common.models import Workspace
from functions.common.redact import scrub
from functions.common.state_crypto import default_state_encryption


@dataclass
class _Current:
    """The live state as read: decoded, its ETag and version id, and its sensitive values."""

    state_file: StateFile
    etag: str
    version_id: str | None
    secrets: list[str]


def _read(ws: Workspace) -> _Current:
    data, etag, version_id = state_store.read_versioned(state_store.of_workspace(ws))
    if data is None or etag is None:
        raise NotFound(f"workspace {ws.name} has no state yet", code="no_state")
    plain = default_state_encryption().decrypt(data)
    sf, diags = read_state(plain)
    if sf is None:
        raise Unprocessable(f"the state of workspace {ws.name} cannot be read: "
                            + _messages(diags), code="unreadable_state")
    return _Current(sf, etag, version_id, sensitive_values(json.loads(plain)))


def _messages(diags: Diagnostics) -> str:
    return "; ".join(f"{d.summary}: {d.detail}" if d.detail else d.summary
                     for d in diags.errors)


def _refused(diags: Diagnostics, secrets: list[str], fallback: str = "") -> Unprocessable:
    text = scrub(_messages(diags) or fallback, secrets)
    return Unprocessable(text, code="state_edit_refused",
                         diagnostics=[{"summary": scrub(d.summary, secrets),
                                       "detail": scrub(d.detail or "", secrets)}
                                      for d in diags])


def _text(body: dict[str, Any], name: str) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not value:
        raise InvalidRequest(f"{name} must be a resource, instance or module address",
                             code="invalid_field", field=name)
    return value


def _dry_run(body: dict[str, Any]) -> bool:
    value = body.get("dry_run", False)
    if not isinstance(value, bool):
        raise InvalidRequest("dry_run must be true or false", code="invalid_field",
                             field="dry_run")
    return value


def _write(ws: Workspace, cur: _Current, sf: StateFile, lock_id: str,
           actor: str) -> dict[str, Any]:
    sf.serial = cur.state_file.serial + 1
    data = default_state_encryption().encrypt(write_state(sf).encode())
    _, new_version = state_store.write_versioned(state_store.of_workspace(ws), data, cur.etag,
                                                 run_id=lock_id, actor=actor)
    return {"backup_version": cur.version_id, "version": new_version, "serial": sf.serial,
            "lineage": sf.lineage}


def _locked(ws: Workspace, actor: str, kind: str) -> str:
    lock_id = f"state-{kind}-" + uuid.uuid4().hex[:12]
    locks.acquire(ws.name, ws.lineage, lock_id, actor)
    return lock_id


def move(ws: Workspace, body: dict[str, Any], actor: str, source: str) -> dict[str, Any]:
    """`state mv SOURCE DESTINATION` on the live state of `ws` (body: `source`,
    `destination`, optional `dry_run`); the moves made and the versions before and after."""
    src, dst, dry_run = _text(body, "source"), _text(body, "destination"), _dry_run(body)
    lock_id = _locked(ws, actor, "mv")
    try:
        cur = _read(ws)
        sf = copy_state_file(cur.state_file)
        result = state_edit.move(sf.state, sf.state, src, dst, dry_run)
        if result.failed:
            raise _refused(result.diagnostics, cur.secrets, "Error moving state: "
                           + result.refused)
        moves = [{"from": a, "to": b} for a, b in result.moves]
        answer: dict[str, Any] = {"moves": moves, "dry_run": dry_run}
        if not dry_run:
            answer.update(_write(ws, cur, sf, lock_id, actor))
            audit.record("state.moved", actor, source, workspace=ws.name,
                         detail={"source": src, "destination": dst, "moves": moves,
                                 "backup_version": answer["backup_version"],
                                 "version": answer["version"], "serial": answer["serial"]})
    finally:
        locks.release(ws.name, ws.lineage, lock_id)
    return dict(json.loads(scrub(json.dumps(answer), cur.secrets)))


def remove(ws: Workspace, body: dict[str, Any], actor: str, source: str) -> dict[str, Any]:
    """`state rm ADDRESS...` on the live state of `ws` (body: `addresses`, optional
    `dry_run`); the instances removed and the versions before and after."""
    addresses = body.get("addresses")
    if (not isinstance(addresses, list) or not addresses
            or not all(isinstance(a, str) and a for a in addresses)):
        raise InvalidRequest("addresses must be a non-empty list of addresses",
                             code="invalid_field", field="addresses")
    dry_run = _dry_run(body)
    lock_id = _locked(ws, actor, "rm")
    try:
        cur = _read(ws)
        sf = copy_state_file(cur.state_file)
        result = state_edit.remove(sf.state, addresses, dry_run)
        if result.nothing_matched and not dry_run and not result.diagnostics.has_errors:
            result.diagnostics.append(error("Invalid target address", state_edit.NOTHING_MATCHED))
        if result.diagnostics.has_errors:
            raise _refused(result.diagnostics, cur.secrets)
        removed = [str(a) for a in result.removed]
        answer: dict[str, Any] = {"removed": removed, "dry_run": dry_run}
        if not dry_run:
            answer.update(_write(ws, cur, sf, lock_id, actor))
            audit.record("state.removed", actor, source, workspace=ws.name,
                         detail={"addresses": addresses, "removed": removed,
                                 "backup_version": answer["backup_version"],
                                 "version": answer["version"], "serial": answer["serial"]})
    finally:
        locks.release(ws.name, ws.lineage, lock_id)
    return dict(json.loads(scrub(json.dumps(answer), cur.secrets)))
