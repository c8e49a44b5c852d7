"""String functions. Every expected value and message below was produced by the real
terraform v1.11.4 (`terraform console`); values are compared in the console's rendering."""

from __future__ import annotations

import pytest

from engine.lang.functions.strings_regex import RE2Error, compile_re2
from engine.source.graphemes import graphemes
from engine.values import STRING, ListType
from tests.unit.lang.helpers import only_error, show, value

CASES = [
    ('chomp("hello\\r\\n\\n")', '"hello"'),
    ('chomp("a\\nb")', '<<EOT\na\nb\nEOT'),
    ('endswith("hello world", "world")', "true"),
    ('startswith("hello", "x")', "false"),
    ('strcontains("hello world", "lo w")', "true"),
    ('indent(2, "a\\nb")', '<<EOT\na\n  b\nEOT'),
    ('join("-", ["a"], ["b", "c"])', '"a-b-c"'),
    ('join("", [])', '""'),
    ('lower("HeLLo")', '"hello"'),
    ('upper("hello ß ü")', '"HELLO ß Ü"'),
    ('title("hello world-foo_bar baz")', '"Hello World-Foo_bar Baz"'),
    ('trim("?!hello?!", "!?")', '"hello"'),
    ('trimprefix("helloworld", "hello")', '"world"'),
    ('trimsuffix("helloworld", "world")', '"hello"'),
    ('trimspace("  \\n\\thello \\t\\n")', '"hello"'),
    ('split(",", "a,b,,c")', 'tolist([\n  "a",\n  "b",\n  "",\n  "c",\n])'),
    ('split("", "ab")', 'tolist([\n  "a",\n  "b",\n])'),
    ('strrev("héllo")', '"olléh"'),
    ('substr("hello world", -5, 3)', '"wor"'),
    ('substr("hello", 0, -1)', '"hello"'),
    ('substr("hello", 10, 2)', '""'),
    ('substr("héllo wörld", 1, 4)', '"éllo"'),
    ('replace("hello world", "/o(.)/", "<$1>")', '"hell< >w<r>ld"'),
    ('replace("aaa", "/a*/", "-")', '"-"'),
    ('replace("baaab", "/a*/", "-")', '"-b-b-"'),
    ('replace("a.b.c", ".", "")', '"abc"'),
    ('regex("(\\\\d+)-(\\\\d+)", "tel: 555-1234")', '[\n  "555",\n  "1234",\n]'),
    ('regex("(?P<user>[^@]+)@(?P<domain>.+)", "me@example.com")',
     '{\n  "domain" = "example.com"\n  "user" = "me"\n}'),
    ('regex("(a)|(b)", "b")', '[\n  tostring(null),\n  "b",\n]'),
    ('regex("^(?i)HELLO", "hello there")', '"hello"'),
    ('regexall("a*", "baaab")', 'tolist([\n  "",\n  "aaa",\n  "",\n])'),
    ('regexall("x", "abc")', "tolist([])"),
    ('format("%5d|%-5d|%05d", 42, 42, 42)', '"   42|42   |00042"'),
    ('format("%+d|% d|%x|%X|%o|%b", 42, 42, 255, 255, 8, 5)', '"+42| 42|ff|FF|10|101"'),
    ('format("%e|%E|%g|%G|%.3g", 1234.5, 1234.5, 1234.5, 0.00001234, 1234.5)',
     '"1.234500e+03|1.234500E+03|1234.5|1.234E-05|1.23e+03"'),
    ('format("%v|%v|%v", 1234567, 0.1, true)', '"1.234567e+06|0.1|true"'),
    ('format("%#v", {b = 1, a = [true, null]})', '"{\\"a\\":[true,null],\\"b\\":1}"'),
    ('format("%.0f|%.0f|%.0f", 0.5, 1.5, 2.5)', '"0|2|2"'),
    ('format("%010.2f|%-010.2f|% 08.2f", -1/0, 3.14159, 3.14159)',
     '"      -Inf|0000003.14| 0003.14"'),
    ('format("%.0d|%.3d|%8.3d|%-#8x|%+.1e", 0, 7, -7, 255, 0)', '"|007|    -007|0xff    |+0.0e+00"'),
    ('format("%.2s|%5.1s|", "日本語", "日本語")', '"日本|    日|"'),
    ('format("%#v|%q", "<a&b>", "a\\nb")', '"\\"\\\\u003ca\\\\u0026b\\\\u003e\\"|\\"a\\\\nb\\""'),
    ('format("%-05s|%-5v|%05v", "ab", 1, 1)', '"ab000|1    |00001"'),
    ('format("%v", tostring(null))', '"null"'),
    ('formatlist("%s-%d", ["a", "b"], 1)', 'tolist([\n  "a-1",\n  "b-1",\n])'),
    ('formatlist("%s", toset(["b", "a"]))', 'tolist([\n  "a",\n  "b",\n])'),
    ('formatlist("x")', 'tolist([\n  "x",\n])'),
]


@pytest.mark.parametrize(("src", "want"), CASES)
def test_string_function_values(src: str, want: str) -> None:
    assert show(src) == want


ERRORS = [
    ('format("%[2]s %s %[1]s", "a", "b")', "Error in function call",
     'Call to function "format" failed: not enough arguments for "%s" at 6: need index 3 but have 2 total.'),
    ('format("%d", 1.5)', "Error in function call",
     'Call to function "format" failed: unsupported value for "%d" at 0: an integer is required.'),
    ('format("%z", 1)', "Error in function call",
     "Call to function \"format\" failed: unsupported format verb 'z' in \"%z\" at offset 0."),
    ('format("a\\u00e9%!")', "Error in function call",
     "Call to function \"format\" failed: unrecognized format character '!' at offset 4."),
    ('format("100%")', "Error in function call",
     'Call to function "format" failed: invalid format string starting at offset 4.'),
    ('format("%s", tostring(null))', "Error in function call",
     'Call to function "format" failed: unsupported value for "%s" at 0: null value cannot be formatted.'),
    ('format("%t", "x")', "Error in function call",
     'Call to function "format" failed: unsupported value for "%t" at 0: a bool is required.'),
    ('formatlist("%s-%s", ["a", "b"], ["c"])', "Invalid function argument",
     'Invalid value for "args" parameter: argument 2 has length 1, which is inconsistent with argument 1 of length 2.'),
    ('formatlist("%d", ["a"])', "Error in function call",
     'Call to function "formatlist" failed: error on format iteration 0: unsupported value for "%d" at 0: a number is required.'),
    ('regex("a(?=b)", "ab")', "Invalid function argument",
     'Invalid value for "pattern" parameter: invalid regexp pattern: invalid or unsupported Perl syntax in (?=.'),
    ('regex("(?P<x>a)(b)", "ab")', "Invalid function argument",
     'Invalid value for "pattern" parameter: invalid regexp pattern: cannot mix both named and unnamed capture groups.'),
    ('regex("x", "a")', "Error in function call",
     'Call to function "regex" failed: pattern did not match any part of the given string.'),
    ('substr("abc", 1.5, 1)', "Error in function call",
     'Call to function "substr" failed: value must be a whole number, between -9223372036854775808 and 9223372036854775807.'),
    ('upper(null)', "Invalid function argument",
     'Invalid value for "str" parameter: argument must not be null.'),
]


@pytest.mark.parametrize(("src", "summary", "detail"), ERRORS)
def test_string_function_errors(src: str, summary: str, detail: str) -> None:
    d = only_error(src)
    assert (d.summary, d.detail) == (summary, detail)


def test_unknown_and_sensitive_propagate() -> None:
    assert show("upper(var.us)") == "(known after apply)"
    assert show("upper(var.secret)") == "(sensitive value)"
    assert value("upper(var.secret)").is_sensitive
    assert show('format("%s", var.secret)') == "(sensitive value)"
    assert show('join(",", [var.secret, "b"])') == "(sensitive value)"
    # formatlist keeps going past unknown elements: the list has a known length
    v = value('formatlist("%s", ["a", var.us])')
    assert v.type == ListType(STRING) and v.v[0].v == "a" and not v.v[1].is_known
    # regex with an unknown pattern cannot know its result type
    assert not value("regex(var.us, \"a\")").is_known


def test_graphemes_and_re2_translation() -> None:
    assert graphemes("e\u0301x🇫🇷👍🏽\r\n") == ["e\u0301", "x", "🇫🇷", "👍🏽", "\r\n"]
    rx = compile_re2(r"\d+\s\w$").regex
    assert rx.search("12 a") and not rx.search("١٢ a") and not rx.search("12 a\n")
    with pytest.raises(RE2Error, match="invalid escape sequence in \\\\Z"):
        compile_re2(r"\Z")
    with pytest.raises(RE2Error, match="missing closing \\)"):
        compile_re2("(a")
