"""Date and time functions. Expected values and messages were produced by the real terraform
v1.11.4 (`terraform console` and outputs of a configuration)."""

from __future__ import annotations

import re

import pytest

from engine.lang import EvalContext
from engine.lang.functions import function_table
from engine.lang.functions.base import call
from engine.lang.functions.datetime import FUNCTIONS, make_plantimestamp, parse_duration
from tests.unit.lang.helpers import default_vars, only_error, show, value

FN = {f.name: f for f in FUNCTIONS}


def fctx() -> EvalContext:
    return EvalContext(default_vars(), function_table("."))


CASES = [
    ('formatdate("YYYY-MM-DD hh:mm:ss ZZZZZ EEEE MMMM D M YY h H HH AA aa m s Z ZZZ ZZZZ EEE MMM", "2017-03-09T05:06:07-08:00")',
     '"2017-03-09 05:06:07 -08:00 Thursday March 9 3 17 5 5 05 AM am 6 7 -08:00 -0800 -0800 Thu Mar"'),
    ('formatdate("\'quoted \'\'x\'\' text\' DD", "2017-03-09T00:06:07Z")', '"quoted \'x\' text 09"'),
    ('formatdate("Z ZZZ", "2017-03-09T00:06:07-00:00")', '"Z UTC"'),
    ('formatdate("!@#", "2017-03-09T00:06:07Z")', '"!@#"'),
    ('formatdate("DD hh", "2017-03-09T00:06:07.1234567891Z")', '"09 00"'),
    ('timeadd("2017-11-22T00:00:00Z", "10m")', '"2017-11-22T00:10:00Z"'),
    ('timeadd("2017-11-22T00:00:00+05:30", "-1h30m1.5s")', '"2017-11-21T22:29:58+05:30"'),
    ('timeadd("2017-11-22T00:00:00.5Z", "1us")', '"2017-11-22T00:00:00Z"'),
    ('timeadd("2017-11-22T00:00:00Z", "1.5µs")', '"2017-11-22T00:00:00Z"'),
    ('timeadd("2017-11-22T00:00:00Z", "+.5h")', '"2017-11-22T00:30:00Z"'),
    ('timeadd("0001-01-01T00:00:00Z", "-1h")', '"0000-12-31T23:00:00Z"'),
    ('timeadd("9999-12-31T23:00:00Z", "2h")', '"10000-01-01T01:00:00Z"'),
    ('timecmp("2017-11-22T00:00:00Z", "2017-11-22T01:00:00+01:00")', "0"),
    ('timecmp("2017-11-22T00:00:00Z", "2017-11-21T01:00:00Z")', "1"),
    ('timecmp("2017-03-09T1:06:07Z", "2017-03-09T00:06:07Z")', "1"),
    ('timecmp("2017-03-09T00:06:07+01:60", "2017-03-09T00:06:07Z")', "-1"),
    ('timecmp("2017-03-09T00:06:07,5Z", "2017-03-09T00:06:07Z")', "1"),
]


@pytest.mark.parametrize(("src", "want"), CASES)
def test_datetime_values(src: str, want: str) -> None:
    assert show(src, fctx()) == want


NOT_RFC = "not a valid RFC3339 timestamp: "
ERRORS = [
    ('formatdate("Y", "2017-03-09T00:06:07Z")', "Invalid function argument",
     'Invalid value for "format" parameter: invalid date format verb "Y": year must either be "YY" or "YYYY".'),
    ('formatdate("x", "2017-03-09T00:06:07Z")', "Invalid function argument",
     'Invalid value for "format" parameter: invalid date format verb "x".'),
    ('formatdate("\'abc", "2017-03-09T00:06:07Z")', "Invalid function argument",
     "Invalid value for \"format\" parameter: unterminated literal '."),
    ('formatdate("DD", "2017-03-09")', "Invalid function argument",
     f"Invalid value for \"time\" parameter: {NOT_RFC}missing required time introducer 'T'."),
    ('formatdate("DD", "2017-03-09T00:06:07")', "Invalid function argument",
     f'Invalid value for "time" parameter: {NOT_RFC}end of string before UTC offset.'),
    ('formatdate("DD", "2017-13-09T00:06:07Z")', "Invalid function argument",
     f'Invalid value for "time" parameter: {NOT_RFC}cannot use "-09T00:06:07Z" as month.'),
    ('formatdate("DD", "2017-03-09T25:06:07Z")', "Invalid function argument",
     f'Invalid value for "time" parameter: {NOT_RFC}hour must be between 0 and 23 inclusive.'),
    ('formatdate("DD", "2017-03-09T1:06:07Z")', "Invalid function argument",
     f'Invalid value for "time" parameter: {NOT_RFC}hour must have exactly two digits.'),
    ('formatdate("DD", "2017-03-09T00:06:07,5Z")', "Invalid function argument",
     f'Invalid value for "time" parameter: {NOT_RFC}cannot use "," as timestamp segment.'),
    ('formatdate("DD", "2017-03-09T00:06:07+24:00")', "Invalid function argument",
     f'Invalid value for "time" parameter: {NOT_RFC}cannot use "+24:00" as UTC offset.'),
    ('formatdate("DD", "2017-02-30T00:06:07Z")', "Invalid function argument",
     f'Invalid value for "time" parameter: {NOT_RFC}day out of range.'),
    ('formatdate("DD", "2017-03-09T00:06:07Zjunk")', "Invalid function argument",
     f'Invalid value for "time" parameter: {NOT_RFC}cannot use "junk" as timestamp segment.'),
    ('timecmp("2017-03-09T24:00:00Z", "2017-03-09T00:06:07Z")', "Invalid function argument",
     f'Invalid value for "timestamp_a" parameter: {NOT_RFC}cannot use ":00:00Z" as hour.'),
    ('timecmp("2017-11-22T00:00:00Z", "x")', "Invalid function argument",
     f'Invalid value for "timestamp_b" parameter: {NOT_RFC}cannot use "x" as year.'),
    ('timecmp("2017-03-09T00", "2017-03-09T00:06:07Z")', "Invalid function argument",
     f'Invalid value for "timestamp_a" parameter: {NOT_RFC}end of string where ":" is expected.'),
    ('timeadd("bad", "1h")', "Error in function call",
     f'Call to function "timeadd" failed: {NOT_RFC}cannot use "bad" as year.'),
    ('timeadd("2017-11-22T00:00:00Z", "1d")', "Error in function call",
     'Call to function "timeadd" failed: time: unknown unit "d" in duration "1d".'),
    ('timeadd("2017-11-22T00:00:00Z", "10")', "Error in function call",
     'Call to function "timeadd" failed: time: missing unit in duration "10".'),
    ('timeadd("2017-11-22T00:00:00Z", "")', "Error in function call",
     'Call to function "timeadd" failed: time: invalid duration "".'),
    ('timeadd("2017-11-22T00:00:00Z", "9999999999h")', "Error in function call",
     'Call to function "timeadd" failed: time: invalid duration "9999999999h".'),
]


@pytest.mark.parametrize(("src", "summary", "detail"), ERRORS)
def test_datetime_errors(src: str, summary: str, detail: str) -> None:
    d = only_error(src, fctx())
    assert (d.summary, d.detail) == (summary, detail)


def test_durations() -> None:
    assert parse_duration("1h30m") == 5_400_000_000_000
    assert parse_duration("-1.5s") == -1_500_000_000
    assert parse_duration("0") == 0
    assert parse_duration("1μs") == 1000
    with pytest.raises(ValueError, match=r'time: invalid duration "\."'):
        parse_duration(".")


def test_timestamp_is_impure() -> None:
    assert FN["timestamp"].impure
    assert not call(FN["timestamp"], [], plan_phase=True).is_known
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", call(FN["timestamp"], []).v)


def test_plantimestamp_is_fixed() -> None:
    fn = make_plantimestamp("2024-05-06T07:08:09Z")
    assert call(fn, []).v == "2024-05-06T07:08:09Z"
    floating = make_plantimestamp()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", call(floating, []).v)


def test_unknown_and_sensitive_propagate() -> None:
    c = fctx()
    assert show('timeadd(var.us, "1h")', c) == "(known after apply)"
    secret = value('timecmp(sensitive("2017-11-22T00:00:00Z"), "2017-11-22T00:00:00Z")', c)
    assert secret.is_sensitive and secret.v == 0
