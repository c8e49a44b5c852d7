"""Helpers shared by the collection function modules: value equality, element access
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
)
from engine.values.compare import equals


def value_equals(a: Value, b: Value) -> bool | None:
    """cty's `Value.Equals` (engine.values.compare.equals) as a plain answer: True/False, or
    None when it depends on unknown values. Marks are ignored."""
    result = equals(a.unmark_deep()[0], b.unmark_deep()[0])
    return None if not result.is_known else bool(result.v)


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
    """A set of `ety`; marks inside the items end up on the set (cty.SetVal)."""
    from engine.values.sets import set_value

    return set_value(SetType(ety), list(items))


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
