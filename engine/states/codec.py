"""Output values to and from the JSON data stored in a state file.

The value model's JSON codec (`engine.values.json`) does the work, with cty's JSON rules
and exact numbers; this module only adapts it to the decoded-JSON form `gojson` writes and
reads (every number a `RawNumber`, its exact text), so a value's digits survive a round trip.
"""

from __future__ import annotations

from typing import Any

from engine.gocompat.json import RawNumber
from engine.values import Type, Value
from engine.values.json import JSONNumber, value_from_json, value_to_json


def _to_raw(data: Any) -> Any:
    if isinstance(data, bool) or data is None:
        return data
    if isinstance(data, int):
        return RawNumber(str(data))
    if isinstance(data, JSONNumber):
        return RawNumber(str(data))
    if isinstance(data, list):
        return [_to_raw(e) for e in data]
    if isinstance(data, dict):
        return {k: _to_raw(e) for k, e in data.items()}
    return data


def _from_raw(data: Any) -> Any:
    if isinstance(data, RawNumber):
        return JSONNumber(str(data))
    if isinstance(data, list):
        return [_from_raw(e) for e in data]
    if isinstance(data, dict):
        return {k: _from_raw(e) for k, e in data.items()}
    return data


def encode_value(value: Value) -> Any:
    """`value` (wholly known; marks ignored) as decoded JSON data with exact numbers."""
    plain, _ = value.unmark_deep()
    return _to_raw(value_to_json(plain))


def decode_value(data: Any, type_: Type) -> Value:
    """The value of type `type_` that JSON `data` (as `gojson.loads` gives it) encodes.

    Raises the value codec's error (a ValueError) when the data does not fit the type.
    """
    return value_from_json(_from_raw(data), type_)
