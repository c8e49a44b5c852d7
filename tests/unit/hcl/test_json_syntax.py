"""The JSON syntax's scanner, parser, bodies and positions (engine.hcl.json_*).

Expected values are what hashicorp/hcl v2.23 (terraform 1.11) gives; the conformance test
tests/conformance/test_json_syntax.py checks whole files against terraform itself.
"""

from __future__ import annotations

import pytest

from engine.diags import Diagnostic, error, terraform_order, to_json
from engine.diags.render import snippet_of
from engine.hcl import parse_json_file
from engine.hcl.ast import LiteralValueExpr, ObjectConsExpr, TupleConsExpr
from engine.hcl.json_body import attribute_as_blocks, deep_attrs, just_attributes
from engine.hcl.json_scan import INVALID, scan, token_range
from engine.hcl.json_syntax import decode_string, is_invalid, parse_json_value
from engine.source import EmbeddedSourceFile, FixedRange, JSONSourceFile, Pos, Range


def _kinds(text: str) -> list[tuple[str, str]]:
    toks = scan(JSONSourceFile("t.json", text))
    return [(k, text[s:e]) for k, s, e in zip(toks.kinds, toks.starts, toks.ends)]


def _diags(text: str) -> list[tuple[str, str]]:
    _, diags = parse_json_file(text, "x.tf.json")
    return [(d.summary, str(d.subject)) for d in diags]


# ------------------------------------------------------------------------------- scanner
def test_scanner_is_lax_about_numbers_keywords_and_strings() -> None:
    assert _kinds('{"a": -1.5e+3, "b": 0x1F tru_e "c\\"d"}') == [
        ("{", "{"), ("S", '"a"'), (":", ":"), ("N", "-1.5e+3"), (",", ","), ("S", '"b"'),
        (":", ":"), ("N", "0"), ("K", "x"), ("N", "1"), ("K", "F"), ("K", "tru_e"),
        ("S", '"c\\"d"'), ("}", "}"), ("E", ""),
    ]


def test_scanner_strings_end_at_a_control_character_or_the_end() -> None:
    # the tab ends the string and is whitespace; the closing quote opens another string
    assert _kinds('"ab\tc"') == [("S", '"ab'), ("K", "c"), ("S", '"'), ("E", "")]
    assert _kinds('"abc\\') == [("S", '"abc\\'), ("E", "")]
    assert _kinds('"abc\\\n') == [("S", '"abc\\'), ("E", "")]


def test_scanner_stops_after_an_invalid_character() -> None:
    assert _kinds("[1, @ 2]") == [("[", "["), ("N", "1"), (",", ","), ("I", "@"), ("E", "")]
    toks = scan(JSONSourceFile("t.json", "  \n "))
    assert toks.kinds == ["E"] and toks.starts == [4]


def test_invalid_token_is_one_byte_and_eof_one_byte_after_it() -> None:
    toks = scan(JSONSourceFile("t.json", "[1 \u00e9]"))
    assert toks.kinds[-2:] == [INVALID, "E"]
    bad = token_range(toks, len(toks.kinds) - 2)
    eof = token_range(toks, len(toks.kinds) - 1)
    assert isinstance(bad, FixedRange) and isinstance(eof, FixedRange)
    assert (bad.start.byte, bad.end.byte, bad.end.column) == (3, 4, 5)
    assert (eof.start.byte, eof.start.column) == (4, 5)


# ------------------------------------------------------------------------------ positions
def test_json_columns_count_tabs_twice_and_carriage_returns_not() -> None:
    f = JSONSourceFile("t.json", '{\t"a":\r\t1}')
    assert Range(f, 8, 9).start == Pos(1, 10, 8)


def test_json_columns_count_grapheme_clusters_in_strings() -> None:
    text = '{"a": "e\u0301\u0301\U0001F1EB\U0001F1F7", "b": 1}'
    f = JSONSourceFile("t.json", text)
    at = text.index('"b"')
    pos = Range(f, at, at).start
    assert (pos.column, pos.byte) == (1 + 7 + 2 + 3, len(text[:at].encode()))


def test_bytes_that_were_not_utf8_count_one_each() -> None:
    f = JSONSourceFile("t.json", '"\udcff" x')
    assert Range(f, 4, 5).start == Pos(1, 5, 4)


def test_embedded_text_is_positioned_from_its_base() -> None:
    outer = JSONSourceFile("t.json", "ignored")
    f = EmbeddedSourceFile("t.json", "ab\nc\u00e9d", outer, Pos(3, 10, 40))
    assert Range(f, 1, 1).start == Pos(3, 11, 41)
    assert Range(f, 6, 6).start == Pos(4, 4, 40 + 7)
    assert f.snippet_file() is outer


# --------------------------------------------------------------------------------- strings
@pytest.mark.parametrize(
    ("raw", "want"),
    [
        ('"abc"', "abc"),
        ('"a\\n\\u00e9\\/"', "a\n\u00e9/"),
        ('"\\ud83d\\ude00"', "\U0001F600"),
        ('"\\ud800x"', "\ufffdx"),  # unpaired surrogates: U+FFFD, as Go decodes them
        ('"\\udc00\\u0041"', "\ufffdA"),
        ('"h\udcffi"', "h\ufffdi"),  # a byte that was not UTF-8
        ('"\\q"', None),
        ('"\\u12"', None),
        ('"abc', None),
        ('"abc\\"', None),
        ('"', None),
    ],
)
def test_strings_decode_as_go_does(raw: str, want: str | None) -> None:
    assert decode_string(raw) == want


def test_string_error_is_at_gos_byte_offset() -> None:
    # Go reports the byte after the bad one; hcl adds it to the column too (in bytes)
    (d,) = parse_json_file('{"a": "\u00e9\\q"}', "x.tf.json")[1]
    assert d.summary == "Invalid JSON string"
    assert d.subject is not None and d.context is not None
    assert (d.subject.start.byte, d.subject.start.column) == (6 + 5, 7 + 5)
    assert str(d.context) == "x.tf.json:1,7-12"


# ---------------------------------------------------------------------------------- parser
@pytest.mark.parametrize(
    ("src", "want"),
    [
        ('{"a": 1,}', [("Trailing comma in object", "x.tf.json:1,8-9"),
                       ("Root value must be object", "x.tf.json:1,1-2")]),
        ('{"a" = 1}', [("Missing property value colon", "x.tf.json:1,6-7"),
                       ("Root value must be object", "x.tf.json:1,1-2")]),
        ('{"a", "b"}', [("Missing object value", "x.tf.json:1,5-6"),
                        ("Root value must be object", "x.tf.json:1,1-2")]),
        # after a missing comma, hcl skips to the closing brace and points past it
        ('{"a": 1 "b": 2}', [("Missing attribute seperator comma", "x.tf.json:1,16-16"),
                             ("Root value must be object", "x.tf.json:1,1-2")]),
        ('{"a": 1]', [("Mismatched braces", "x.tf.json:1,9-9"),
                      ("Root value must be object", "x.tf.json:1,1-2")]),
        ('{"a": 1', [("Unclosed object", "x.tf.json:1,1-2"),
                     ("Root value must be object", "x.tf.json:1,1-2")]),
        ('{1: 2}', [("Invalid object property name", "x.tf.json:1,2-3"),
                    ("Root value must be object", "x.tf.json:1,1-2")]),
        ('{"a": {1: 2}}', [("Invalid object property name", "x.tf.json:1,8-9"),
                           ("Missing attribute seperator comma", "x.tf.json:1,13-14"),
                           ("Root value must be object", "x.tf.json:1,1-2")]),
        ('[1, 2,]', [("Trailing comma in array", "x.tf.json:1,6-7"),
                     ("Root value must be object", "x.tf.json:1,1-2")]),
        ('[1: 2]', [("Invalid array value", "x.tf.json:1,7-7"),
                    ("Root value must be object", "x.tf.json:1,1-2")]),
        ('[1 2]', [("Missing attribute seperator comma", "x.tf.json:1,6-6"),
                   ("Root value must be object", "x.tf.json:1,1-2")]),
        ('{"a": [1}', [("Mismatched brackets", "x.tf.json:1,10-10"),
                       ("Unclosed object", "x.tf.json:1,1-2"),
                       ("Root value must be object", "x.tf.json:1,1-2")]),
        ('{"a": [1', [("Unclosed object", "x.tf.json:1,7-8"),
                      ("Unclosed object", "x.tf.json:1,1-2"),
                      ("Root value must be object", "x.tf.json:1,1-2")]),
        ('{"a": 01, "b": tru, "c": "\\x"}', [("Invalid JSON number", "x.tf.json:1,7-9"),
                                             ("Invalid JSON keyword", "x.tf.json:1,16-19"),
                                             ("Invalid JSON string", "x.tf.json:1,29-30")]),
        ("{} []", [("Extraneous data after value", "x.tf.json:1,4-5")]),
        ("", [("Missing value", "x.tf.json:1,1-1"), ("Root value must be object", "x.tf.json:1,1-1")]),
        ('"s"', [("Root value must be object", "x.tf.json:1,1-4")]),
    ],
)
def test_syntax_errors_as_hcl_reports_them(src: str, want: list[tuple[str, str]]) -> None:
    assert _diags(src) == want


def test_a_bad_value_is_invalid_and_parsing_goes_on() -> None:
    root, diags = parse_json_value(JSONSourceFile("x.tf.json", '{"a": tru, "b": 1}'))
    assert [d.summary for d in diags] == ["Invalid JSON keyword"]
    assert isinstance(root, ObjectConsExpr)
    a, b = (item.value for item in root.items)
    assert is_invalid(a) and str(a.range) == "x.tf.json:1,7-10"
    assert isinstance(b, LiteralValueExpr) and not is_invalid(b)


def _keys(src: str) -> list[str]:
    root, _ = parse_json_value(JSONSourceFile("x.tf.json", src))
    assert isinstance(root, ObjectConsExpr)
    return [item.key.wrapped.value.v for item in root.items]  # type: ignore[attr-defined]


def test_a_broken_object_is_skipped_to_its_end() -> None:
    # the missing colon makes "a"'s object invalid; parsing resumes after its closing brace
    root, diags = parse_json_value(JSONSourceFile("x.tf.json", '{"a": {"x" 1}, "b": 2}'))
    assert [d.summary for d in diags] == ["Missing property value colon"]
    assert isinstance(root, ObjectConsExpr) and is_invalid(root.items[0].value)
    assert _keys('{"a": {"x" 1}, "b": 2}') == ["a", "b"]
    # hcl's skipping stops one level early when the broken object holds another: its
    # closing brace then closes the enclosing object, and the rest is not read
    assert _keys('{"a": {"x" 1, "y": {"z": 2}}, "b": [3]}') == ["a"]


def test_a_root_that_is_no_object_leaves_an_empty_body() -> None:
    f, diags = parse_json_file('{"locals": {"a": 1}', "x.tf.json")
    assert diags.has_errors and f.body.attributes == {}


def test_keys_are_never_templates_but_values_are() -> None:
    f, diags = parse_json_file('{"${k}": "${v}"}', "x.tf.json")
    assert not diags
    attr = f.body.attributes["${k}"]
    assert not isinstance(attr.expr, LiteralValueExpr)


# ---------------------------------------------------------------------------------- bodies
def test_bodies_keep_every_property_in_order() -> None:
    f, _ = parse_json_file('[{"locals": {"a": 1}}, {"locals": {"b": 2}}, 3]', "x.tf.json")
    props, diags = deep_attrs(f.body)
    assert [p.name for p in props] == ["locals", "locals"]
    assert [d.detail for d in diags] == [
        "A JSON object is required here, to define arguments and child blocks."]
    assert list(f.body.attributes) == ["locals"]  # the first of each name


def test_blocks_unpack_labels_null_and_arrays() -> None:
    src = ('{"resource": {"t": {"a": {"x": 1}, "b": [{"y": 1}, {"z": 2}], "c": null}, '
           '"u": 5}, "module": {}}')
    f, _ = parse_json_file(src, "x.tf.json")
    props, _ = deep_attrs(f.body)
    blocks, diags = attribute_as_blocks(props[0], "resource", ("type", "name"))
    assert [(b.labels, list(b.body.attributes)) for b in blocks] == [
        (["t", "a"], ["x"]), (["t", "b"], ["y"]), (["t", "b"], ["z"])]
    assert [(d.summary, d.detail) for d in diags] == [
        ("Incorrect JSON value type", "Either a JSON object or JSON array of objects is "
         "required here, to specify name labels for this block."),
        ("Missing block label", "At least one object property is required, whose name "
         "represents the resource block's name."),
    ]
    _, diags = attribute_as_blocks(props[1], "module", ("name",))
    assert [d.summary for d in diags] == ["Missing block label"]


def test_just_attributes_reports_duplicates_and_non_objects() -> None:
    f, _ = parse_json_file('{"a": 1, "//": 0, "a": 2}', "x.tf.json")
    attrs, diags = just_attributes(f.body)
    assert list(attrs) == ["a"]
    assert [(d.summary, d.detail) for d in diags] == [
        ("Duplicate attribute definition", 'The argument "a" was already set at x.tf.json:1,2-8.')]
    f, _ = parse_json_file("[1]", "x.tf.json")
    _, diags = just_attributes(f.body)
    assert [d.detail for d in diags] == [
        "A JSON object is required here, setting the arguments for this block."]


def test_tuple_and_object_nodes_have_open_ranges() -> None:
    root, _ = parse_json_value(JSONSourceFile("x.tf.json", '[{"a": []}]'))
    assert isinstance(root, TupleConsExpr) and str(root.open_range) == "x.tf.json:1,1-2"


# ------------------------------------------------------------------------------- rendering
def test_context_is_the_path_to_the_innermost_object() -> None:
    src = '[{"locals": {}}, {"variable": {"x": {"typo": 1}}}]'
    f, _ = parse_json_file(src, "x.tf.json")
    at = src.index('"typo"')
    doc = to_json(error("E", "d", Range(f.source, at, at + 6)))
    assert doc["snippet"]["context"] == "[1].variable.x"


def test_snippet_lines_overlap_context_and_subject_in_bytes() -> None:
    text = 'a\n\n\u00e9 bc\nd\n'
    f, _ = parse_json_file(text, "x.tf.json")
    src = f.source
    diag = Diagnostic(error("E", "d", Range(src, 5, 7)).severity, "E", "d",
                      Range(src, 5, 7), Range(src, 0, 8))
    doc = to_json(diag)["snippet"]
    # an empty line overlaps nothing, so it is left out, while the highlight stays at
    # the subject's bytes counted from the first line: one byte late here (terraform's quirk)
    assert doc["code"] == "a\n\u00e9 bc\nd"
    assert doc["start_line"] == 1
    assert (doc["highlight_start_offset"], doc["highlight_end_offset"]) == (6, 8)
    snip = snippet_of(diag)
    assert snip is not None and snip.code[snip.highlight_start:snip.highlight_end] == "c\n"
    single = Diagnostic(diag.severity, "E", "d", Range(src, 5, 7))
    snip = snippet_of(single)
    assert snip is not None and snip.code[snip.highlight_start:snip.highlight_end] == "bc"
    assert to_json(single)["snippet"]["highlight_start_offset"] == len("\u00e9 ".encode())


def test_human_order_is_tfdiags_order() -> None:
    f, _ = parse_json_file('{"a": tru, "b": fals}', "x.tf.json")
    src = f.source
    late = error("late", "", Range(src, 16, 20))
    early = error("early", "", Range(src, 6, 9))
    sourceless = error("none", "")
    assert [d.summary for d in terraform_order([late, early, sourceless])] == [
        "none", "early", "late"]
