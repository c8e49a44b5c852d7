"""Resource instance objects between the state file's JSON and typed Values.

- `decode_object(provider, type_name, schema, obj)`: a stored object as a Value of the
  schema's type, through the provider's UpgradeResourceState (so older schema versions are
  upgraded), with the stored `sensitive_attributes` and the schema's sensitive attributes
  marked.
- `encode_object(schema, value, ...)`: a new `ResourceInstanceObject` for a Value: attributes
  as the state file's JSON (cty's rules: `{"value", "type"}` wrappers where the schema says
  `dynamic`, exact numbers), `sensitive_attributes` from the value's marks.
- `index_state(state)`: the objects of a `State` by instance address.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

from engine.addrs import (
    AbsResourceInstance,
    ModuleInstance,
    Resource,
    ResourceMode,
    parse_module_instance,
)
from engine.diags import Diagnostics, error
from engine.gocompat.json import RawNumber
from engine.plugin.paths import AttributePath, AttrStep, IndexStep
from engine.plugin.protocol import Provider, UpgradeResourceStateRequest
from engine.plugin.schema import Schema, mark_paths, mark_sensitive
from engine.states.codec import encode_value
from engine.states.state import ResourceInstanceObject, State
from engine.values import DYNAMIC, NUMBER, STRING, Type, Value, dumps, number, string
from engine.values.json import JSONNumber
from engine.values.types import ListType, MapType, ObjectType, SetType, TupleType


@dataclass(slots=True)
class StateEntry:
    """One instance in state: its current object, deposed objects, provider and `each`."""

    addr: AbsResourceInstance
    provider: str
    current: ResourceInstanceObject | None = None
    deposed: dict[str, ResourceInstanceObject] = field(default_factory=dict)
    imported: bool = False  # read by an `import` block in this plan: no second refresh


def index_state(state: State | None) -> dict[AbsResourceInstance, StateEntry]:
    """Every instance of `state`, by address (in state order)."""
    out: dict[AbsResourceInstance, StateEntry] = {}
    if state is None:
        return out
    for rs in state.resources:
        mi = parse_module_instance(rs.module) if rs.module else ModuleInstance()
        res = Resource(ResourceMode.MANAGED if rs.mode == "managed" else ResourceMode.DATA,
                       rs.type, rs.name)
        for inst in rs.instances:
            addr = AbsResourceInstance(mi, res, inst.index_key)
            out[addr] = StateEntry(addr, rs.provider, inst.current, dict(inst.deposed))
    return out


# --------------------------------------------------------------------------- decoding
def _raw_to_plain(data: Any) -> Any:
    if isinstance(data, RawNumber):
        return JSONNumber(str(data))
    if isinstance(data, list):
        return [_raw_to_plain(e) for e in data]
    if isinstance(data, dict):
        return {k: _raw_to_plain(e) for k, e in data.items()}
    return data


def sensitive_paths_from_state(data: Any) -> list[AttributePath]:
    """The paths of a state object's `sensitive_attributes` (terraform's JSON path form)."""
    out: list[AttributePath] = []
    for steps in data or []:
        path = AttributePath.root()
        if not isinstance(steps, list):
            continue
        for step in steps:
            if not isinstance(step, dict):
                continue
            if step.get("type") == "get_attr":
                path = path.attr(str(step.get("value")))
            else:
                v = step.get("value")
                if isinstance(v, dict):  # terraform's form: {"value": 0, "type": "number"}
                    v = v.get("value")
                if isinstance(v, (int, RawNumber)) and not isinstance(v, bool):
                    path = path.index(number(int(str(v))))  # RawNumber is a str: test it first
                elif isinstance(v, str):
                    path = path.index(string(v))
        out.append(path)
    return out


def decode_object(
    provider: Provider, type_name: str, schema: Schema, obj: ResourceInstanceObject,
    data: bool = False,
    direct: bool = False,
    addr: str = "",
) -> tuple[Value | None, Diagnostics]:
    """The stored object as a Value of the schema's type (see module docstring); data
    source objects are decoded directly (they are never upgraded), and so are objects of an
    in-process provider (`direct`) already at the schema's version: its upgrade would only
    decode them. An object of a newer schema version than the provider's is terraform's
    "Resource instance managed by newer provider version" (naming `addr`)."""
    if not data and obj.schema_version > schema.version:
        implied = type_name.split("_", 1)[0]
        return None, Diagnostics([error(
            "Resource instance managed by newer provider version",
            f"The current state of {addr or type_name} was created by a newer provider "
            f"version than is currently selected. Upgrade the {implied} provider to work "
            "with this state.")])
    if direct and obj.attributes is not None and obj.schema_version == schema.version:
        decoded_val, diags = _decode_direct(obj.attributes, schema)
        if decoded_val is not None:
            paths = sensitive_paths_from_state(obj.sensitive_attributes)
            if paths:
                decoded_val = mark_paths(decoded_val, paths)
            return mark_sensitive(schema.block, decoded_val), diags
    raw = dumps(_raw_to_plain(obj.attributes if obj.attributes is not None else {}))
    if data:
        from engine.plugin.builtin.jsonstate import decode_json

        decoded, diags = decode_json(raw, schema.block.implied_type())
        return (None if decoded is None else mark_sensitive(schema.block, decoded)), diags
    flat = obj.attributes is None and obj.attributes_flat is not None
    resp = provider.upgrade_resource_state(UpgradeResourceStateRequest(  # one form, as terraform
        type_name, obj.schema_version, raw_state_json=None if flat else raw.encode("utf-8"),
        raw_state_flatmap=obj.attributes_flat if flat else None))
    if resp.diagnostics.has_errors:
        return None, resp.diagnostics
    val = resp.upgraded_state
    paths = sensitive_paths_from_state(obj.sensitive_attributes)
    if paths:
        val = mark_paths(val, paths)
    return mark_sensitive(schema.block, val), resp.diagnostics


def _decode_direct(attributes: Any, schema: Schema) -> tuple[Value | None, Diagnostics]:
    from engine.plugin.builtin.jsonstate import _concrete
    from engine.states.codec import decode_value

    diags = Diagnostics()
    try:
        return _concrete(decode_value(attributes, schema.block.implied_type())), diags
    except (ValueError, TypeError, KeyError):
        return None, diags


def private_bytes(obj: ResourceInstanceObject | None) -> bytes:
    if obj is None or not obj.private:
        return b""
    try:
        return base64.b64decode(obj.private)
    except ValueError:
        return b""


# --------------------------------------------------------------------------- encoding
def _encode(value: Value, want: Type) -> Any:
    if want == DYNAMIC:
        if value.is_null:
            return None
        return {"value": _encode(value, value.type), "type": _type_json(value.type)}
    if value.is_null:
        return None
    t = value.type
    if isinstance(want, ObjectType) and isinstance(value.v, dict):
        return {k: _encode(value.v[k], at) for k, at in want.attrs.items() if k in value.v}
    if isinstance(want, MapType) and isinstance(value.v, dict):
        return {k: _encode(e, want.element) for k, e in value.v.items()}
    if isinstance(want, (ListType, SetType)) and isinstance(value.v, list):
        return [_encode(e, want.element) for e in value.v]
    if isinstance(want, TupleType) and isinstance(value.v, list):
        return [_encode(e, et) for e, et in zip(value.v, want.elements)]
    if isinstance(t, (ObjectType, MapType, ListType, SetType, TupleType)):
        return _encode(value, t)
    return encode_value(value)


def _type_json(t: Type) -> Any:
    return _raw_types(t.to_json())


def _raw_types(data: Any) -> Any:
    if isinstance(data, list):
        return [_raw_types(e) for e in data]
    if isinstance(data, dict):
        return {k: _raw_types(e) for k, e in data.items()}
    return data


def _marked_paths(value: Value, path: AttributePath, out: list[AttributePath]) -> None:
    if value.marks:
        out.append(path)
    v = value.v
    if isinstance(v, dict):
        for k, e in v.items():
            nxt = path.attr(k) if isinstance(value.type, ObjectType) else path.index(string(k))
            _marked_paths(e, nxt, out)
    elif isinstance(v, list):
        for i, e in enumerate(v):
            nxt = path.index(e if isinstance(value.type, SetType) else number(i))
            _marked_paths(e, nxt, out)


def marked_paths(value: Value) -> list[AttributePath]:
    """The paths of every marked value inside `value` (its root excluded)."""
    out: list[AttributePath] = []
    _marked_paths(value, AttributePath.root(), out)
    return [p for p in out if p.steps]


def _path_json(path: AttributePath) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    for s in path.steps:
        if isinstance(s, AttrStep):
            steps.append({"type": "get_attr", "value": s.name})
        elif isinstance(s, IndexStep):
            k = s.key
            steps.append({"type": "index", "value": {
                "value": encode_value(k) if k.type in (STRING, NUMBER) else None,
                "type": _type_json(k.type)}})
    return steps


def encode_object(
    schema: Schema,
    value: Value,
    private: bytes = b"",
    dependencies: list[str] | None = None,
    create_before_destroy: bool = False,
    status: str = "",
) -> ResourceInstanceObject:
    """A state object for `value` (wholly known, possibly marked)."""
    schema_marks = set(map(str, _schema_sensitive(schema, value)))
    paths = [p for p in marked_paths(value) if str(p) not in schema_marks]
    plain, _ = value.unmark_deep()
    return ResourceInstanceObject(
        schema_version=schema.version,
        attributes=_encode(plain, schema.block.implied_type()),
        sensitive_attributes=[_path_json(p) for p in paths],
        private=base64.b64encode(private).decode("ascii") if private else None,
        dependencies=sorted(dependencies or []),
        create_before_destroy=create_before_destroy,
        status=status,
    )


def _schema_sensitive(schema: Schema, value: Value) -> list[AttributePath]:
    from engine.plugin.schema import sensitive_paths

    return sensitive_paths(schema.block, value)
