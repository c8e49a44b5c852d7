"""`for` expressions and splat expressions (`[*]` and the legacy `.*`).

Expected values and diagnostic texts were verified against terraform v1.11.4 (`terraform
console`, with `tolist`/`toset`/`tomap` where these tests use typed variables instead).
"""

from __future__ import annotations

import pytest

from engine.lang import EvalContext
from engine.values import (
    DYNAMIC,
    NUMBER,
    STRING,
    UNKNOWN,
    ListType,
    MapType,
    ObjectType,
    SetType,
    TupleType,
    Value,
    number,
    object_,
    string,
)

from .helpers import ctx, default_vars, only_error, run, show, subject_text, value

SENSITIVE = frozenset({"sensitive"})


def typed_ctx() -> EvalContext:
    variables = default_vars()
    obj_t = ObjectType({"a": NUMBER})
    variables["t"] = object_(
        {
            "strs": Value(ListType(STRING), [string("a")]),
            "empty_set": Value(SetType(NUMBER), []),
            "set": Value(SetType(STRING), [string("a"), string("b")]),
            "map": Value(MapType(NUMBER), {"a": number(1), "b": number(2)}),
            "objs": Value(ListType(obj_t), [object_({"a": number(1)}), object_({"a": number(2)})]),
            "ulist": Value(ListType(obj_t), UNKNOWN),
            "uobj": Value(obj_t, UNKNOWN),
            "dyn": Value(DYNAMIC, UNKNOWN),
            "slist": Value(ListType(NUMBER), [number(1), number(2)], SENSITIVE),
        }
    )
    return ctx(variables)


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ('[for i, v in ["a","b"]: "${i}${v}"]', '[\n  "0a",\n  "1b",\n]'),
        ("[for k, v in {a=1, b=2}: k]", '[\n  "a",\n  "b",\n]'),
        ("{for k, v in {b=2, a=1}: v => k}", '{\n  "1" = "a"\n  "2" = "b"\n}'),
        ('{for x in ["a","b","a"]: x => 1...}', '{\n  "a" = [\n    1,\n    1,\n  ]\n  "b" = [\n    1,\n  ]\n}'),
        ("{for x in [1,1]: x => x...}", '{\n  "1" = [\n    1,\n    1,\n  ]\n}'),
        ("[for x in [1,2,3]: x if x > 1]", "[\n  2,\n  3,\n]"),
        ("{for k, v in {a=1, b=2}: k => v if v > 1}", '{\n  "b" = 2\n}'),
        ("[for x in {b=1, a=2}: x]", "[\n  2,\n  1,\n]"),
        ('{for i, x in ["a", "b"]: x => i}', '{\n  "a" = 0\n  "b" = 1\n}'),
        ('[for x in ["a"]: x if "true"]', '[\n  "a",\n]'),
        ("[for x in t.set: x]", '[\n  "a",\n  "b",\n]'),
        ("[for k, v in t.map: k]", '[\n  "a",\n  "b",\n]'),
    ],
)
def test_for_results(src: str, expected: str) -> None:
    assert show(src, typed_ctx()) == expected


@pytest.mark.parametrize(
    ("src", "summary", "detail", "subject"),
    [
        (
            "[for x in null: x]",
            "Iteration over null value",
            "A null value cannot be used as the collection in a 'for' expression.",
            "null",
        ),
        (
            "[for x in 1: x]",
            "Iteration over non-iterable value",
            "A value of type number cannot be used as the collection in a 'for' expression.",
            "1",
        ),
        (
            "[for x in [1]: x if null]",
            "Condition is null",
            "The value of the 'if' clause must not be null.",
            "null",
        ),
        (
            "[for x in [1]: x if 1]",
            "Invalid 'for' condition",
            "The 'if' clause value is invalid: bool required.",
            "1",
        ),
        (
            '[for x in ["a"]: x if x]',
            "Invalid 'for' condition",
            "The 'if' clause value is invalid: a bool is required.",
            "x",
        ),
        (
            '{for x in ["a"]: [x] => x}',
            "Invalid object key",
            "The key expression produced an invalid result: string required.",
            "[x]",
        ),
        (
            "{for x in [1]: null => x}",
            "Invalid object key",
            "Key expression in 'for' expression must not produce a null value.",
            "null",
        ),
        (
            '{for v in ["a","a"]: v => v}',
            "Duplicate object key",
            'Two different items produced the key "a" in this \'for\' expression. If duplicates '
            "are expected, use the ellipsis (...) after the value expression to enable grouping "
            "by key.",
            "v",
        ),
    ],
)
def test_for_errors(src: str, summary: str, detail: str, subject: str) -> None:
    d = only_error(src)
    assert (d.summary, d.detail) == (summary, detail)
    assert subject_text(d) == subject
    assert d.context is not None and d.context.text() == src


def test_for_unknowns_and_marks() -> None:
    c = typed_ctx()
    assert value("[for x in t.ulist: x]", c) == Value(DYNAMIC, UNKNOWN)
    assert value("[for x in t.dyn: x]", c) == Value(DYNAMIC, UNKNOWN)
    assert value("[for x in [1, 2]: x if x > var.un]", c) == Value(DYNAMIC, UNKNOWN)
    assert value("{for x in [1]: var.us => x}", c) == Value(DYNAMIC, UNKNOWN)
    marked = value("[for x in t.slist: x]", c)
    assert marked.marks == SENSITIVE and marked.v == [number(1), number(2)]
    assert value("[for x in [1, 2]: x if x > var.sn]", c).marks == SENSITIVE
    assert value("{for x in [1]: var.secret => x}", c).marks == SENSITIVE


def test_for_variables_do_not_leak_into_outer_scope() -> None:
    d = only_error("[for x in [1]: x][0] + x")
    assert d.summary == "Unknown variable"
    assert d.detail == 'There is no variable named "x".'


def test_nested_for_sees_outer_variables() -> None:
    assert show("[for a in [1, 2]: [for b in [10]: a + b]]") == (
        "[\n  [\n    11,\n  ],\n  [\n    12,\n  ],\n]"
    )


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("1[*]", "[\n  1,\n]"),
        ("null[*]", "[]"),
        ("null[*].a", "[]"),
        ("{a=1}.*", '[\n  {\n    "a" = 1\n  },\n]'),
        ("{a=1}[*].a", "[\n  1,\n]"),
        ("[1,2].*", "[\n  1,\n  2,\n]"),
        ("[[1,2],[3]][*][0]", "[\n  1,\n  3,\n]"),
        ("[{a={b=1}}][*].a.b", "[\n  1,\n]"),
        ("[{a=1},{a=2}][*].a", "[\n  1,\n  2,\n]"),
        ("t.strs[*]", 'tolist([\n  "a",\n])'),
        ("t.objs[*].a", "tolist([\n  1,\n  2,\n])"),
        ("t.objs.*.a", "tolist([\n  1,\n  2,\n])"),
        ("t.empty_set[*]", "tolist([])"),
        ("t.map[*]", 'tomap({\n  "a" = 1\n  "b" = 2\n})'),
    ],
)
def test_splat_results(src: str, expected: str) -> None:
    rendered = show(src, typed_ctx())
    if src == "t.map[*]":
        # a map is not a sequence: it is wrapped in a one-element tuple
        assert rendered == "[\n  " + expected.replace("\n", "\n  ") + ",\n]"
    else:
        assert rendered == expected


def test_splat_result_types() -> None:
    c = typed_ctx()
    assert value("t.objs[*].a", c).type == ListType(NUMBER)
    assert value("t.empty_set[*]", c).type == ListType(NUMBER)
    assert value("t.ulist[*].a", c) == Value(ListType(NUMBER), UNKNOWN)
    assert value("t.uobj[*].a", c) == Value(DYNAMIC, UNKNOWN)
    assert value("t.dyn[*].a", c) == Value(DYNAMIC, UNKNOWN)
    assert value("t.slist[*]", c).marks == SENSITIVE


def test_splat_errors() -> None:
    d = only_error("[{a=1}, {b=2}][*].a")
    assert d.summary == "Unsupported attribute"
    assert d.detail == 'This object does not have an attribute named "a".'
    d = only_error("[1][*].a")
    assert d.detail == "Can't access attributes on a primitive-typed value (number)."
    val, _ = run("[1][*].a")
    assert val == Value(TupleType([DYNAMIC]), UNKNOWN)
    d = only_error("t.ulist[*].nope", typed_ctx())
    assert d.summary == "Unsupported attribute"
