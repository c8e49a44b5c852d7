"""Encoding functions (base64, gzip, JSON, CSV, URL, IANA text, YAML). Every expected value and
message below was produced by the real terraform v1.11.4 (`terraform console`)."""

from __future__ import annotations

import pytest

from engine.lang import EvalContext
from engine.lang.functions import function_table
from engine.lang.functions.encoding import go_base64_error_offset, gzip_go
from engine.values import STRING
from tests.unit.lang.helpers import default_vars, only_error, show, value


def fctx() -> EvalContext:
    return EvalContext(default_vars(), function_table("."))


CASES = [
    ('base64encode("é")', '"w6k="'),
    ('base64decode("SGVsbG8sIFdvcmxkIQ==")', '"Hello, World!"'),
    ('base64decode("SGVs\\nbG8=")', '"Hello"'),
    ('base64gzip("hello")', '"H4sIAAAAAAAA/8pIzcnJBwAAAP//AQAA//+GphA2BQAAAA=="'),
    ('urlencode("a b/c?d=é~*\'()!")', '"a+b%2Fc%3Fd%3D%C3%A9~%2A%27%28%29%21"'),
    ('textencodebase64("Hello", "UTF-16LE")', '"SABlAGwAbABvAA=="'),
    ('textencodebase64("Hello", "UTF-16")', '"/v8ASABlAGwAbABv"'),
    ('textencodebase64("你好", "GBK")', '"xOO6ww=="'),
    ('textencodebase64("Hello", "latin1")', '"SGVsbG8="'),
    ('textdecodebase64("SABlAGwAbABvAA==", "UTF-16LE")', '"Hello"'),
    ('jsonencode({"b"="<a>&", a=[1, 2.5, true, null], c=1e30, d=0.1})',
     '"{\\"a\\":[1,2.5,true,null],\\"b\\":\\"\\\\u003ca\\\\u003e\\\\u0026\\",\\"c\\":1000000000000000000000000000000,\\"d\\":0.1}"'),
    ('jsonencode(toset(["b","a"]))', '"[\\"a\\",\\"b\\"]"'),
    ('jsonencode(tolist([]))', '"[]"'),
    ('jsonencode(null)', '"null"'),
    ('jsondecode("{\\"a\\":1,\\"a\\":2}")', '{\n  "a" = 2\n}'),
    ('jsondecode("[1, 2.50, -0, 1E2]")', '[\n  1,\n  2.5,\n  -0,\n  100,\n]'),
    ('csvdecode("a,b\\n\\"x,1\\",\\"y\\"\\"z\\"\\n")',
     'tolist([\n  {\n    "a" = "x,1"\n    "b" = "y\\"z"\n  },\n])'),
    ('csvdecode("a,b\\n")', "tolist([])"),
    ('csvdecode("a,b\\r\\n1,2\\r\\n")', 'tolist([\n  {\n    "a" = "1"\n    "b" = "2"\n  },\n])'),
    ('yamldecode("a: 1\\nb: [1, x]\\nc: ~\\nd: 2020-01-01")',
     '{\n  "a" = 1\n  "b" = [\n    1,\n    "x",\n  ]\n  "c" = null\n  "d" = "2020-01-01T00:00:00Z"\n}'),
    ('yamldecode("a: &x {b: 1}\\nc: *x")', '{\n  "a" = {\n    "b" = 1\n  }\n  "c" = {\n    "b" = 1\n  }\n}'),
    ('yamldecode("<<: {a: 1}\\nb: 2")', '{\n  "a" = 1\n  "b" = 2\n}'),
    ('yamldecode("[-0x1F, 0x1F, 0o17, 017, 1_000, Yes, off, \'1\', 2001-12-14t21:59:43.10-05:00]")',
     '[\n  "-0x1F",\n  31,\n  15,\n  17,\n  "1_000",\n  true,\n  false,\n  "1",\n  "2001-12-14T21:59:43-05:00",\n]'),
    ('yamlencode({a=1, b="x", c=[1,2], d={}, e=[], f=null, i="multi\\nline\\n", k=""})',
     '<<EOT\n"a": 1\n"b": "x"\n"c":\n- 1\n- 2\n"d": {}\n"e": []\n"f": null\n"i": |\n  multi\n  line\n"k": ""\n\nEOT'),
    ('yamlencode(1)', "<<EOT\n1\n...\n\nEOT"),
    ('yamlencode({a="  leading\\nx"})', '<<EOT\n"a": |2-\n    leading\n  x\n\nEOT'),
    ('yamlencode(["tab\\there\\nnl", "trailing \\n"])', '<<EOT\n- "tab\\there\\nnl"\n- "trailing \\n"\n\nEOT'),
]


@pytest.mark.parametrize(("src", "want"), CASES)
def test_encoding_values(src: str, want: str) -> None:
    assert show(src, fctx()) == want


def test_yamlencode_folds_long_double_quoted_strings_like_go_yaml() -> None:
    words = " ".join(["long"] * 24)
    got = value(f'yamlencode(["{words}"])', fctx()).v
    assert got == (
        '- "long long long long long long long long long long long long long long long long\n'
        '  long long long long long long long long"\n'
    )


ERRORS = [
    ('base64decode("aGVsbG8")', "Error in function call",
     'Call to function "base64decode" failed: failed to decode base64 data "aGVsbG8".'),
    ('base64decode("/w==")', "Error in function call",
     'Call to function "base64decode" failed: the result of decoding the provided string is not valid UTF-8.'),
    ('base64decode(var.secret)', "Error in function call",
     'Call to function "base64decode" failed: failed to decode base64 data (sensitive value).'),
    ('textencodebase64("Hello", "utf16")', "Invalid function argument",
     'Invalid value for "encoding" parameter: "utf16" is not a supported IANA encoding name or alias in this Terraform version.'),
    ('textdecodebase64("//79", "UTF-8")', "Invalid function argument",
     'Invalid value for "source" parameter: the given string contains symbols that are not defined for UTF-8.'),
    ('textdecodebase64("YQ=", "UTF-8")', "Invalid function argument",
     'Invalid value for "source" parameter: the given value is has an invalid base64 symbol at offset 3.'),
    ('jsondecode("[1,")', "Error in function call", 'Call to function "jsondecode" failed: EOF.'),
    ('jsondecode("nul")', "Error in function call", 'Call to function "jsondecode" failed: unexpected EOF.'),
    ('jsondecode(" 1 2")', "Error in function call",
     'Call to function "jsondecode" failed: extraneous data after JSON object.'),
    ('jsondecode("{\\"a\\": tru}")', "Error in function call",
     "Call to function \"jsondecode\" failed: invalid character '}' in literal true (expecting 'e')."),
    ('jsondecode("{\\"a\\" 1}")', "Error in function call",
     "Call to function \"jsondecode\" failed: invalid character '1' after object key."),
    ('jsondecode("[1 2]")', "Error in function call",
     "Call to function \"jsondecode\" failed: invalid character '2' after array element."),
    ('jsondecode("{\\"a\\":1,}")', "Error in function call",
     "Call to function \"jsondecode\" failed: invalid character '}' looking for beginning of object key string."),
    ('csvdecode("a,b\\n1,2\\n3")', "Error in function call",
     'Call to function "csvdecode" failed: CSV parse error on line 3: wrong number of fields.'),
    ('csvdecode("")', "Error in function call", 'Call to function "csvdecode" failed: missing header line.'),
    ('csvdecode("a,a\\n1,2")', "Error in function call",
     'Call to function "csvdecode" failed: duplicate column name "a".'),
    ('csvdecode("a\\n\\"x")', "Error in function call",
     'Call to function "csvdecode" failed: CSV parse error on line 2: extraneous or missing " in quoted-field.'),
    ('csvdecode("a\\nx\\"y")', "Error in function call",
     'Call to function "csvdecode" failed: CSV parse error on line 2: bare " in non-quoted-field.'),
    ('yamldecode("")', "Error in function call",
     'Call to function "yamldecode" failed: on line 1, column 1: missing start of document.'),
    ('yamldecode("{~: a}")', "Error in function call",
     'Call to function "yamldecode" failed: mapping key cannot be null.'),
    ('yamldecode("a: *b")', "Error in function call",
     'Call to function "yamldecode" failed: reference to undefined anchor "b".'),
    ('yamldecode("&a [*a]")', "Error in function call",
     'Call to function "yamldecode" failed: cannot refer to anchor "a" from inside its own definition.'),
    ('yamldecode(".nan")', "Error in function call",
     'Call to function "yamldecode" failed: floating point NaN is not supported.'),
    ('yamldecode("!!int x")', "Error in function call",
     'Call to function "yamldecode" failed: cannot parse "x" as tag:yaml.org,2002:int.'),
]


@pytest.mark.parametrize(("src", "summary", "detail"), ERRORS)
def test_encoding_errors(src: str, summary: str, detail: str) -> None:
    d = only_error(src, fctx())
    assert (d.summary, d.detail) == (summary, detail)


def test_unknown_and_sensitive_propagate() -> None:
    c = fctx()
    assert show("base64encode(var.us)", c) == "(known after apply)"
    assert show('jsonencode({a = var.us})', c) == "(known after apply)"
    assert value('jsonencode({a = var.us})', c).type == STRING
    assert show("jsondecode(var.us)", c) == "(known after apply)"
    assert value("base64encode(var.secret)", c).is_sensitive
    # nested sensitive values make the whole encoding sensitive
    assert value('jsonencode({a = var.secret})', c).is_sensitive
    assert value('yamlencode([var.secret])', c).is_sensitive
    assert value("base64decode(base64encode(var.secret))", c).is_sensitive


def test_go_base64_offsets() -> None:
    assert go_base64_error_offset("YWJj") is None
    assert go_base64_error_offset("YW\r\nJj") is None
    assert go_base64_error_offset("YQ=") == 3
    assert go_base64_error_offset("YW Jj") == 2
    assert go_base64_error_offset("YWJ") == 0
    assert go_base64_error_offset("YQ==x") == 4


def test_gzip_matches_go_writer_framing() -> None:
    import gzip

    out = gzip_go(b"some text")
    assert out[:10] == b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    assert gzip.decompress(out) == b"some text"


def test_gzip_body_is_gos_deflate_for_repetitive_input() -> None:
    # terraform 1.11.4: base64gzip(join("", [for i in range(100) : "ab"]))
    assert show('base64gzip(join("", [for i in range(100) : "ab"]))', fctx()) == (
        '"H4sIAAAAAAAA/0pMGh4QAAAA//8BAAD///QtuoLIAAAA"'
    )
