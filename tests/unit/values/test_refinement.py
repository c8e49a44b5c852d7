"""Refinements of unknown values (engine.values.refinement), as cty's Refine and Range."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.values import (
    DYNAMIC,
    NUMBER,
    STRING,
    ListType,
    MapType,
    ObjectType,
    SetType,
    Value,
    equals,
    null,
    number,
    string,
    unknown,
)
from engine.values.convert import convert
from engine.values.refinement import (
    MAX_LENGTH,
    RefinedUnknown,
    RefinementError,
    includes,
    refine,
    refine_not_null,
    safe_known_prefix,
    value_range,
    without_refinements,
)


def test_known_values_carry_no_refinement() -> None:
    assert string("a").refinement is None
    assert unknown(STRING).refinement is None
    assert refine(string("a")).not_null().string_prefix("a").new_value() == string("a")
    assert refine(null(STRING)).not_null().new_value().is_null


def test_nothing_learned_is_a_plain_unknown() -> None:
    v = refine(unknown(STRING)).string_prefix("").new_value()
    assert type(v) is Value and not v.is_known


def test_dynamic_unknowns_are_never_refined() -> None:
    v = refine(unknown(DYNAMIC)).not_null().new_value()
    assert v.refinement is None


def test_not_null_survives_marks() -> None:
    v = refine_not_null(unknown(STRING)).mark("sensitive")
    assert isinstance(v, RefinedUnknown) and v.is_sensitive
    plain, marks = v.unmark()
    assert marks == {"sensitive"} and value_range(plain).definitely_not_null()
    deep, _ = v.unmark_deep()
    assert value_range(deep).definitely_not_null()


def test_refining_to_null_gives_the_null() -> None:
    v = refine(unknown(STRING)).null().new_value()
    assert v.is_known and v.is_null and v.type == STRING


@pytest.mark.parametrize(("given", "kept"), [
    ("abc", "ab"), ("ab-", "ab-"), ("x ", "x "), ("x=", "x"), ("x<", "x"), ("x`", "x"),
    ("x\n", "x"), ("x\t", "x\t"), ("héllo", "héll"), ("e\u0301-", "\u00e9-"), ("", ""),
])
def test_prefixes_stop_where_nothing_can_combine(given: str, kept: str) -> None:
    assert safe_known_prefix(given) == kept


def test_prefix_only_grows() -> None:
    b = refine(unknown(STRING)).string_prefix_full("ab").string_prefix_full("a")
    assert value_range(b.new_value()).string_prefix() == "ab"
    with pytest.raises(RefinementError):
        refine(unknown(STRING)).string_prefix_full("ab").string_prefix_full("x")


def test_number_bounds_tighten_and_meet() -> None:
    b = refine(unknown(NUMBER)).not_null().number_lower_bound(0, True)
    b = b.number_lower_bound(-5, True).number_lower_bound(0, False)  # only the tighter stays
    v = b.new_value()
    assert value_range(v).number_lower_bound() == (0, False)
    exact = refine(unknown(NUMBER)).not_null().number_range_inclusive(3, 3).new_value()
    assert exact == number(3)
    with pytest.raises(RefinementError):
        refine(unknown(NUMBER)).number_lower_bound(2, True).number_upper_bound(1, True)


def test_collections_of_known_length() -> None:
    empty = refine(unknown(ListType(STRING))).not_null().length(0).new_value()
    assert empty == Value(ListType(STRING), [])
    two = refine(unknown(ListType(STRING))).not_null().length(2).new_value()
    assert two.is_known and [e.is_known for e in two.v] == [False, False]
    one_set = refine(unknown(SetType(STRING))).not_null().length(1).new_value()
    assert one_set.is_known and len(one_set.v) == 1
    two_set = refine(unknown(SetType(STRING))).not_null().length(2).new_value()
    assert not two_set.is_known  # two unknown elements might be one
    a_map = refine(unknown(MapType(STRING))).not_null().length(1).new_value()
    assert not a_map.is_known and value_range(a_map).length_upper_bound() == 1
    assert value_range(unknown(ListType(STRING))).length_upper_bound() == MAX_LENGTH


def test_refinements_that_do_not_apply_are_ignored() -> None:
    v = refine(unknown(ObjectType({"a": STRING}))).string_prefix("x").length(1).new_value()
    assert v.refinement is None


def test_includes_rules_out_what_cannot_be() -> None:
    s = refine(unknown(STRING)).not_null().string_prefix("ab-").new_value()
    assert includes(value_range(s), null(STRING)) is False
    assert includes(value_range(s), string("zz")) is False
    assert includes(value_range(s), string("ab-c")) is None
    n = refine(unknown(NUMBER)).number_range_inclusive(1, Fraction(5, 2)).new_value()
    assert includes(value_range(n), number(0)) is False
    assert includes(value_range(n), number(3)) is False
    assert includes(value_range(n), number(2)) is None


def test_equality_uses_refinements() -> None:
    s = refine(unknown(STRING)).not_null().string_prefix("ab-").new_value()
    assert equals(s, null(DYNAMIC)).v is False
    assert equals(string("x"), s).v is False
    assert not equals(s, string("ab-x")).is_known
    assert not equals(unknown(STRING), null(DYNAMIC)).is_known


def test_conversion_keeps_what_cty_keeps() -> None:
    two = refine(unknown(ListType(STRING))).not_null().length_lower_bound(2).new_value()
    as_set = convert(two, SetType(STRING))
    rng = value_range(as_set)
    assert rng.definitely_not_null() and rng.length_lower_bound() == 1
    text = refine(unknown(NUMBER)).not_null().number_lower_bound(0, True).new_value()
    as_text = convert(text, STRING)
    assert value_range(as_text).definitely_not_null() and value_range(as_text).string_prefix() == ""


def test_without_refinements() -> None:
    v = refine_not_null(unknown(STRING)).mark("sensitive")
    plain = without_refinements(v)
    assert plain.refinement is None and plain.is_sensitive and not plain.is_known
