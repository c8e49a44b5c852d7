"""Values to and from JSON as cty's ctyjson does (state, `output -json`, `jsonencode`).

Numbers are written exactly as Terraform prints them (`format_number`, never quoted, so 1/3 is
a 155-digit literal); reading keeps number literals exact via `loads`. `dumps` writes JSON like
Go's encoding/json: `<`, `>`, `&`, U+2028 and U+2029 escaped, object keys sorted, compact
without `indent` and with `": "` separators when indenting.
"""

from __future__ import annotations

import json as _json
import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

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


class JSONNumber(str):
    """A JSON number literal kept as its exact text."""

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


_JSON_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
                 "\b": "\\b", "\f": "\\f"}


def _escape_string(s: str) -> str:
    """Go encoding/json string escaping with HTML escaping on."""
    out = ['"']
    for ch in s:
        esc = _JSON_ESCAPES.get(ch)
        if esc is not None:
            out.append(esc)
        elif ch < " " or ch in "<>&\u2028\u2029":
            out.append(f"\\u{ord(ch):04x}")
        elif "\ud800" <= ch <= "\udfff":
            out.append("\\ufffd")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def dumps(obj: Any, indent: int | None = None) -> str:
    """JSON text as Go's encoding/json writes it (see module doc)."""
    parts: list[str] = []
    _write(obj, parts, indent, 0)
    return "".join(parts)


def _write(obj: Any, out: list[str], indent: int | None, level: int) -> None:
    if obj is None:
        out.append("null")
    elif obj is True:
        out.append("true")
    elif obj is False:
        out.append("false")
    elif isinstance(obj, JSONNumber):
        out.append(str.__str__(obj))
    elif isinstance(obj, str):
        out.append(_escape_string(obj))
    elif isinstance(obj, int):
        out.append(str(obj) if -_LIMIT < obj < _LIMIT else format_number(obj))
    elif isinstance(obj, (float, Fraction)):
        if isinstance(obj, float) and not math.isfinite(obj):
            raise JSONError("cannot serialize infinity as JSON")
        out.append(format_number(obj if isinstance(obj, Fraction) else Fraction(obj)))
    elif isinstance(obj, Value):
        _write(value_to_json(obj), out, indent, level)
    elif isinstance(obj, Mapping):
        if not obj:
            out.append("{}")
            return
        out.append("{")
        for i, k in enumerate(sorted(obj)):
            if i:
                out.append(",")
            _newline(out, indent, level + 1)
            out.append(_escape_string(k))
            out.append(": " if indent is not None else ":")
            _write(obj[k], out, indent, level + 1)
        _newline(out, indent, level)
        out.append("}")
    elif isinstance(obj, (list, tuple)):
        if not obj:
            out.append("[]")
            return
        out.append("[")
        for i, e in enumerate(obj):
            if i:
                out.append(",")
            _newline(out, indent, level + 1)
            _write(e, out, indent, level + 1)
        _newline(out, indent, level)
        out.append("]")
    else:
        raise TypeError(f"cannot write {type(obj).__name__} as JSON")


def _newline(out: list[str], indent: int | None, level: int) -> None:
    if indent is not None:
        out.append("\n" + " " * (indent * level))


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
