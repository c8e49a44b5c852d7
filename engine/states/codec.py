"""Output values to and from the JSON data stored in a state file.

The value model's JSON codec (`engine.values.json`) does the work, with cty's JSON rules
and exact numbers; this module only adapts it to the decoded-JSON form `gojson` writes
(numbers as `RawNumber`) so that a value's digits survive a round trip unchanged.
"""

from __future__ import annotations

from typing import Any

from engine.states import gojson
from engine.values import Type, Value


def encode_value(value: Value) -> Any:
    """`value` (unmarked, wholly known) as decoded JSON data with exact numbers."""
    from engine.values.json import value_to_json

    plain, _ = value.unmark_deep()
    return gojson.loads(_as_text(value_to_json(plain)))


def decode_value(data: Any, type_: Type) -> Value:
    """The value of type `type_` that JSON `data` (as `gojson.loads` gives it) encodes."""
    from engine.values.json import value_from_json

    return value_from_json(gojson.dumps(data, indent=None), type_)


def _as_text(encoded: Any) -> str:
    if isinstance(encoded, bytes):
        return encoded.decode("utf-8")
    if isinstance(encoded, str):
        return encoded
    from engine.values.json import dumps

    return str(dumps(encoded))
