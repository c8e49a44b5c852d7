"""Marks on for-expression and splat results when they are unknown, and on splats of a single
value; expectations from terraform v1.11.4 (`terraform plan` + `show -json`, after_sensitive)."""

from __future__ import annotations

from tests.unit.lang.helpers import value


def test_unknown_key_keeps_its_marks() -> None:
    v = value('{for x in [sensitive(var.us), "a"] : x => 1}')
    assert not v.is_known and v.is_sensitive


def test_unknown_condition_keeps_its_marks() -> None:
    v = value('[for x in ["a", "b"] : x if sensitive(var.us) != ""]')
    assert not v.is_known and v.is_sensitive
    obj = value('{for x in ["a"] : x => 1 if sensitive(var.us) != ""}')
    assert not obj.is_known and obj.is_sensitive


def test_unknown_value_marks_do_not_mark_unknown_object() -> None:
    v = value('{for i, x in [var.us, "a"] : x => sensitive(i)}')
    assert not v.is_known and not v.is_marked


def test_unknown_collection_marks_the_result() -> None:
    v = value('[for x in sensitive(split(",", var.us)) : x]')
    assert not v.is_known and v.is_sensitive


def test_for_over_set_with_marked_element_is_wholly_marked() -> None:
    v = value('[for x in toset([sensitive("a"), "b"]) : x]')
    assert v.is_sensitive and all(not e.marks for e in v.v)


def test_splat_of_single_marked_value_marks_tuple_and_element() -> None:
    v = value('sensitive("a")[*]')
    assert v.is_sensitive and v.v[0].is_sensitive


def test_splat_over_marked_list_marks_result_only() -> None:
    v = value('sensitive([{a = 1}])[*].a')
    assert v.is_sensitive and not v.v[0].marks
    w = value('[{a = sensitive(1)}, {a = 2}][*].a')
    assert not w.is_marked and [e.is_sensitive for e in w.v] == [True, False]
