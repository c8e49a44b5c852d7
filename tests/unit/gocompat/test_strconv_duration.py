"""Go's strconv.Quote / QuoteRune and time.ParseDuration / Duration.String (values checked
against Go 1.23's documented behaviour and terraform's messages)."""

from __future__ import annotations

import pytest

from engine.gocompat.duration import (
    MILLISECOND,
    SECOND,
    DurationError,
    format_duration,
    parse_duration,
    parse_seconds,
)
from engine.gocompat.levenshtein import distance, name_suggestion
from engine.gocompat.strconv import quote, quote_rune


@pytest.mark.parametrize(("text", "quoted"), [
    ("", '""'),
    ("plain", '"plain"'),
    ('a"b\\c', '"a\\"b\\\\c"'),
    ("\a\b\f\n\r\t\v", '"\\a\\b\\f\\n\\r\\t\\v"'),
    ("\x00\x1f\x7f", '"\\x00\\x1f\\x7f"'),
    ("héllo ☃ 😀", '"héllo ☃ 😀"'),
    ("\u00a0\u200b\u2028", '"\\u00a0\\u200b\\u2028"'),
    ("\U000e0001", '"\\U000e0001"'),
    ("\udcff", '"\\ufffd"'),
])
def test_quote_is_strconv_quote(text: str, quoted: str) -> None:
    assert quote(text) == quoted


def test_quote_rune() -> None:
    assert [quote_rune(c) for c in ("x", "'", '"', "\n", "\x01")] == [
        "'x'", "'\\''", "'\"'", "'\\n'", "'\\x01'"]


@pytest.mark.parametrize(("text", "ns"), [
    ("0", 0), ("+0", 0), ("1h30m", 90 * 60 * SECOND), ("-1.5s", -1500 * MILLISECOND),
    ("300ms", 300 * MILLISECOND), ("1μs", 1000), ("1µs", 1000), ("2us", 2000), ("7ns", 7),
    (".5s", 500 * MILLISECOND), ("1.s", SECOND), ("1h1m1s1ms1us1ns", 3_661_001_001_001),
])
def test_parse_duration(text: str, ns: int) -> None:
    assert parse_duration(text) == ns


@pytest.mark.parametrize(("text", "message"), [
    ("", 'time: invalid duration ""'),
    ("-", 'time: invalid duration "-"'),
    (".", 'time: invalid duration "."'),
    ("5", 'time: missing unit in duration "5"'),
    ("5d", 'time: unknown unit "d" in duration "5d"'),
    ("s", 'time: invalid duration "s"'),
    ("9999999999h", 'time: invalid duration "9999999999h"'),
])
def test_parse_duration_errors_are_gos(text: str, message: str) -> None:
    with pytest.raises(DurationError) as info:
        parse_duration(text)
    assert str(info.value) == message


@pytest.mark.parametrize(("ns", "text"), [
    (0, "0s"), (1, "1ns"), (1500, "1.5µs"), (300 * MILLISECOND, "300ms"), (SECOND, "1s"),
    (1500 * MILLISECOND, "1.5s"), (60 * SECOND, "1m0s"), (3725 * SECOND, "1h2m5s"),
    (-2 * SECOND, "-2s"), (36 * 3600 * SECOND, "36h0m0s"),
])
def test_format_duration_is_duration_string(ns: int, text: str) -> None:
    assert format_duration(ns) == text
    assert parse_duration(text) == ns


def test_parse_seconds() -> None:
    assert parse_seconds("1m30s") == 90.0 and parse_seconds("500ms") == 0.5


def test_levenshtein_and_suggestion() -> None:
    assert distance("kitten", "sitting") == 3 and distance("", "abc") == 3
    assert distance("same", "same") == 0
    assert name_suggestion("coutn", ["for_each", "count"]) == "count"
    assert name_suggestion("zzzzz", ["count"]) == ""
    assert name_suggestion("cont", ["cont1", "count"]) == "cont1"  # the first one wins
