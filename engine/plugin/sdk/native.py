"""Python-native views of values, so provider code never handles `Value` trees.

`to_native(value)` turns a Value into plain Python: null is None, unknown is `UNKNOWN`, strings
`str`, bools `bool`, numbers `int` (integral) or `fractions.Fraction`, lists/sets/tuples `list`,
maps/objects `dict`. Marks are dropped (the schema re-applies sensitivity).

`to_value(data, type)` is the inverse, typed by the schema: None is null and `UNKNOWN` unknown at
any depth, a `Value` is taken as it is, numbers may also be `float` or numeric strings, a
missing object attribute is null. A value that does not fit the type raises `TypeError` naming
the path. For the dynamic type, plain data is typed by its JSON shape.

`state_from_json(text, type)` decodes a stored state object (the state file's `attributes`)
leniently, as terraform-plugin-go does for UpgradeResourceState: attributes the type lacks are
dropped and missing ones are null.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from engine.values import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    UNKNOWN,
    ListType,
    MapType,
    ObjectType,
    SetType,
    TupleType,
    Type,
    Value,
    canonical_set_elements,
    implied_type,
    normalize,
    parse_number,
    value_from_json,
)

__all__ = ["UNKNOWN", "state_from_json", "to_native", "to_value"]


def to_native(value: Value) -> Any:
    """Plain Python data for `value` (see the module docstring)."""
    v = value.v
    if v is None or v is UNKNOWN:
        return v
    if isinstance(v, list):
        return [to_native(e) for e in v]
    if isinstance(v, dict):
        return {k: to_native(e) for k, e in v.items()}
    return v


def to_value(data: Any, t: Type, path: str = "") -> Value:
    """A Value of type `t` built from plain Python `data` (see the module docstring)."""
    if isinstance(data, Value):
        return data
    if data is None:
        return Value(t, None)
    if data is UNKNOWN:
        return Value(t, UNKNOWN)
    if t == DYNAMIC:
        plain = json.loads(json.dumps(data, default=_json_default))
        return value_from_json(plain, implied_type(plain))
    if t == STRING:
        if isinstance(data, str):
            return Value(STRING, data)
        raise TypeError(f"{path or 'value'}: a string is required, got {type(data).__name__}")
    if t == BOOL:
        if isinstance(data, bool):
            return Value(BOOL, data)
        raise TypeError(f"{path or 'value'}: a bool is required, got {type(data).__name__}")
    if t == NUMBER:
        return Value(NUMBER, _number(data, path))
    if isinstance(t, (ListType, SetType)):
        if not isinstance(data, (list, tuple, set, frozenset)):
            raise TypeError(f"{path or 'value'}: a list is required")
        items = [to_value(e, t.element, f"{path}[{i}]") for i, e in enumerate(data)]
        if isinstance(t, SetType):
            return Value(t, canonical_set_elements(items))
        return Value(t, items)
    if isinstance(t, TupleType):
        if not isinstance(data, (list, tuple)) or len(data) != len(t.elements):
            raise TypeError(f"{path or 'value'}: a tuple of {len(t.elements)} is required")
        return Value(t, [to_value(e, et, f"{path}[{i}]") for i, (e, et) in
                         enumerate(zip(data, t.elements))])
    if isinstance(t, MapType):
        if not isinstance(data, dict):
            raise TypeError(f"{path or 'value'}: a map is required")
        return Value(t, {k: to_value(data[k], t.element, f"{path}[{k!r}]") for k in sorted(data)})
    if isinstance(t, ObjectType):
        if not isinstance(data, dict):
            raise TypeError(f"{path or 'value'}: an object is required")
        extra = set(data) - set(t.attrs)
        if extra:
            raise TypeError(f"{path or 'value'}: no attribute {sorted(extra)[0]!r}")
        return Value(t, {k: to_value(data.get(k), at, f"{path}.{k}")
                         for k, at in t.attrs.items()})
    raise TypeError(f"{path or 'value'}: unsupported type {t!r}")


def _number(data: Any, path: str) -> int | Fraction | float:
    if isinstance(data, bool):
        raise TypeError(f"{path or 'value'}: a number is required, got bool")
    if isinstance(data, int):
        return data
    if isinstance(data, (float, Fraction)):
        return normalize(data)
    if isinstance(data, str):
        return parse_number(data)
    raise TypeError(f"{path or 'value'}: a number is required, got {type(data).__name__}")


def _json_default(o: Any) -> Any:
    if isinstance(o, Fraction):
        return float(o)
    raise TypeError(f"not JSON-serialisable: {type(o).__name__}")


def _lenient(data: Any, t: Type) -> Any:
    """`data` with object attributes the type lacks removed, recursively."""
    if isinstance(t, ObjectType) and isinstance(data, dict):
        return {k: _lenient(data[k], t.attrs[k]) for k in data if k in t.attrs}
    if isinstance(t, (ListType, SetType)) and isinstance(data, list):
        return [_lenient(e, t.element) for e in data]
    if isinstance(t, MapType) and isinstance(data, dict):
        return {k: _lenient(e, t.element) for k, e in data.items()}
    return data


def state_from_json(text: bytes | str, t: Type) -> Value:
    """A stored state object decoded as a Value of `t` (lenient; see the module docstring)."""
    data = json.loads(text, parse_float=parse_number, parse_int=parse_number)
    return value_from_json(_lenient(data, t), t)
