"""The marking rules of `call()` (cty's Function.Call): deep unmarking of arguments whose
parameter does not allow marks, the union of every removed mark on the whole result (also an
unknown one), `keep_nested_marks` and `allow_marked`. Function-level expectations were checked
against terraform v1.11.4 (`terraform plan` + `show -json`, `after_sensitive`)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.lang.functions.base import Function, Param, call, static_return
from engine.values import (
    DYNAMIC,
    NUMBER,
    SENSITIVE,
    STRING,
    ListType,
    SetType,
    Type,
    Value,
    list_,
    number,
    string,
    tuple_,
    unknown,
)
from tests.unit.lang.helpers import value

S = string("s").mark(SENSITIVE)


def _recording(param: Param, seen: list[Value], ret: Type = NUMBER) -> Function:
    """A function that records the argument its implementation receives and returns 1."""

    def impl(args: Sequence[Value], ret_type: Type) -> Value:
        seen.append(args[0])
        return number(1)

    return Function("probe", (param,), impl, static_return(ret))


def test_deep_unmark_and_mark_whole_result() -> None:
    seen: list[Value] = []
    fn = _recording(Param("l", ListType(STRING)), seen)
    result = call(fn, [list_([S, string("b")])])
    assert seen[0].deep_marks() == frozenset()
    assert result.marks == frozenset({SENSITIVE})


def test_marks_from_every_argument_are_united() -> None:
    def impl(args: Sequence[Value], ret_type: Type) -> Value:
        return string("r")

    fn = Function("two", (Param("a", STRING), Param("b", STRING)), impl, static_return(STRING))
    result = call(fn, [string("x").mark("other"), S])
    assert result.marks == frozenset({"other", SENSITIVE})


def test_unknown_result_keeps_marks_of_later_arguments() -> None:
    # terraform: join(timestamp(), [sensitive("a")]) is an unknown sensitive string
    def impl(args: Sequence[Value], ret_type: Type) -> Value:
        raise AssertionError("not called with unknown arguments")

    fn = Function("two", (Param("a", STRING), Param("b", ListType(STRING))), impl,
                  static_return(STRING))
    result = call(fn, [unknown(STRING), list_([S])])
    assert not result.is_known
    assert result.is_sensitive


def test_keep_nested_marks_removes_only_top_level() -> None:
    seen: list[Value] = []
    fn = _recording(Param("l", DYNAMIC, keep_nested_marks=True), seen)
    arg = tuple_([S, string("b")]).mark("top")
    result = call(fn, [arg])
    assert seen[0].marks == frozenset()
    assert seen[0].v[0].is_sensitive
    assert result.marks == frozenset({"top"})


def test_allow_marked_passes_argument_as_given() -> None:
    seen: list[Value] = []
    fn = _recording(Param("l", DYNAMIC, allow_marked=True), seen)
    arg = tuple_([S]).mark("top")
    result = call(fn, [arg])
    assert seen[0].marks == frozenset({"top"})
    assert result.marks == frozenset()


def test_conversion_to_set_hoists_before_unmarking() -> None:
    seen: list[Value] = []
    fn = _recording(Param("s", DYNAMIC, keep_nested_marks=True), seen)
    fn2 = _recording(Param("s", SetType(STRING), keep_nested_marks=True), seen)
    assert call(fn, [tuple_([S])]).marks == frozenset()
    # the set conversion moved the element's mark to the set, so it is a top-level mark
    assert call(fn2, [tuple_([S])]).marks == frozenset({SENSITIVE})
    assert seen[-1].deep_marks() == frozenset()


def test_unmarked_arguments_are_not_copied() -> None:
    seen: list[Value] = []
    fn = _recording(Param("l", ListType(STRING)), seen)
    arg = list_([string("a"), string("b")])
    call(fn, [arg])
    assert seen[0] is arg


# ------------------------------------------------------------------ library functions
def _sensitive_elements(v: Value) -> list[bool]:
    return [e.is_sensitive for e in v.v]


def test_deep_unmarking_functions_mark_whole_result() -> None:
    for src in ('contains([sensitive("a")], "a")', 'sort([sensitive("b"), "a"])',
                'toset([sensitive("a"), "b"])', 'length(toset([sensitive("a")]))',
                'distinct([sensitive("a"), "b"])', 'one([{a = sensitive(1)}])',
                'sum([sensitive(1), 2])', 'index(["a", sensitive("b")], "a")',
                'join(",", [sensitive("a"), "b"])', 'jsonencode([sensitive(1)])'):
        assert value(src).is_sensitive, src


def test_precise_functions_keep_element_marks() -> None:
    assert not value('length({a = sensitive(1)})').is_marked
    assert not value('element([sensitive("b"), "a"], 1)').is_marked
    assert value('element([sensitive("b"), "a"], 0)').is_sensitive
    assert not value('lookup({a = sensitive(1), b = 2}, "b")').is_marked
    keys = value('keys({a = sensitive(1), b = 2})')
    assert keys.deep_marks() == frozenset()
    assert _sensitive_elements(value('values({a = sensitive(1), b = 2})')) == [True, False]
    assert _sensitive_elements(value('reverse([sensitive("a"), "b"])')) == [False, True]
    assert _sensitive_elements(value('slice([sensitive("a"), "b", "c"], 1, 3)')) == [False, False]
    assert _sensitive_elements(value('flatten([[sensitive("a")], ["b"]])')) == [True, False]
    assert _sensitive_elements(value('concat([sensitive("a")], ["b"])')) == [True, False]
    zm = value('zipmap(["a", "b"], [sensitive(1), 2])')
    assert not zm.is_marked and zm.v["a"].is_sensitive and not zm.v["b"].is_marked
    chunks = value('chunklist([sensitive("a"), "b", "c"], 2)')
    assert not chunks.is_marked and _sensitive_elements(chunks.v[0]) == [True, False]
    prod = value('setproduct(["a"], [sensitive("b"), "c"])')
    assert not prod.is_marked and [r.deep_marks() for r in prod.v] == [
        frozenset({SENSITIVE}), frozenset()]


def test_precise_functions_move_argument_marks_to_result() -> None:
    for src in ('keys(sensitive({a = 1}))', 'values(sensitive({a = 1}))',
                'reverse(sensitive(["a", "b"]))', 'slice(["a", "b"], sensitive(0), 1)',
                'chunklist(["a"], sensitive(1))', 'flatten([sensitive(["a"]), ["b"]])',
                'zipmap([sensitive("a")], [1])', 'zipmap(["a"], sensitive([1]))',
                'setproduct(toset(["a"]), [sensitive("b")])'):
        assert value(src).is_sensitive, src
