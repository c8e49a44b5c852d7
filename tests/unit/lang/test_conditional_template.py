"""Conditional expressions and string templates (interpolation, `%{if}`, `%{for}`).

Expected values and diagnostic texts were verified against terraform v1.11.4 (`terraform
console`; unknown and sensitive cases with `terraform plan`).
"""

from __future__ import annotations

import pytest

from engine.values import NUMBER, STRING, UNKNOWN, Value

from .helpers import only_error, run, show, subject_text, value

SENSITIVE = frozenset({"sensitive"})


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ('true ? 1 : "a"', '"1"'),
        ('false ? 1 : "x"', '"x"'),
        ("true ? null : 1", "tonumber(null)"),
        ("false ? [1] : null", "null /* tuple */"),
        ("true ? null : null", "null"),
        ('"true" ? 1 : 2', "1"),
        ("(true ? 1 : 2) + 1", "2"),
        ('true ? {a=[1]} : {a=["x", 2]}', '{\n  "a" = tolist([\n    "1",\n  ])\n}'),
        ("true ? {a=1, b=2} : {a=1}", 'tomap({\n  "a" = 1\n  "b" = 2\n})'),
        ("true ? [1] : [1,2]", "tolist([\n  1,\n])"),
    ],
)
def test_conditional_results(src: str, expected: str) -> None:
    assert show(src) == expected


@pytest.mark.parametrize(
    ("src", "detail"),
    [
        ("true ? [1] : {}", "The 'true' value is tuple, but the 'false' value is object."),
        ("true ? 1 : [1]", "The 'true' value is number, but the 'false' value is tuple."),
        (
            'true ? [1, "a"] : [1, {}]',
            "Type mismatch for tuple element 1: The 'true' value is string, but the 'false' value "
            "is object.",
        ),
        (
            "true ? [[1]] : [{}]",
            "Type mismatch for tuple element 0: The 'true' value is tuple, but the 'false' value "
            "is object.",
        ),
    ],
)
def test_inconsistent_result_types(src: str, detail: str) -> None:
    d = only_error(src)
    assert d.summary == "Inconsistent conditional result types"
    assert d.detail == "The true and false result expressions must have consistent types. " + detail
    # subject spans from the true result to the false result
    assert subject_text(d) == src[src.index("?") + 2 :]


def test_condition_errors() -> None:
    d = only_error("null ? 1 : 2")
    assert (d.summary, d.detail) == (
        "Null condition",
        "The condition value is null. Conditions must either be true or false.",
    )
    assert subject_text(d) == "null"
    d = only_error('"x" ? 1 : 2')
    assert (d.summary, d.detail) == (
        "Incorrect condition type",
        "The condition expression must be of type bool.",
    )


def test_only_the_chosen_branch_reports_errors() -> None:
    # HCL drops diagnostics of the branch not taken
    assert value("true ? 1 : var.nope") == Value(NUMBER, 1)
    d = only_error("false ? 1 : var.nope")
    assert d.summary == "Unsupported attribute"


def test_unknown_and_sensitive_conditions() -> None:
    assert value("var.un > 0 ? 1 : 2") == Value(NUMBER, UNKNOWN)
    assert value('var.un > 0 ? 1 : "a"') == Value(STRING, UNKNOWN)
    assert value("var.un > 0 ? var.sn : 2") == Value(NUMBER, UNKNOWN, SENSITIVE)
    # terraform console: `sensitive(true) ? 1 : 2` is (sensitive value)
    assert value("var.sn > 0 ? 1 : 2") == Value(NUMBER, 1, SENSITIVE)
    assert value("true ? var.sn : 2") == Value(NUMBER, 5, SENSITIVE)


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ('"${1.5}"', "1.5"),
        ('"${true}x"', '"truex"'),
        ('"${null}"', "null"),
        ('"${[1]}"', "[\n  1,\n]"),
        ('"a-${var.n}-${var.s}"', '"a-1-a"'),
        ('"a%{if false}b%{endif}c"', '"ac"'),
        ('"%{if true}y%{else}n%{endif}"', '"y"'),
        ('"%{for x in [1,2]}${x},%{endfor}"', '"1,2,"'),
        ('"%{for k, v in {a=1,b=2}}${k}=${v};%{endfor}"', '"a=1;b=2;"'),
        ('"%{for i, v in ["x","y"]}${i}${v}%{endfor}"', '"0x1y"'),
    ],
)
def test_template_results(src: str, expected: str) -> None:
    assert show(src) == expected


@pytest.mark.parametrize(
    ("src", "summary", "detail"),
    [
        (
            '"a${null}"',
            "Invalid template interpolation value",
            "The expression result is null. Cannot include a null value in a string template.",
        ),
        (
            '"a${[1]}"',
            "Invalid template interpolation value",
            "Cannot include the given value in a string template: string required.",
        ),
        (
            '"%{if null}a%{endif}"',
            "Null condition",
            "The condition value is null. Conditions must either be true or false.",
        ),
        (
            '"%{if 1}a%{endif}"',
            "Incorrect condition type",
            "The condition expression must be of type bool.",
        ),
        (
            '"%{for x in null}a%{endfor}"',
            "Iteration over null value",
            "A null value cannot be used as the collection in a 'for' expression.",
        ),
        (
            '"%{for x in 1}a%{endfor}"',
            "Iteration over non-iterable value",
            "A value of type number cannot be used as the collection in a 'for' expression.",
        ),
        (
            '"%{for x in [null]}${x}%{endfor}"',
            "Invalid template interpolation value",
            "The expression result is null. Cannot include a null value in a string template.",
        ),
    ],
)
def test_template_errors(src: str, summary: str, detail: str) -> None:
    d = only_error(src)
    assert (d.summary, d.detail) == (summary, detail)


def test_template_null_subject_is_the_interpolated_expression() -> None:
    d = only_error('"a${null}b"')
    assert subject_text(d) == "null"
    assert d.context is not None and d.context.text() == '"a${null}b"'


def test_template_unknowns_and_marks() -> None:
    assert value('"ab${var.un}"') == Value(STRING, UNKNOWN)
    assert value('"${var.secret}!"') == Value(STRING, "hunter2!", SENSITIVE)
    # terraform plan: "${sensitive("a")}${unknown}" is sensitive
    assert value('"${var.secret}${var.us}"') == Value(STRING, UNKNOWN, SENSITIVE)
    assert value('"%{for x in [var.sn]}${x}%{endfor}"') == Value(STRING, "5", SENSITIVE)
    assert value('"%{if var.sn > 1}y%{endif}"') == Value(STRING, "y", SENSITIVE)
    assert value('"%{if var.un > 1}y%{endif}"') == Value(STRING, UNKNOWN)


def test_template_wrap_returns_value_unchanged() -> None:
    assert value('"${var.l}"') == value("var.l")
    assert value('"${var.sn}"') == Value(NUMBER, 5, SENSITIVE)


def test_template_reports_every_bad_part() -> None:
    _, diags = run('"${null}${[1]}"')
    assert [d.summary for d in diags] == ["Invalid template interpolation value"] * 2
