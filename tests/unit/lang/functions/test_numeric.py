"""Numeric functions. Expected values and messages come from the real terraform v1.11.4
(`terraform console`)."""

from __future__ import annotations

import math

import pytest

from engine.lang.functions.numeric import go_pow, parse_go_int
from tests.unit.lang.helpers import only_error, show, value

CASES = [
    ("abs(-12.4)", "12.4"),
    ("abs(-1/0)", "+Inf"),
    ("ceil(1.1)", "2"),
    ("ceil(-5.1)", "-5"),
    ("floor(-1.1)", "-2"),
    ("floor(4.9)", "4"),
    ("ceil(1/0)", "+Inf"),
    ("log(8, 2)", "3"),
    ("log(16, 4)", "2"),
    ("log(10, 1)", "+Inf"),
    ("log(0, 10)", "-Inf"),
    ("pow(2, 0.5)", "1.4142135623730951"),
    ("pow(2, 0.1)", "1.0717734625362931"),
    ("pow(3, 40)", "12157665459056929000"),
    ("pow(10, 400)", "+Inf"),
    ("pow(0, -1)", "+Inf"),
    ("pow(2, 10)", "1024"),
    ("signum(-3)", "-1"),
    ("signum(0)", "0"),
    ("max(12, 54, 3)", "54"),
    ("max([1, 2]...)", "2"),
    ('max("3", 2)', "3"),
    ("min(2, 1.5)", "1.5"),
    ('parseint("ff", 16)', "255"),
    ('parseint("FF", 16)', "255"),
    ('parseint("zz", 62)', "2205"),
    ('parseint("-101", 2)', "-5"),
    ('parseint("+5", 10)', "5"),
]


@pytest.mark.parametrize(("src", "want"), CASES)
def test_numeric_values(src: str, want: str) -> None:
    assert show(src) == want


ERRORS = [
    ("max()", "Error in function call",
     'Call to function "max" failed: must pass at least one number.'),
    ('max("a", 2)', "Invalid function argument",
     'Invalid value for "numbers" parameter: a number is required.'),
    ('parseint("12", 1)', "Invalid function argument",
     'Invalid value for "base" parameter: base must be a whole number between 2 and 62 inclusive.'),
    ('parseint("1x", 10)', "Invalid function argument",
     'Invalid value for "number" parameter: cannot parse "1x" as a base 10 integer.'),
    ('parseint(12, 10)', "Invalid function argument",
     'Invalid value for "number" parameter: first argument must be a string, not number.'),
    ('parseint("0x10", 16)', "Invalid function argument",
     'Invalid value for "number" parameter: cannot parse "0x10" as a base 16 integer.'),
    ('parseint("1_000", 10)', "Invalid function argument",
     'Invalid value for "number" parameter: cannot parse "1_000" as a base 10 integer.'),
    ("signum(1.5)", "Error in function call",
     'Call to function "signum" failed: value must be a whole number, between -9223372036854775808 and 9223372036854775807.'),
]


@pytest.mark.parametrize(("src", "summary", "detail"), ERRORS)
def test_numeric_errors(src: str, summary: str, detail: str) -> None:
    d = only_error(src)
    assert (d.summary, d.detail) == (summary, detail)


def test_nan_results_fail_like_go() -> None:
    # terraform panics inside big.Float.SetFloat64(NaN); its message starts like this one
    d = only_error("log(-1, 10)")
    assert d.detail.startswith(
        'Call to function "log" failed: panic in function implementation: Float.SetFloat64(NaN)'
    )


def test_unknown_and_sensitive() -> None:
    assert show("abs(var.un)") == "(known after apply)"
    assert show("abs(var.sn)") == "(sensitive value)"
    assert value("max(var.sn, 1)").is_sensitive
    assert not value('parseint(var.us, 10)').is_known
    assert value('parseint("10", var.sn)').is_sensitive


def test_go_helpers() -> None:
    assert parse_go_int("Zz", 62) == 61 * 62 + 35
    assert parse_go_int("Zz", 36) == 35 * 36 + 35
    assert parse_go_int("", 10) is None and parse_go_int("-", 10) is None
    assert go_pow(-8, 1 / 3) != go_pow(-8, 1 / 3)  # NaN
    assert go_pow(-2, 3) == -8 and go_pow(0, -3) == math.inf and go_pow(-0.0, -3) == -math.inf
