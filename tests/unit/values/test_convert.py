"""Conversion; messages verified with terraform 1.11.4 (variable defaults against type
constraints, `terraform validate -json`, and `terraform console` for results)."""

from __future__ import annotations

import pytest

from engine.values import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    ConversionError,
    ListType,
    MapType,
    ObjectType,
    SetType,
    TupleType,
    Type,
    Value,
    can_convert,
    convert,
    null,
    number,
    object_,
    string,
    tuple_,
    unknown,
)
from engine.values.numbers import div


def _err(v: Value, t: Type) -> str:
    with pytest.raises(ConversionError) as exc:
        convert(v, t)
    return str(exc.value)


def test_primitive_conversions() -> None:
    assert convert(number(5), STRING) == string("5")
    assert convert(Value(NUMBER, div(1, 3)), STRING).v == "0." + "3" * 154 + "5"
    assert convert(Value(BOOL, True), STRING) == string("true")
    assert convert(string("1e3"), NUMBER) == number(1000)
    assert convert(string("1"), BOOL).v is True
    assert convert(string("false"), BOOL).v is False


@pytest.mark.parametrize(
    ("value", "want", "message"),
    [
        (string("abc"), NUMBER, "a number is required"),
        (string("True"), BOOL, 'a bool is required; to convert from string, use lowercase "true"'),
        (tuple_([tuple_([number(1)])]), ListType(STRING), "element 0: string required"),
        (object_({}), ObjectType({"x": STRING, "y": NUMBER}), 'attributes "x" and "y" are required'),
        (
            object_({}),
            ObjectType({"x": STRING, "y": NUMBER, "z": BOOL}),
            'attributes "x", "y", and "z" are required',
        ),
        (object_({"a": string("x")}), MapType(NUMBER), '["a"]: a number is required'),
        (string("str"), ListType(NUMBER), "list of number required"),
        (object_({"a": number(1)}), SetType(STRING), "set of string required"),
        (tuple_([string("a")]), TupleType([STRING, NUMBER]), "tuple required"),
        (
            object_({"x": tuple_([string("a")])}),
            ObjectType({"x": ListType(NUMBER)}),
            ".x[0]: a number is required",
        ),
        (
            object_({"a": number(1), "b": string("x"), "c": tuple_([number(1)])}),
            MapType(DYNAMIC),
            "all map elements must have the same type",
        ),
        (tuple_([number(1), tuple_([number(2)])]), ListType(DYNAMIC),
         "all list elements must have the same type"),
        (tuple_([number(1)]), STRING, "string required"),
        (Value(BOOL, True), NUMBER, "number required"),
        (
            tuple_([object_({"b": number(1)})]),
            ListType(ObjectType({"a": STRING})),
            'element 0: attribute "a" is required',
        ),
        (object_({"a": string("x")}), MapType(ListType(STRING)), 'element "a": list of string required'),
    ],
)
def test_messages(value: Value, want: Type, message: str) -> None:
    assert _err(value, want) == message


def test_tuple_to_list_unifies() -> None:
    # terraform: tolist([1, "a"]) => tolist(["1", "a"])
    got = convert(tuple_([number(1), string("a")]), ListType(DYNAMIC))
    assert got.type == ListType(STRING)
    assert [e.v for e in got.v] == ["1", "a"]


def test_tuple_to_set_dedupes_and_orders() -> None:
    got = convert(tuple_([string("b"), string("a"), string("b")]), SetType(STRING))
    assert [e.v for e in got.v] == ["a", "b"]


def test_null_unknown_and_marks() -> None:
    assert convert(null(), ListType(STRING)) == null(ListType(STRING))
    assert convert(unknown(), NUMBER) == unknown(NUMBER)
    u = convert(unknown(TupleType([STRING])), ListType(DYNAMIC))
    assert u.type == ListType(STRING) and not u.is_known
    s = convert(number(1).mark("sensitive"), STRING)
    assert s.v == "1" and s.is_sensitive
    inner = convert(tuple_([number(1).mark("sensitive")]), ListType(STRING))
    assert inner.v[0].is_sensitive


def test_object_drops_extra_and_fills_optional() -> None:
    want = ObjectType({"a": STRING, "b": NUMBER}, optional=["b"])
    got = convert(object_({"a": string("x"), "z": number(1)}), want)
    assert got.type == ObjectType({"a": STRING, "b": NUMBER})
    assert got.v["b"] == null(NUMBER)


def test_optional_defaults_nested() -> None:
    # variable type object({a=optional(string,"d"), n=optional(object({x=optional(number,7)}),{})})
    inner = ObjectType({"x": NUMBER}, optional=["x"], defaults={"x": number(7)})
    want = ObjectType(
        {"a": STRING, "n": inner},
        optional=["a", "n"],
        defaults={"a": string("d"), "n": object_({})},
    )
    got = convert(object_({}), want)
    assert got.v["a"] == string("d")
    assert got.v["n"].v["x"] == number(7)
    given = convert(object_({"a": null(STRING), "n": object_({"x": number(1)})}), want)
    assert given.v["a"] == string("d") and given.v["n"].v["x"] == number(1)


def test_map_to_object_is_unsafe_only() -> None:
    m = Value(MapType(STRING), {"a": string("1")})
    assert convert(m, ObjectType({"a": NUMBER})).v["a"] == number(1)
    assert not can_convert(MapType(STRING), ObjectType({"a": STRING}), unsafe=False)
    assert can_convert(TupleType([STRING]), ListType(STRING), unsafe=False)
    assert not can_convert(STRING, NUMBER, unsafe=False)
    assert can_convert(STRING, NUMBER)


def test_empty_collections() -> None:
    assert convert(tuple_([]), ListType(DYNAMIC)).type == ListType(DYNAMIC)
    assert convert(object_({}), MapType(STRING)) == Value(MapType(STRING), {})
