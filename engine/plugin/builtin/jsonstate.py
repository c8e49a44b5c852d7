"""Decoding stored JSON (state attributes, output values) into Values of a known type.

A thin adapter over the value model's JSON codec (cty's JSON rules: `DYNAMIC` positions hold
`{"value": ..., "type": ...}` wrappers, numbers keep every digit) that turns codec failures
into diagnostics instead of exceptions.
"""

from __future__ import annotations

from engine.diags import Diagnostics, error
from engine.values import Type, Value


def decode_json(raw: bytes | str, type_: Type) -> tuple[Value | None, Diagnostics]:
    """The value of `type_` that the JSON text `raw` encodes, or None and an error."""
    from engine.values.json import value_from_json

    diags = Diagnostics()
    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    try:
        return value_from_json(text, type_), diags
    except (ValueError, TypeError, KeyError) as exc:
        diags.append(error("Invalid stored object", f"The stored value cannot be decoded: {exc}"))
        return None, diags
