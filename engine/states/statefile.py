"""Reading and writing Terraform's v4 state file format.

`write_state` produces byte-for-byte what Terraform writes for the same state (Go's JSON
indentation and escaping, outputs sorted by name, resources sorted by module, mode, type,
name and their instances by key), so terraform reads our states and we read theirs.
`read_state` reports problems as diagnostics, never exceptions.
"""

from __future__ import annotations

import re
from typing import Any

from engine.diags import Diagnostics, error
from engine.gocompat import json as gojson
from engine.gocompat.json_syntax import go_syntax_error
from engine.states.codec import decode_value, encode_value
from engine.states.state import (
    TERRAFORM_VERSION,
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

_UNSUPPORTED = "Unsupported state file format"
# hashicorp/go-version's version pattern (NewVersion): what a `terraform_version` must match.
_GO_VERSION = re.compile(
    r"^v?([0-9]+(\.[0-9]+)*?)"
    r"(-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)|(-?([A-Za-z\-~]+[0-9A-Za-z\-~]*"
    r"(\.[0-9A-Za-z\-~]+)*)))?(\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))?$"
)
_UINT64_MAX = 2**64 - 1

# The fields of Terraform's stateV4 structure (for "Invalid state file format"): JSON key ->
# (Go type, JSON kinds it accepts). Nested structs have their own field tables.
_STR = ("string", ("string",))
_TOP_FIELDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "terraform_version": _STR,
    "serial": ("uint64", ("uint",)),
    "lineage": _STR,
    "outputs": ("map[string]statefile.outputStateV4", ("object",)),
    "resources": ("[]statefile.resourceStateV4", ("array",)),
    "check_results": ("[]statefile.checkResultsV4", ("array",)),
}
_RESOURCE_FIELDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "module": _STR, "mode": _STR, "type": _STR, "name": _STR, "each": _STR, "provider": _STR,
    "instances": ("[]statefile.instanceObjectStateV4", ("array",)),
}
_INSTANCE_FIELDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "status": _STR,
    "deposed": _STR,
    "schema_version": ("uint64", ("uint",)),
    "attributes_flat": ("map[string]string", ("object",)),
    "private": ("[]uint8", ("string",)),
    "dependencies": ("[]string", ("array",)),
    "create_before_destroy": ("bool", ("bool",)),
}


def _json_kind(v: Any) -> str:
    """Go's name for a JSON value's kind in an UnmarshalTypeError ("number 1.5", "string")."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, gojson.RawNumber):
        return "number " + v
    if isinstance(v, (int, float)):
        return f"number {v}"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def _accepts(v: Any, kinds: tuple[str, ...]) -> bool:
    if v is None:  # null leaves a Go field at its zero value
        return True
    if "uint" in kinds and isinstance(v, gojson.RawNumber):
        return v.isdigit() and int(v) <= _UINT64_MAX
    return _json_kind(v).split(" ")[0] in kinds


def _go_type_error(v: Any, kinds: tuple[str, ...]) -> str:
    """UnmarshalTypeError's Value: "number X" only when a number does not fit an unsigned
    integer field, otherwise the bare kind."""
    kind = _json_kind(v)
    return kind if kinds == ("uint",) else kind.split(" ")[0]


def _structure_error(raw: dict[str, Any]) -> tuple[str, str] | None:
    """(field path, JSON kind found) of the first UnmarshalTypeError Go's decoder meets
    decoding `raw` into Terraform's stateV4 structure, or None."""

    def check(obj: dict[str, Any], table: dict[str, tuple[str, tuple[str, ...]]],
              path: str) -> tuple[str, str] | None:
        for key, (_go_type, kinds) in table.items():
            v = obj.get(key)
            if not _accepts(v, kinds):
                return path + key, _go_type_error(v, kinds)
        return None

    found = check(raw, _TOP_FIELDS, "")
    for rs in ([] if found else raw.get("resources") or []):
        if not isinstance(rs, dict):
            return "resources", _go_type_error(rs, ())
        found = check(rs, _RESOURCE_FIELDS, "resources.")
        for inst in ([] if found else rs.get("instances") or []):
            if not isinstance(inst, dict):
                return "resources.instances", _go_type_error(inst, ())
            found = check(inst, _INSTANCE_FIELDS, "resources.instances.")
            if found:
                break
        if found:
            break
    return found


def _sniff_version(raw: Any, diags: Diagnostics) -> int | None:
    """Terraform's sniffJSONStateVersion over the decoded document."""
    if isinstance(raw, dict):
        found = raw.get("version")
        if isinstance(found, gojson.RawNumber) and found.isdigit() and int(found) <= _UINT64_MAX:
            return int(found)
        if found is None:
            diags.append(error(_UNSUPPORTED, _NO_VERSION))
            return None
        diags.append(error(_UNSUPPORTED, f"The version in the state file is {_json_kind(found)}. "
                           "A positive whole number is required."))
        return None
    if raw is not None:
        diags.append(error(_UNSUPPORTED, f"The version in the state file is "
                           f"{_json_kind(raw).split(' ')[0]}. A positive whole number is required."))
    diags.append(error(_UNSUPPORTED, _NO_VERSION))
    return None


_NO_VERSION = ('The state file does not have a "version" attribute, which is required to '
               "identify the format version.")


def read_state(source: str | bytes) -> tuple[StateFile | None, Diagnostics]:
    """Decode state file content; None with Terraform's error diagnostics when it cannot be
    used (not JSON, no or a bad `version`, an unsupported format version, a malformed
    document). Versions 1 to 3 are upgraded as terraform upgrades them
    (engine.states.legacy_upgrade). The caller treats empty content as "no state" before calling this."""
    diags = Diagnostics()
    data = source.encode("utf-8", "surrogateescape") if isinstance(source, str) else source
    if data.startswith(b"tfstate"):
        diags.append(error(_UNSUPPORTED, (
            "The state is stored in a legacy binary format that is not supported since "
            "Terraform v0.7. To continue, first upgrade the state using Terraform 0.6.16 or "
            "earlier.")))
        return None, diags
    try:
        raw = gojson.loads_strict(data)  # valid JSON (most state files): parsed once
    except (ValueError, RecursionError):
        syntax = go_syntax_error(data)
        if syntax is not None:
            diags.append(error(_UNSUPPORTED, "The state file could not be parsed as JSON: "
                               f"syntax error at byte offset {syntax.offset}."))
            diags.append(error(_UNSUPPORTED, _NO_VERSION))
            return None, diags
        raw = gojson.loads(data.decode("utf-8", "replace"))
    version = _sniff_version(raw, diags)
    if version is None:
        return None, diags
    if version == 0:
        diags.append(error(_UNSUPPORTED, (
            "The state file uses JSON syntax but has a version number of zero. There was never "
            "a JSON-based state format zero, so this state file is invalid and cannot be "
            "processed.")))
        return None, diags
    if version in (1, 2, 3) and isinstance(raw, dict):
        from engine.states.legacy_upgrade import upgrade_legacy

        upgraded, more = upgrade_legacy(raw, version)
        diags.extend(more)
        if upgraded is None:
            return None, diags
        raw, version = upgraded, 4
    if version != 4:
        creator = _creator(raw)
        tail = (f"This state file was created by Terraform {creator}." if creator else
                "This state file may have been created by a newer version of Terraform.")
        diags.append(error(_UNSUPPORTED, f"The state file uses format version {version}, which "
                           f"is not supported by Terraform {TERRAFORM_VERSION}. {tail}"))
        return None, diags
    assert isinstance(raw, dict)
    problem = _structure_error(raw)
    if problem is not None:
        field, kind = problem
        diags.append(error("Invalid state file format",
                           f"The state file field {gojson.quote(field)} has invalid value {kind}"))
        return None, diags
    sf = _prepare_v4(raw, diags)
    return (None if diags.has_errors else sf), diags


def _creator(raw: dict[str, Any]) -> str:
    """The `terraform_version` of `raw` when it is a valid version string, else ""."""
    found = raw.get("terraform_version")
    return found if isinstance(found, str) and _GO_VERSION.match(found) else ""


def _prepare_v4(raw: dict[str, Any], diags: Diagnostics) -> StateFile:
    """Terraform's prepareStateV4: the state, with its diagnostics for invalid content."""
    tf_version = raw.get("terraform_version") or ""
    if tf_version and not _GO_VERSION.match(tf_version):
        diags.append(error("Invalid Terraform version string", (
            f"State file claims to have been written by Terraform version "
            f"{gojson.quote(tf_version)}, which is not a valid version string.")))
    state = State()
    # As terraform's reader: entries with the same address make one resource (their
    # instances are merged; an instance given twice is "Duplicate resource instance").
    by_addr: dict[tuple[str, str, str, str], Resource] = {}
    for rs in raw.get("resources") or []:
        key = (str(rs.get("module") or ""), str(rs.get("mode") or ""), str(rs.get("type") or ""),
               str(rs.get("name") or ""))
        res = _read_resource(rs, diags, by_addr.get(key))
        if res is not None and key not in by_addr:
            by_addr[key] = res
            state.resources.append(res)
    for name, out in (raw.get("outputs") or {}).items():
        _read_output(state, name, out, diags)
    checks = raw.get("check_results")
    if checks is not None:
        state.check_results = [_read_check(c) for c in checks]
    return StateFile(
        state=state,
        lineage=str(raw.get("lineage") or ""),
        serial=int(raw.get("serial") or 0),
        terraform_version=str(tf_version),
    )


def _read_output(state: State, name: str, out: Any, diags: Diagnostics) -> None:
    out = out if isinstance(out, dict) else {}
    try:
        ty = type_from_json(out.get("type"))
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        spec = out.get("type")
        why = (f"invalid primitive type name {gojson.quote(spec)}" if isinstance(spec, str)
               else str(exc))
        diags.append(error("Invalid output value type in state", (
            f"The state file has an invalid type specification for output "
            f"{gojson.quote(name)}: {why}.")))
        return
    try:
        val = decode_value(out.get("value"), ty)
    except Exception as exc:  # the codec raises its own error kinds
        diags.append(error("Invalid output value saved in state", (
            f"The state file has an invalid value for output {gojson.quote(name)}: {exc}.")))
        return
    state.outputs[name] = OutputValue(val, bool(out.get("sensitive", False)))


def _go_value(v: Any) -> str:
    """Go's `%#v` of a decoded JSON value (for an invalid instance key)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[]interface {}{" + ", ".join(_go_value(x) for x in v) + "}"
    if isinstance(v, dict):
        inner = ", ".join(f"{gojson.quote(k)}:{_go_value(x)}" for k, x in sorted(v.items()))
        return "map[string]interface {}{" + inner + "}"
    if isinstance(v, str) and not isinstance(v, gojson.RawNumber):
        return gojson.quote(v)
    return str(v)


def _read_resource(rs: dict[str, Any], diags: Diagnostics, into: Resource | None = None
                   ) -> Resource | None:
    """The resource of state entry `rs`, or, with `into` (an earlier entry of the same
    address), `into` with this entry's instances added."""
    mode = rs.get("mode") or ""
    type_, name = rs.get("type") or "", rs.get("name") or ""
    if mode not in ("managed", "data"):
        diags.append(error("Invalid resource mode in state", (
            f"State contains a resource with mode {gojson.quote(mode)} ({gojson.quote(type_)} "
            f"{gojson.quote(name)}) which is not supported.")))
        return None
    res = into if into is not None else Resource(
        mode=mode,
        type=type_,
        name=name,
        provider=rs.get("provider") or "",
        module=rs.get("module") or "",
        each=rs.get("each") or "",
    )
    if into is not None and rs.get("provider"):
        res.provider = rs.get("provider") or ""
    prefix = f"{res.module}." if res.module else ""
    addr = f"{prefix}{'data.' if mode == 'data' else ''}{type_}.{name}"
    by_key: dict[Any, ResourceInstance] = {(type(ri.index_key).__name__, ri.index_key): ri
                                           for ri in res.instances}
    for inst in rs.get("instances") or []:
        key = inst.get("index_key")
        if isinstance(key, gojson.RawNumber):
            key = int(float(key))
        elif key is not None and (not isinstance(key, str) or isinstance(key, bool)):
            diags.append(error("Invalid resource instance metadata in state", (
                f"Resource {addr} has an instance with the invalid instance key "
                f"{_go_value(key)}.")))
            continue
        inst_addr = addr + ("" if key is None else
                            f"[{key}]" if isinstance(key, int) else f"[{gojson.quote(key)}]")
        status = inst.get("status") or ""
        if status not in ("", "tainted"):
            diags.append(error("Invalid resource instance metadata in state", (
                f"Instance {inst_addr} has invalid status {gojson.quote(status)}.")))
            continue
        obj = ResourceInstanceObject(
            schema_version=int(inst.get("schema_version") or 0),
            attributes=inst.get("attributes"),
            attributes_flat=inst.get("attributes_flat"),
            sensitive_attributes=list(inst.get("sensitive_attributes") or []),
            private=inst.get("private"),
            dependencies=list(inst.get("dependencies") or []),
            create_before_destroy=bool(inst.get("create_before_destroy", False)),
            status=status,
        )
        ri = by_key.get((type(key).__name__, key))
        if ri is None:
            ri = ResourceInstance(index_key=key)
            by_key[(type(key).__name__, key)] = ri
            res.instances.append(ri)
        deposed = inst.get("deposed") or ""
        if deposed:
            if len(deposed) != 8:
                diags.append(error("Invalid resource instance metadata in state", (
                    f"Instance {inst_addr} has an object with deposed key "
                    f"{gojson.quote(deposed)}, which is not correctly formatted.")))
            elif deposed in ri.deposed:
                diags.append(error("Duplicate resource instance in state", (
                    f"Instance {inst_addr} deposed object {gojson.quote(deposed)} appears "
                    "multiple times in the state file.")))
            else:
                ri.deposed[deposed] = obj
        elif ri.current is not None:
            diags.append(error("Duplicate resource instance in state",
                               f"Instance {inst_addr} appears multiple times in the state file."))
        else:
            ri.current = obj
    res.instances = [ri for ri in res.instances if ri.current is not None or ri.deposed]
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
