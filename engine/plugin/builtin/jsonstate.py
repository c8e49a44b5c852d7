"""Decoding stored JSON (state attributes, output values) into Values of a known type.

A thin adapter over the value model's JSON codec (cty's JSON rules: `DYNAMIC` positions hold
`{"value": ..., "type": ...}` wrappers, numbers keep every digit) that turns codec failures
into diagnostics instead of exceptions. Like cty's object values, a decoded object's type is
built from its attributes' actual types (a `DYNAMIC` attribute of the schema takes the type
its stored value has).
"""

from __future__ import annotations

from engine.diags import Diagnostics, error
from engine.values import ObjectType, Type, Value


def decode_json(raw: bytes | str, type_: Type) -> tuple[Value | None, Diagnostics]:
    """The value of `type_` that the JSON text `raw` encodes, or None and an error."""
    from engine.values.json import loads, value_from_json

    diags = Diagnostics()
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        doc = loads(text)
        if isinstance(type_, ObjectType) and not isinstance(doc, dict) and doc is not None:
            # cty's JSON decoder, whose error terraform shows as the whole diagnostic
            diags.append(error("missing expected {"))
            return None, diags
        return _concrete(value_from_json(doc, type_)), diags
    except (ValueError, TypeError, KeyError) as exc:
        diags.append(error("Invalid stored object", f"The stored value cannot be decoded: {exc}"))
        return None, diags


def _concrete(v: Value) -> Value:
    """`v` with object types rebuilt from their attributes wherever DYNAMIC appears."""
    if not isinstance(v.type, ObjectType) or not v.type.has_dynamic() or not isinstance(v.v, dict):
        return v
    attrs = {k: _concrete(e) for k, e in v.v.items()}
    return Value(ObjectType({k: e.type for k, e in attrs.items()}), attrs, v.marks)
