"""Marks in collections: a set never holds marked elements (cty.SetVal moves their marks to the
set), conversions keep marks where they are otherwise, and `unmark_deep` returns every mark
without copying values that have none. Sets with unknown elements have an unknown length."""

from __future__ import annotations

from engine.values import (
    SENSITIVE,
    STRING,
    ListType,
    SetType,
    TupleType,
    Value,
    convert,
    list_,
    map_,
    object_,
    set_,
    string,
    tuple_,
    unknown,
)
from engine.values.sets import length_is_known, set_value

S = string("a").mark(SENSITIVE)


def test_set_constructor_hoists_element_marks() -> None:
    s = set_([S, string("b")])
    assert s.marks == frozenset({SENSITIVE})
    assert s.deep_marks() == frozenset({SENSITIVE})
    assert all(not e.marks for e in s.v)
    assert [e.v for e in s.v] == ["a", "b"]


def test_set_value_hoists_nested_marks_and_keeps_given_ones() -> None:
    obj = object_({"x": S})
    s = set_value(SetType(obj.type), [obj], frozenset({"other"}))
    assert s.marks == frozenset({SENSITIVE, "other"})
    assert s.v[0].deep_marks() == frozenset()


def test_marked_duplicates_collapse_with_unmarked() -> None:
    s = set_([S, string("a")])
    assert len(s.v) == 1 and s.is_sensitive


def test_list_to_set_conversion_hoists() -> None:
    converted = convert(list_([S, string("b")]), SetType(STRING))
    assert converted.is_sensitive
    assert converted.v[0].marks == frozenset()


def test_tuple_to_set_conversion_hoists() -> None:
    converted = convert(tuple_([S, string("b")]), SetType(STRING))
    assert converted.is_sensitive


def test_list_and_map_conversions_keep_element_marks() -> None:
    lst = convert(tuple_([S, string("b")]), ListType(STRING))
    assert not lst.marks and lst.v[0].is_sensitive and not lst.v[1].marks
    m = convert(object_({"k": S, "j": string("b")}), map_({"x": string("y")}).type)
    assert not m.marks and m.v["k"].is_sensitive


def test_set_nested_in_list_hoists_only_to_that_set() -> None:
    inner = set_([S])
    outer = list_([inner, set_([string("b")])])
    assert not outer.marks
    assert outer.v[0].is_sensitive and not outer.v[1].marks


def test_unmark_deep_returns_same_object_without_marks() -> None:
    v = list_([string("a"), string("b")])
    plain, marks = v.unmark_deep()
    assert plain is v and marks == frozenset()


def test_unmark_deep_copies_only_when_needed() -> None:
    v = tuple_([string("x"), S, object_({"k": string("y").mark("m")})])
    plain, marks = v.unmark_deep()
    assert marks == frozenset({SENSITIVE, "m"})
    assert plain.deep_marks() == frozenset()
    assert [e.v for e in plain.v[:2]] == ["x", "a"]
    assert plain.v[2].v["k"].v == "y"
    assert v.v[1].is_sensitive  # the original is untouched


def test_unmark_deep_keeps_dict_order() -> None:
    v = object_({"a": string("1"), "b": string("2").mark(SENSITIVE), "c": string("3")})
    plain, _ = v.unmark_deep()
    assert list(plain.v) == ["a", "b", "c"]


def test_length_is_known_for_sets_with_unknowns() -> None:
    assert length_is_known(set_([unknown(STRING)]))
    assert not length_is_known(set_([unknown(STRING), string("a")]))
    assert length_is_known(set_([string("b"), string("a")]))
    assert length_is_known(list_([unknown(STRING), string("a")]))


def test_set_with_unknown_elements_converts_to_unknown_list() -> None:
    s = set_([unknown(STRING), string("a")])
    converted = convert(s, ListType(STRING))
    assert not converted.is_known and converted.type == ListType(STRING)
    one = convert(set_([unknown(STRING)]), ListType(STRING))
    assert one.is_known and len(one.v) == 1


def test_tuple_type_unchanged_by_hoisting() -> None:
    s = set_([tuple_([S])])
    assert s.type == SetType(TupleType([STRING]))
    assert isinstance(s, Value) and s.is_sensitive
