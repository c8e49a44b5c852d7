"""Unification as cty's convert.Unify; results checked in terraform 1.11.4 via console
(`true ? "a" : 1` is a string; `[{a=1},{b="x"}]` given to tolist is a list of map of string)."""

from __future__ import annotations

from engine.values import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    ListType,
    MapType,
    ObjectType,
    SetType,
    TupleType,
    number,
    string,
    unify,
    unify_unsafe,
    unify_values,
)


def test_primitives() -> None:
    assert unify_unsafe([STRING, NUMBER]) == STRING
    assert unify([NUMBER, BOOL]) is None
    assert unify_unsafe([NUMBER, BOOL]) is None  # terraform: Inconsistent conditional result types
    assert unify([NUMBER, NUMBER]) == NUMBER
    assert unify_unsafe([STRING, DYNAMIC]) == STRING
    assert unify([STRING, DYNAMIC]) == DYNAMIC


def test_objects() -> None:
    a = ObjectType({"a": NUMBER})
    b = ObjectType({"a": STRING})
    assert unify_unsafe([a, b]) == ObjectType({"a": STRING})
    assert unify_unsafe([a, ObjectType({"b": STRING})]) == MapType(STRING)
    assert unify_unsafe([a, ObjectType({"b": ListType(STRING)})]) is None
    assert unify_unsafe([a, DYNAMIC]) == DYNAMIC


def test_tuples_and_collections() -> None:
    assert unify_unsafe([TupleType([NUMBER]), TupleType([STRING])]) == TupleType([STRING])
    assert unify_unsafe([TupleType([NUMBER]), TupleType([STRING, STRING])]) == ListType(STRING)
    assert unify_unsafe([ListType(NUMBER), TupleType([STRING])]) == ListType(STRING)
    assert unify_unsafe([SetType(NUMBER), SetType(STRING)]) == SetType(STRING)
    assert unify_unsafe([ListType(STRING), MapType(STRING)]) is None
    assert unify([]) is None


def test_unify_values_converts() -> None:
    out = unify_values([number(1), string("a")])
    assert out == [string("1"), string("a")]
