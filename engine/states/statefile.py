"""Reading and writing Terraform's v4 state file format.

`write_state` produces byte-for-byte what Terraform writes for the same state (Go's JSON
indentation and escaping, outputs sorted by name, resources sorted by module, mode, type,
name and their instances by key), so terraform reads our states and we read theirs.
`read_state` reports problems as diagnostics, never exceptions.
"""

from __future__ import annotations

import json
from typing import Any

from engine.diags import Diagnostics, error
from engine.states import gojson
from engine.states.codec import decode_value, encode_value
from engine.states.state import (
    CheckObjectResult,
    CheckResult,
    OutputValue,
    Resource,
    ResourceInstance,
    ResourceInstanceObject,
    State,
    StateFile,
)
from engine.values import type_from_json


def read_state(text: str) -> tuple[StateFile | None, Diagnostics]:
    """Decode state file text; None with error diagnostics when it cannot be read."""
    diags = Diagnostics()
    try:
        raw = gojson.loads(text)
    except json.JSONDecodeError as exc:
        diags.append(error("Failed to load state", f"Error parsing state file: {exc.msg}"))
        return None, diags
    if not isinstance(raw, dict):
        diags.append(error("Failed to load state", "The state file is not a JSON object."))
        return None, diags
    version = raw.get("version")
    if version != "4":
        diags.append(
            error(
                "Unsupported state file format",
                f"The state file uses format version {version}, which is not supported by "
                "this program. Only version 4 state files can be read.",
            )
        )
        return None, diags
    state = State()
    for name, out in (raw.get("outputs") or {}).items():
        try:
            ty = type_from_json(out.get("type"))
            val = decode_value(out.get("value"), ty)
        except Exception as exc:  # the codec raises its own error kinds
            diags.append(
                error(
                    "Invalid output value saved in state",
                    f"The state file has an invalid value for output {name!r}: {exc}.",
                )
            )
            continue
        state.outputs[name] = OutputValue(val, bool(out.get("sensitive", False)))
    for rs in raw.get("resources") or []:
        state.resources.append(_read_resource(rs))
    checks = raw.get("check_results")
    if checks is not None:
        state.check_results = [_read_check(c) for c in checks]
    sf = StateFile(
        state=state,
        lineage=str(raw.get("lineage", "")),
        serial=int(raw.get("serial") or 0),
        terraform_version=str(raw.get("terraform_version", "")),
    )
    return sf, diags


def _read_resource(rs: dict[str, Any]) -> Resource:
    res = Resource(
        mode=rs.get("mode", "managed"),
        type=rs.get("type", ""),
        name=rs.get("name", ""),
        provider=rs.get("provider", ""),
        module=rs.get("module", ""),
        each=rs.get("each", ""),
    )
    by_key: dict[Any, ResourceInstance] = {}
    for inst in rs.get("instances") or []:
        key = inst.get("index_key")
        if isinstance(key, gojson.RawNumber):
            key = int(float(key))
        obj = ResourceInstanceObject(
            schema_version=int(inst.get("schema_version") or 0),
            attributes=inst.get("attributes"),
            attributes_flat=inst.get("attributes_flat"),
            sensitive_attributes=list(inst.get("sensitive_attributes") or []),
            private=inst.get("private"),
            dependencies=list(inst.get("dependencies") or []),
            create_before_destroy=bool(inst.get("create_before_destroy", False)),
            status=inst.get("status", ""),
        )
        ri = by_key.get((type(key).__name__, key))
        if ri is None:
            ri = ResourceInstance(index_key=key)
            by_key[(type(key).__name__, key)] = ri
            res.instances.append(ri)
        deposed = inst.get("deposed", "")
        if deposed:
            ri.deposed[deposed] = obj
        else:
            ri.current = obj
    return res


def _read_check(c: dict[str, Any]) -> CheckResult:
    objects = c.get("objects")
    return CheckResult(
        object_kind=c.get("object_kind", ""),
        config_addr=c.get("config_addr", ""),
        status=c.get("status", "unknown"),
        objects=None
        if objects is None
        else [
            CheckObjectResult(
                o.get("object_addr", ""), o.get("status", "unknown"),
                list(o.get("failure_messages") or []),
            )
            for o in objects
        ],
    )


def _instance_sort_key(inst: ResourceInstance) -> tuple[int, int, str]:
    k = inst.index_key
    if k is None:
        return (0, 0, "")
    if isinstance(k, int):
        return (1, k, "")
    return (2, 0, k)


def _object_json(key: int | str | None, deposed: str, obj: ResourceInstanceObject) -> Any:
    out: dict[str, Any] = {}
    if key is not None:
        out["index_key"] = key
    if obj.status:
        out["status"] = obj.status
    if deposed:
        out["deposed"] = deposed
    out["schema_version"] = obj.schema_version
    if obj.attributes is not None:
        # Raw JSON as the provider encoded it: re-indented, never reordered.
        out["attributes"] = obj.attributes
    if obj.attributes_flat:
        out["attributes_flat"] = gojson.sort_keys(obj.attributes_flat)
    out["sensitive_attributes"] = obj.sensitive_attributes
    if obj.private:
        out["private"] = obj.private
    if obj.dependencies:
        out["dependencies"] = obj.dependencies
    if obj.create_before_destroy:
        out["create_before_destroy"] = True
    return out


def state_to_json(sf: StateFile) -> dict[str, Any]:
    """The v4 file's JSON document (ordered as Terraform orders it)."""
    st = sf.state
    outputs: dict[str, Any] = {}
    for name in sorted(st.outputs):
        ov = st.outputs[name]
        entry: dict[str, Any] = {
            "value": encode_value(ov.value),
            "type": ov.value.type.to_json(),
        }
        if ov.sensitive:
            entry["sensitive"] = True
        outputs[name] = entry
    resources: list[Any] = []
    for rs in sorted(st.resources, key=lambda r: (r.module, r.mode, r.type, r.name)):
        rj: dict[str, Any] = {}
        if rs.module:
            rj["module"] = rs.module
        rj["mode"] = rs.mode
        rj["type"] = rs.type
        rj["name"] = rs.name
        if rs.each:
            rj["each"] = rs.each
        rj["provider"] = rs.provider
        instances: list[Any] = []
        for inst in sorted(rs.instances, key=_instance_sort_key):
            if inst.current is not None:
                instances.append(_object_json(inst.index_key, "", inst.current))
            for dk in sorted(inst.deposed):
                instances.append(_object_json(inst.index_key, dk, inst.deposed[dk]))
        rj["instances"] = instances
        resources.append(rj)
    checks: list[Any] | None = None
    if st.check_results:
        checks = []
        for c in st.check_results:
            objs: list[Any] | None = None
            if c.objects:
                objs = []
                for o in c.objects:
                    oj: dict[str, Any] = {"object_addr": o.object_addr, "status": o.status}
                    if o.failure_messages:
                        oj["failure_messages"] = o.failure_messages
                    objs.append(oj)
            checks.append(
                {
                    "object_kind": c.object_kind,
                    "config_addr": c.config_addr,
                    "status": c.status,
                    "objects": objs,
                }
            )
    return {
        "version": 4,
        "terraform_version": sf.terraform_version,
        "serial": sf.serial,
        "lineage": sf.lineage,
        "outputs": outputs,
        "resources": resources,
        "check_results": checks,
    }


def write_state(sf: StateFile) -> str:
    """The state file text Terraform would write for `sf` (ends with a newline)."""
    return gojson.dumps(state_to_json(sf)) + "\n"


def states_equal(a: State, b: State) -> bool:
    """Whether two states serialise identically (serial, lineage and version aside)."""
    probe_a = StateFile(a, lineage="", serial=0, terraform_version="")
    probe_b = StateFile(b, lineage="", serial=0, terraform_version="")
    return state_to_json(probe_a) == state_to_json(probe_b)
