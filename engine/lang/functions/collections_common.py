"""Helpers shared by the collection function modules: cty's value equality, element access
that works for lists, sets and tuples alike, and result constructors that pick the right empty
form (`tolist([])` needs an element type, a tuple does not)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.lang.functions.base import FunctionError
from engine.values import (
    DYNAMIC,
    ListType,
    MapType,
    SetType,
    TupleType,
    Type,
    Value,
    numbers,
)


def value_equals(a: Value, b: Value) -> bool | None:
    """cty's `Value.Equals`: True/False, or None when the answer depends on unknown values.
    Marks are ignored; a null equals only another null; values of different types differ."""
    if not a.is_known or not b.is_known:
        return None
    if a.v is None or b.v is None:
        return a.v is None and b.v is None
    if a.type != b.type:
        return False
    va, vb = a.v, b.v
    if isinstance(va, list):
        if len(va) != len(vb):
            return False
        if isinstance(a.type, SetType):
            return _set_equals(va, vb)
        return _all_equal(zip(va, vb))
    if isinstance(va, dict):
        if va.keys() != vb.keys():
            return False
        return _all_equal((va[k], vb[k]) for k in va)
    if a.type.is_primitive and a.type.name == "number":  # type: ignore[attr-defined]
        return numbers.equal(va, vb)
    return bool(va == vb)


def _all_equal(pairs: object) -> bool | None:
    unknown = False
    for x, y in pairs:  # type: ignore[attr-defined]
        eq = value_equals(x, y)
        if eq is False:
            return False
        if eq is None:
            unknown = True
    return None if unknown else True


def _set_equals(xs: list[Value], ys: list[Value]) -> bool | None:
    for x in xs:
        found: bool | None = False
        for y in ys:
            eq = value_equals(x, y)
            if eq:
                found = True
                break
            if eq is None:
                found = None
        if found is False:
            return False
        if found is None:
            return None
    return True


def elements(val: Value) -> list[Value]:
    """The elements of a known list, set or tuple (or a map/object's values)."""
    v = val.v
    if isinstance(v, dict):
        return list(v.values())
    assert isinstance(v, list)
    return v


def seq_length(val: Value) -> int:
    if isinstance(val.type, TupleType):
        return len(val.type.elements)
    return len(elements(val))


def make_list(items: Sequence[Value], ety: Type) -> Value:
    """A list of `ety` (items must already have that type)."""
    return Value(ListType(ety), list(items))


def make_map(items: dict[str, Value], ety: Type) -> Value:
    return Value(MapType(ety), dict(sorted(items.items())))


def make_set(items: Sequence[Value], ety: Type) -> Value:
    from engine.values.sets import canonical_set_elements

    return Value(SetType(ety), canonical_set_elements(list(items)))


def convert_or_fail(val: Value, want: Type, arg_index: int | None = None) -> Value:
    """`convert`, with a conversion failure reported as a FunctionError."""
    from engine.values.convert import ConversionError, convert

    try:
        return convert(val, want)
    except ConversionError as exc:
        raise FunctionError(exc.message, arg_index) from None


def is_sequence_type(t: Type) -> bool:
    return isinstance(t, (ListType, SetType, TupleType))


def is_dynamic(t: Type) -> bool:
    return t == DYNAMIC
