"""The state inspector: a workspace's state as people look into it and repair it, without a
laptop holding credentials. Every value the state marks sensitive is redacted; restores take
the workspace lock, keep lineage, write a new version and are audited."""

from __future__ import annotations

import json
import uuid
from typing import Any

from functions.common import audit, locks, state_store
from functions.common.errors import Conflict, NotFound
from functions.common.models import Workspace
from functions.common.redact import REDACTED, scrub, secret_strings
from functions.common.state_crypto import default_state_encryption


def _decode(data: bytes) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(default_state_encryption().decrypt(data))
    return doc


def current(ws: Workspace) -> tuple[dict[str, Any] | None, str | None]:
    """The live state of `ws` (decrypted) and its ETag."""
    loc = state_store.of_workspace(ws)
    data, etag = state_store.read(loc)
    return (_decode(data), etag) if data is not None else (None, None)


def _redact_path(value: Any, path: list[dict[str, Any]]) -> Any:
    if not path:
        return REDACTED if value is not None else None
    step, rest = path[0], path[1:]
    key = step.get("value")
    if isinstance(value, dict) and set(value) == {"value", "type"} and key not in value:
        # a dynamically typed attribute is stored as {"value": ..., "type": ...}
        return {**value, "value": _redact_path(value["value"], path)}
    if isinstance(value, dict) and key in value:
        return {**value, key: _redact_path(value[key], rest)}
    if isinstance(value, list) and isinstance(key, int) and 0 <= key < len(value):
        return [_redact_path(v, rest) if i == key else v for i, v in enumerate(value)]
    return value


def _at_path(value: Any, path: list[dict[str, Any]]) -> Any:
    for step in path:
        key = step.get("value")
        if isinstance(value, dict) and set(value) == {"value", "type"} and key not in value:
            value = value["value"]
        in_dict = isinstance(value, dict) and key in value
        in_list = isinstance(value, list) and isinstance(key, int) and 0 <= key < len(value)
        if not (in_dict or in_list):
            return None
        value = value[key]
    return value


def sensitive_values(doc: dict[str, Any]) -> list[str]:
    """Every value the state marks sensitive (instance paths, sensitive outputs), as the
    strings `scrub` removes wherever else they appear (terraform marks `terraform_data.input`
    but not the `output` that echoes it, for example)."""
    found: list[Any] = [v.get("value") for v in (doc.get("outputs") or {}).values()
                        if v.get("sensitive")]
    for rs in doc.get("resources") or []:
        for inst in rs.get("instances") or []:
            for path in inst.get("sensitive_attributes") or []:
                found.append(_at_path(inst.get("attributes") or {}, path))
    return secret_strings(found)


def redacted_instance(inst: dict[str, Any]) -> dict[str, Any]:
    attrs = inst.get("attributes") or {}
    for path in inst.get("sensitive_attributes") or []:
        attrs = _redact_path(attrs, path)
    return {**inst, "attributes": attrs, "private": None}


def _scrubbed(value: Any, secrets: list[str]) -> Any:
    return json.loads(scrub(json.dumps(value), secrets)) if secrets else value


def redacted_state(doc: dict[str, Any]) -> dict[str, Any]:
    out = dict(doc)
    out["outputs"] = {k: {**v, "value": REDACTED} if v.get("sensitive") else v
                      for k, v in (doc.get("outputs") or {}).items()}
    out["resources"] = [{**rs, "instances": [redacted_instance(i) for i in rs["instances"]]}
                        for rs in doc.get("resources") or []]
    return dict(_scrubbed(out, sensitive_values(doc)))


def _address(rs: dict[str, Any]) -> str:
    prefix = f"{rs['module']}." if rs.get("module") else ""
    mode = "data." if rs.get("mode") == "data" else ""
    return f"{prefix}{mode}{rs['type']}.{rs['name']}"


def resources(ws: Workspace) -> list[dict[str, Any]]:
    doc, _ = current(ws)
    return [{"address": _address(rs), "type": rs["type"], "name": rs["name"],
             "mode": rs.get("mode", "managed"), "provider": rs.get("provider"),
             "module": rs.get("module"), "instances": len(rs.get("instances") or [])}
            for rs in (doc or {}).get("resources") or []]


def resource(ws: Workspace, address: str) -> dict[str, Any]:
    doc, _ = current(ws)
    for rs in (doc or {}).get("resources") or []:
        if _address(rs) == address:
            found = {"address": address, "type": rs["type"], "provider": rs.get("provider"),
                     "instances": [redacted_instance(i) for i in rs["instances"]]}
            return dict(_scrubbed(found, sensitive_values(doc or {})))
    raise NotFound(f"the state of workspace {ws.name} has no resource {address}",
                   code="resource_not_found")


def raw(ws: Workspace) -> dict[str, Any]:
    doc, _ = current(ws)
    if doc is None:
        raise NotFound(f"workspace {ws.name} has no state yet", code="no_state")
    return redacted_state(doc)


def versions(ws: Workspace) -> list[dict[str, Any]]:
    out = []
    loc = state_store.of_workspace(ws)
    for v in state_store.versions(loc):
        doc = _decode(state_store.read_version(loc, str(v["id"])))
        out.append({**v, "serial": doc.get("serial"), "lineage": doc.get("lineage")})
    return out


def restore(ws: Workspace, version_id: str, actor: str, source: str) -> dict[str, Any]:
    """Make version `version_id` the current state again, as a new version (serial above the
    current one, same lineage); refused while a run is active or across lineages."""
    lock_id = "restore-" + uuid.uuid4().hex[:12]
    loc = state_store.of_workspace(ws)
    locks.acquire(ws.name, ws.lineage, lock_id, actor)
    try:
        old = _decode(state_store.read_version(loc, version_id))
        cur, etag = current(ws)
        if cur is not None and cur.get("lineage") != old.get("lineage"):
            raise Conflict(f"version {version_id} belongs to lineage {old.get('lineage')}, the "
                           f"state to {cur.get('lineage')}", code="lineage_mismatch")
        doc = {**old, "serial": int((cur or old).get("serial", 0)) + 1}
        data = default_state_encryption().encrypt(json.dumps(doc, indent=2).encode())
        state_store.write(loc, data, etag, run_id=lock_id, actor=actor)
        audit.record("state.restored", actor, source, workspace=ws.name,
                     detail={"version": version_id, "serial": doc["serial"]})
    finally:
        locks.release(ws.name, ws.lineage, lock_id)
    return {"restored": version_id, "serial": doc["serial"], "lineage": doc.get("lineage")}
