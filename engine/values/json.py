"""Values to and from JSON as cty's ctyjson does (state, `output -json`, `jsonencode`).

Numbers are written exactly as Terraform prints them (`format_number`, never quoted, so 1/3 is
a 155-digit literal); reading keeps number literals exact via `loads`. `dumps` writes JSON like
Go's encoding/json: `<`, `>`, `&`, U+2028 and U+2029 escaped, object keys sorted, compact
without `indent` and with `": "` separators when indenting.
"""

from __future__ import annotations

import json as _json
import math
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from engine.gocompat.json import GoJSONWriter, RawNumber
from engine.values.numbers import format_number, normalize, parse_number
from engine.values.types import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    ListType,
    MapType,
    ObjectType,
    SetType,
    TupleType,
    Type,
    type_from_json,
)
from engine.values.value import UNKNOWN, Value

_LIMIT = 1 << 512
_SURROGATE = re.compile("[\ud800-\udfff]")


class JSONNumber(RawNumber):
    """A JSON number literal that is not an integer, kept as its exact text."""

    __slots__ = ()


class JSONError(ValueError):
    """A value that JSON cannot carry (unknown, infinity) or JSON that does not fit a type."""


def value_to_json(v: Value) -> Any:
    """A plain JSON-able structure for a wholly known value (marks ignored); numbers become
    `int` or `JSONNumber`. Sets become arrays, maps and objects become dicts."""
    p = v.v
    if p is UNKNOWN:
        raise JSONError("value is not known")
    if p is None:
        return None
    t = v.type
    if t == NUMBER:
        if isinstance(p, int) and -_LIMIT < p < _LIMIT:
            return p
        if isinstance(p, float) and math.isinf(p):
            raise JSONError("cannot serialize infinity as JSON")
        return JSONNumber(format_number(p))
    if isinstance(p, list):
        return [value_to_json(e) for e in p]
    if isinstance(p, dict):
        return {k: value_to_json(e) for k, e in p.items()}
    return p


def _cty_fallback(obj: Any) -> Any:
    """What the writer hands back for non-plain data: numbers as cty prints them, values
    as their JSON data, other mappings and sequences as dicts and lists."""
    if isinstance(obj, int):
        return JSONNumber(format_number(obj))
    if isinstance(obj, (float, Fraction)):
        if isinstance(obj, float) and not math.isfinite(obj):
            raise JSONError("cannot serialize infinity as JSON")
        return JSONNumber(format_number(obj if isinstance(obj, Fraction) else Fraction(obj)))
    if isinstance(obj, Value):
        return value_to_json(obj)
    if isinstance(obj, Mapping):
        return dict(obj.items())
    raise TypeError(f"cannot write {type(obj).__name__} as JSON")


_WRITER = GoJSONWriter(sort_keys=True, int_limit=_LIMIT, fallback=_cty_fallback)


def dumps(obj: Any, indent: int | None = None) -> str:
    """JSON text as Go's encoding/json writes it (see module doc)."""
    return _WRITER.dumps(obj, None if indent is None else " " * indent)


def json_copy(obj: Any) -> Any:
    """`loads(dumps(obj))` without the text: the same plain data (dicts with keys in sorted
    order, lists, plain strings with lone surrogates as U+FFFD, ints, bools, None and
    JSONNumber for non-integer numbers), raising what `dumps` raises."""
    t = type(obj)
    if t is str:
        return obj if obj.isascii() else _SURROGATE.sub("\ufffd", obj)
    if t is dict:
        return {k if type(k) is str and k.isascii() else json_copy(str.__str__(k)):
                json_copy(obj[k]) for k in sorted(obj)}
    if t is list or t is tuple:
        return [json_copy(e) for e in obj]
    if obj is None or obj is True or obj is False:
        return obj
    if t is int and -_LIMIT < obj < _LIMIT:
        return obj
    if isinstance(obj, Value):
        return json_copy(value_to_json(obj))
    if isinstance(obj, Mapping):
        return json_copy(dict(obj.items()))
    if isinstance(obj, (list, tuple)):
        return [json_copy(e) for e in obj]
    return loads(dumps(obj))


def loads(text: str) -> Any:
    """Parse JSON keeping non-integer number literals exact (as JSONNumber)."""
    return _json.loads(text, parse_float=JSONNumber, parse_constant=_reject_constant)


def _reject_constant(name: str) -> Any:
    raise JSONError(f"invalid JSON value {name}")


# ------------------------------------------------------------------------------ reading
def implied_type(data: Any) -> Type:
    """cty's json.ImpliedType: objects -> object, arrays -> tuple, null -> DYNAMIC."""
    if data is None:
        return DYNAMIC
    if isinstance(data, bool):
        return BOOL
    if isinstance(data, (int, float, Fraction, JSONNumber)):
        return NUMBER
    if isinstance(data, str):
        return STRING
    if isinstance(data, list):
        return TupleType(implied_type(e) for e in data)
    if isinstance(data, dict):
        return ObjectType({k: implied_type(e) for k, e in data.items()})
    raise JSONError(f"unsupported JSON value {data!r}")


def _number(data: Any, path: str) -> Value:
    if isinstance(data, bool):
        raise JSONError(f"{path}number value is required")
    if isinstance(data, int):
        return Value(NUMBER, data if -_LIMIT < data < _LIMIT else normalize(data))
    if isinstance(data, (JSONNumber, str)):
        try:
            return Value(NUMBER, parse_number(str(data)))
        except ValueError:
            raise JSONError(f"{path}a number is required") from None
    if isinstance(data, (float, Fraction)):
        return Value(NUMBER, normalize(data))
    raise JSONError(f"{path}number value is required")


def value_from_json(data: Any, t: Type, path: str = "") -> Value:
    """A Value of type `t` from parsed JSON `data` (cty json.Unmarshal). For DYNAMIC the data
    must be `{"value": ..., "type": ...}` as ctyjson writes dynamic values."""
    if t == DYNAMIC:
        if data is None:
            return Value(DYNAMIC, None)
        if not isinstance(data, dict) or "type" not in data or "value" not in data:
            raise JSONError(f"{path}dynamic value must have \"value\" and \"type\" properties")
        return value_from_json(data["value"], type_from_json(data["type"]), path)
    if data is None:
        return Value(t, None)
    if t == NUMBER:
        return _number(data, path)
    if t == STRING:
        if isinstance(data, str):
            return Value(STRING, str.__str__(data))
        if isinstance(data, bool):
            return Value(STRING, "true" if data else "false")
        if isinstance(data, (int, JSONNumber)):
            return Value(STRING, str(data))
        raise JSONError(f"{path}string value is required")
    if t == BOOL:
        if isinstance(data, bool):
            return Value(BOOL, data)
        if data in ("true", "false"):
            return Value(BOOL, data == "true")
        raise JSONError(f"{path}bool value is required")
    if isinstance(t, (ListType, SetType, TupleType)):
        if not isinstance(data, list):
            raise JSONError(f"{path}array value is required")
        if isinstance(t, TupleType):
            if len(data) != len(t.elements):
                raise JSONError(f"{path}wrong number of tuple elements")
            elems = [value_from_json(e, et, f"{path}[{i}]: ") for i, (e, et) in
                     enumerate(zip(data, t.elements))]
            return Value(t, elems)
        items = [value_from_json(e, t.element, f"{path}[{i}]: ") for i, e in enumerate(data)]
        if isinstance(t, SetType):
            from engine.values.sets import canonical_set_elements

            return Value(t, canonical_set_elements(items))
        return Value(t, items)
    if isinstance(t, (MapType, ObjectType)):
        if not isinstance(data, dict):
            raise JSONError(f"{path}object value is required")
        if isinstance(t, MapType):
            return Value(t, {k: value_from_json(data[k], t.element, f"{path}[{k!r}]: ")
                             for k in sorted(data)})
        out: dict[str, Value] = {}
        for k, at in t.attrs.items():
            if k in data:
                out[k] = value_from_json(data[k], at, f"{path}.{k}: ")
            else:
                out[k] = Value(at, None)
        extra = set(data) - set(t.attrs)
        if extra:
            raise JSONError(f"{path}unsupported attribute {sorted(extra)[0]!r}")
        return Value(t, out)
    raise JSONError(f"{path}unsupported type {t!r}")
