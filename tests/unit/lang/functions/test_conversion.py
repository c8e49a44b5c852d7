"""Conversion and sensitivity functions. Expected values and messages were produced by the
real terraform v1.11.4 (`terraform console`)."""

from __future__ import annotations

import pytest

from engine.lang.functions.base import call
from engine.lang.functions.conversion import FUNCTIONS, ephemeral_as_null
from engine.values import BOOL, DYNAMIC, NUMBER, ListType, number, object_, string, unknown
from tests.unit.lang.helpers import only_error, show, value

FN = {f.name: f for f in FUNCTIONS}

CASES = [
    ('tolist(["a", 1, true])', 'tolist([\n  "a",\n  "1",\n  "true",\n])'),
    ('tomap({a=1, b="x"})', 'tomap({\n  "a" = "1"\n  "b" = "x"\n})'),
    ('toset([1, "1", 1.0])', 'toset([\n  "1",\n])'),
    ("tostring(null)", "tostring(null)"),
    ("tostring(1.50)", '"1.5"'),
    ('tonumber("1e3")', "1000"),
    ('tobool("true")', "true"),
    ("nonsensitive(sensitive({a=1}))", '{\n  "a" = 1\n}'),
    ('nonsensitive("x")', '"x"'),
    ("issensitive(sensitive(1))", "true"),
    ("issensitive({a=sensitive(1)})", "false"),
    ("ephemeralasnull({a=1})", '{\n  "a" = 1\n}'),
    ("tostring(sensitive(1))", "(sensitive value)"),
]


@pytest.mark.parametrize(("src", "want"), CASES)
def test_conversion_values(src: str, want: str) -> None:
    assert show(src) == want


ERRORS = [
    ('tobool("yes")',
     'Invalid value for "v" parameter: cannot convert "yes" to bool; only the strings "true" or "false" are allowed.'),
    ('tonumber("0x10")',
     'Invalid value for "v" parameter: cannot convert "0x10" to number; given string must be a decimal representation of a number.'),
    ('tonumber(" 1")',
     'Invalid value for "v" parameter: cannot convert " 1" to number; given string must be a decimal representation of a number.'),
    ("tostring([1])", 'Invalid value for "v" parameter: cannot convert tuple to string.'),
    ("tolist({a=1})", 'Invalid value for "v" parameter: cannot convert object to list of any single type.'),
    ("tomap([1])", 'Invalid value for "v" parameter: cannot convert tuple to map of any single type.'),
    ('tolist(["a", [1]])', 'Invalid value for "v" parameter: cannot convert tuple to list of any single type.'),
    ("tomap({a=1, b=[1]})", 'Invalid value for "v" parameter: cannot convert object to map of any single type.'),
    ('tonumber(sensitive("x"))', 'Invalid value for "v" parameter: cannot convert this sensitive string to number.'),
    ('tobool(sensitive("x"))', 'Invalid value for "v" parameter: cannot convert this sensitive string to bool.'),
    ("tobool(1)", 'Invalid value for "v" parameter: cannot convert number to bool.'),
]


@pytest.mark.parametrize(("src", "detail"), ERRORS)
def test_conversion_errors(src: str, detail: str) -> None:
    d = only_error(src)
    assert (d.summary, d.detail) == ("Invalid function argument", detail)


def test_unknowns_keep_the_target_type_and_marks() -> None:
    assert value("tostring(var.un)").type.type_expr() == "string"
    assert not value("tonumber(var.us)").is_known
    v = call(FN["tolist"], [unknown(DYNAMIC).mark("sensitive")])
    assert v.type == ListType(DYNAMIC) and not v.is_known and v.is_sensitive
    assert call(FN["issensitive"], [unknown(NUMBER)]).type == BOOL
    assert not call(FN["issensitive"], [unknown(NUMBER)]).is_known
    assert call(FN["issensitive"], [unknown(NUMBER).mark("sensitive")]).v is True


def test_sensitive_marks_and_nonsensitive_removes_only_that_mark() -> None:
    v = call(FN["sensitive"], [string("x")])
    assert v.is_sensitive and v.v == "x"
    both = string("x").mark("sensitive", "other")
    out = call(FN["nonsensitive"], [both])
    assert out.marks == frozenset({"other"})
    assert not call(FN["sensitive"], [unknown(NUMBER)]).is_known


def test_ephemeral_values_become_typed_nulls() -> None:
    val = object_({"a": number(1).mark("ephemeral"), "b": string("x")})
    out = ephemeral_as_null(val)
    assert out.v["a"].is_null and out.v["a"].type == NUMBER and not out.v["a"].marks
    assert out.v["b"].v == "x"
    unk = ephemeral_as_null(unknown(NUMBER).mark("ephemeral", "sensitive"))
    assert not unk.is_known and unk.marks == frozenset({"sensitive"})
