"""Arithmetic, comparison, equality and logical operators.

Expected values and diagnostic texts were verified against terraform v1.11.4 (`terraform
console`; unknown/sensitive cases with `terraform plan` over a `terraform_data` output).
"""

from __future__ import annotations

import pytest

from engine.values import BOOL, NUMBER, UNKNOWN, Value

from .helpers import only_error, run, show, subject_text, value


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("1 + 2", "3"),
        ("7 / 2", "3.5"),
        ("10 % 3", "1"),
        ("5 % -3", "2"),
        ("-5 % 3", "-2"),
        ("5 % 0", "5"),
        ("0.1 + 0.2", "0.3"),
        ("2 * 3.5", "7"),
        ("-(-3)", "3"),
        ("1 / 0", "+Inf"),
        ('"3" + 1', "4"),
        ("1 < 2 && 2 <= 2", "true"),
        ("3 > 4 || 4 >= 4", "true"),
        ("!true || false", "false"),
        ('1 == "1"', "false"),
        ("[1, 2] == var.l", "false"),
        ("null == null", "true"),
        ("null != 1", "true"),
        ('"ab" == "ab"', "true"),
        ("{a=1} == {a=1}", "true"),
        ("var.n + 1", "2"),
        ("var.l == var.l", "true"),
    ],
)
def test_operator_results_match_terraform(src: str, expected: str) -> None:
    assert show(src) == expected


@pytest.mark.parametrize(
    ("src", "detail", "subject"),
    [
        ('"a" + 1', "Unsuitable value for left operand: a number is required.", '"a"'),
        ("1 + true", "Unsuitable value for right operand: number required.", "true"),
        ('2 < "a"', "Unsuitable value for right operand: a number is required.", '"a"'),
        ("1 && true", "Unsuitable value for left operand: bool required.", "1"),
        ('-"a"', "Unsuitable value for unary operand: a number is required.", '"a"'),
        ("!1", "Unsuitable value for unary operand: bool required.", "1"),
    ],
)
def test_invalid_operand(src: str, detail: str, subject: str) -> None:
    d = only_error(src)
    assert d.summary == "Invalid operand"
    assert d.detail == detail
    assert subject_text(d) == subject
    assert d.context is not None and d.context.text() == src


@pytest.mark.parametrize("src", ["null + 1", "!null", "true && null", "-null"])
def test_null_operand_is_operation_failed(src: str) -> None:
    d = only_error(src)
    assert d.summary == "Operation failed"
    assert d.detail == "Error during operation: argument must not be null."
    assert subject_text(d) == src


def test_invalid_operand_result_is_unknown_of_operator_type() -> None:
    val, _ = run('"a" + 1')
    assert val == Value(NUMBER, UNKNOWN)
    val, _ = run("1 && true")
    assert val == Value(BOOL, UNKNOWN)


def test_both_operands_reported() -> None:
    _, diags = run('"a" + "b"')
    assert [d.detail for d in diags] == [
        "Unsuitable value for left operand: a number is required.",
        "Unsuitable value for right operand: a number is required.",
    ]


def test_logical_operators_do_not_short_circuit() -> None:
    # terraform 1.11: `true || upper({})` still reports the argument error.
    d = only_error("true || upper({})")
    assert d.summary == "Invalid function argument"
    assert d.detail == 'Invalid value for "str" parameter: string required.'
    d = only_error("false && upper({})")
    assert d.summary == "Invalid function argument"


def test_invalid_operand_reports_reference_values() -> None:
    d = only_error("var.s + 1")
    assert [(v.traversal, v.statement) for v in d.values] == [("var.s", 'is "a"')]


def test_unknown_operands() -> None:
    assert value("var.un + 1") == Value(NUMBER, UNKNOWN)
    assert value("var.un < 1") == Value(BOOL, UNKNOWN)
    assert value("var.un == 1") == Value(BOOL, UNKNOWN)
    assert value("null == var.un") == Value(BOOL, UNKNOWN)
    # a string can never equal a number, known or not (terraform plan shows `false`)
    assert value('"a" == var.un') == Value(BOOL, False)
    # no short circuit for unknowns either: `false && unknown` is unknown
    assert value("false && (var.un == 1)") == Value(BOOL, UNKNOWN)
    assert value("-var.un") == Value(NUMBER, UNKNOWN)


def test_sensitive_marks_propagate() -> None:
    assert value("var.sn + 1") == Value(NUMBER, 6, frozenset({"sensitive"}))
    assert value("1 + var.sn") == Value(NUMBER, 6, frozenset({"sensitive"}))
    assert value("var.sn > 1") == Value(BOOL, True, frozenset({"sensitive"}))
    assert value('var.secret == "x"') == Value(BOOL, False, frozenset({"sensitive"}))
    assert value('var.secret != "x"') == Value(BOOL, True, frozenset({"sensitive"}))
    assert value("-var.sn") == Value(NUMBER, -5, frozenset({"sensitive"}))
    # terraform plan: `sensitive(1) + unknown` and `unknown + sensitive(1)` are both sensitive
    assert value("var.sn + var.un").marks == frozenset({"sensitive"})
    assert value("var.un + var.sn").marks == frozenset({"sensitive"})
    # marks nested inside a collection mark an equality result
    assert value("[var.sn] == [5]").marks == frozenset({"sensitive"})


def test_division_of_zero_by_zero_fails() -> None:
    d = only_error("0 / 0")
    assert d.summary == "Operation failed"
    assert d.detail.startswith("Error during operation: can't divide zero by zero")
