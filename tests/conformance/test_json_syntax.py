"""Broken (and tricky valid) `.tf.json` files, judged by terraform as the oracle.

Each case is a `main.tf.json` (bytes: some are not UTF-8), sometimes with other files beside
it. `validate -json` runs in both tools and the whole documents must be equal: every
diagnostic's summary, detail, range (line, column, byte) and snippet, in order, and the exit
code. That covers the recovery too: what terraform still reports from the rest of a broken
file (a property after a broken value, a typo in another block) and from the other files.
A few `terraform.tfvars.json` cases compare `plan -json`'s diagnostics. terraform runs once
per case, in parallel, in a module-scoped fixture; when it is missing the tests fail loudly.
"""

from __future__ import annotations

import json
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.conformance.harness import (
    require_terraform,
    run_groundplan,
    run_terraform,
    shown_json_diagnostics,
)

TYPO = '"variable": {"x": {"typo": 1}}'  # a decoding error that recovery must still reach


def _loc(body: str) -> bytes:
    """A file with one `locals` block holding `body`, and a later block with a typo."""
    return ('{"locals": {' + body + "}, " + TYPO + "}").encode()


# name -> main.tf.json, or (main.tf.json, {other file: contents})
CASES: dict[str, bytes | tuple[bytes, dict[str, bytes]]] = {
    # files that are not one object
    "empty_file": b"",
    "whitespace_only": b"  \n ",
    "string_root": b'"abc"',
    "number_root": b"12",
    "bare_word_root": b"locals",
    "top_level_array_of_non_objects": b'[1, {"locals": {}}]',
    "top_level_array_mixed": b'[{"locals": {"a": 1}}, null, {' + TYPO.encode() + b"}]",
    "extra_value_after": b"{} {}",
    "extra_word_after": b"{}x",
    "extra_nul_after": b'{"locals": {}}\x00',
    "byte_order_mark": b'\xef\xbb\xbf{"locals": {"a": 1}}',
    # strings
    "unterminated_string_eof": b'{"locals": {"a": "abc',
    "unterminated_string_newline": b'{"locals": {"a": "abc\n}}',
    "unterminated_string_backslash": b'{"locals": {"a": "abc\\',
    "bad_escape": _loc('"a": "x\\q"'),
    "bad_escape_after_multibyte": _loc('"a": "h\u00e9llo\\q"'),
    "bad_escape_multibyte_char": _loc('"a": "x\\\u00e9"'),
    "short_unicode_escape": _loc('"a": "\\u12"'),
    "bad_hex_in_unicode_escape": _loc('"a": "\\u12g4"'),
    # decoded values show in the message: an unpaired surrogate escape and invalid UTF-8
    # are U+FFFD, as Go decodes them; positions in an escaped template are hcl's (from
    # the opening quote, advancing over the decoded text: a "\n" escape starts a line)
    "lone_surrogate_escape": b'{"module": {"m": {"source": "\\ud800x"}}}',
    "surrogate_pair_escape": b'{"module": {"m": {"source": "\\ud83d\\ude00x"}}}',
    "invalid_utf8_decoded": b'{"module": {"m": {"source": "\xff\xfex"}}}',
    "reference_after_escape": b'{"locals": {"a": "${\\"\\ud800\\" == local.missing}"}}',
    "reference_after_newline_escape": b'{"locals": {"a": "x\\n\\ty${local.missing}"}}',
    "tab_in_string": b'{"locals": {"a": "a\tb"}}',
    "nul_in_string": b'{"locals": {"a": "a\x00b"}}',
    "invalid_utf8_in_string": (b'{"locals": {"a": "h\xffllo"}, '
                               + TYPO.encode() + b"}"),
    "invalid_utf8_outside_string": b'{"locals": {"a": 1 \xff}}',
    "multibyte_outside_string": '{"locals": {"a": 1 \u00e9}}'.encode(),
    "multibyte_as_value": '{"locals": {"a": \u00e9}}'.encode(),
    "single_quotes": b"{'locals': {}}",
    "template_syntax_error": b'{"locals": {"a": "${"}}',
    # numbers
    "leading_zero": _loc('"a": 01'),
    "negative_leading_zero": _loc('"a": -01'),
    "plus_sign": _loc('"a": +1'),
    "leading_dot": _loc('"a": .5'),
    "trailing_dot": _loc('"a": 1.'),
    "exponent_without_digits": _loc('"a": 1e'),
    "exponent_sign_only": _loc('"a": 1e+'),
    "minus_only": _loc('"a": -'),
    "hex_number": _loc('"a": 0x1F'),
    "number_then_letters": _loc('"a": 1abc'),
    "negative_infinity": _loc('"a": -Infinity'),
    # keywords
    "keyword_misspelled_in_attribute": b'{"variable": {"x": {"default": tru}}, "locals": {"a": fals}}',
    "keyword_as_block": b'{"variable": {"x": tru}}',
    "keyword_capitalised": _loc('"a": True'),
    "keyword_nul": _loc('"a": nul'),
    "keyword_nan": _loc('"a": NaN'),
    "keyword_undefined": _loc('"a": undefined'),
    "bare_word_value": _loc('"a": foo'),
    # objects
    "trailing_comma_object": b'{"a": 1,}',
    "trailing_comma_nested_object": b'{"locals": {"a": {"b": 1,}}, ' + TYPO.encode() + b"}",
    "missing_colon": _loc('"a" 1'),
    "equals_for_colon": _loc('"a" = 1'),
    "missing_comma_object": _loc('"a": 1 "b": 2'),
    "missing_object_value": _loc('"a", "b"'),
    "missing_value_before_brace": _loc('"a": '),
    "unquoted_key": b'{"locals": {a: 1}}',
    "number_key": b'{"locals": {1: 2}}',
    "object_key": b'{"locals": {{}: 2}}',
    "bad_string_key": b'{"locals": {"\\q": 2}, ' + TYPO.encode() + b"}",
    "unterminated_key": b'{"locals": {"abc',
    "eof_after_key": b'{"locals": {"a"',
    "eof_after_colon": b'{"locals": {"a":',
    "unclosed_object": b'{"locals": {"a": 1}',
    "object_closed_by_bracket": _loc('"a": 1]'),
    "leading_comma_object": b'{, "locals": {}}',
    "recovery_inside_object": _loc('"a": {"b" 1, "c": {"d": 2}}, "e": 3'),
    # arrays
    "trailing_comma_array": _loc('"a": [1, 2,]'),
    "missing_comma_array": _loc('"a": [1 2]'),
    "missing_comma_nested_arrays": _loc('"a": [[1] [2]]'),
    "colon_in_array": _loc('"a": [1: 2]'),
    "array_closed_by_brace": _loc('"a": [1, 2}'),
    "unclosed_array": b'{"locals": {"a": [1, 2',
    "missing_array_element": _loc('"a": [,]'),
    "equals_as_value": _loc('"a": ='),
    # comments are not JSON
    "line_comment": b'{\n// c\n"locals": {}}',
    "block_comment": b'{/* c */"locals": {}}',
    "hash_comment": b'{# c\n"locals": {}}',
    # positions: tabs count two columns, carriage returns none, graphemes one
    "tabs": b'{\t"locals":\t{"a":\ttru}}',
    "tab_before_bad_escape": '{\t"locals": {\t"a":\t"\u00e9\\z"}}'.encode(),
    "tab_then_control_in_string": b'{\t"locals": {\t"a": "\t"}}',
    "crlf_lines": (b'{\r\n  "locals": {\r\n    "a": 1,\r\n    "b": nul\r\n  },\r\n  '
                   + TYPO.encode() + b"\r\n}\r\n"),
    "combining_marks_before_error": '{"locals": {"a": "e\u0301\u0301x", "b": tru}}'.encode(),
    "emoji_before_error": ('{"locals": {"a": "\U0001F468\u200d\U0001F469\u200d\U0001F467 '
                           '\U0001F1EB\U0001F1F7", "b": tru}}').encode(),
    "long_line": ('{"locals": {' + ", ".join(f'"k{i}": {i}' for i in range(2000))
                  + ', "bad": tru}}').encode(),
    # several errors in one file, and errors in other files
    "several_value_errors": b'{"locals": {"a": tru, "b": "\\x", "c": 01}}',
    "broken_file_beside_native": (b'{"locals": {"a": [1 2]}}',
                                  {"other.tf": b'variable "y" {\n  typo = 1\n}\n'}),
    "broken_file_beside_json": (b'{"locals": {"a": tru}',
                                {"other.tf.json": b'{"output": {"o": {"valeu": 1}}}'}),
    # block structure
    "missing_block_label": b'{"resource": {"terraform_data": {}}}',
    "label_array_element_not_object": b'{"resource": {"terraform_data": [1]}}',
    "label_level_number": b'{"resource": {"terraform_data": 5}}',
    "locals_array_element_not_object": b'{"locals": [{"a": 1}, 2]}',
    "terraform_block_array_of_number": b'{"terraform": [1]}',
    "terraform_block_number": b'{"terraform": 1}',
    "module_without_source": b'{\n  "module": {\n    "m": {\n    }\n  }\n}\n',
    "duplicate_argument": (b'{\n  "variable": {\n    "x": {\n      "default": 1,\n'
                           b'      "default": [\n        2\n      ]\n    }\n  }\n}\n'),
    "duplicate_local": b'{"locals": {"a": 1, "a": 2}}',
    "extraneous_multiline_property": (b'{\n  "variable": {\n    "x": {\n      "typo": {\n'
                                      b'        "a": 1\n      }\n    }\n  }\n}\n'),
    # valid files that a stricter parser would reject
    "valid_duplicate_block_properties": b'{"locals": {"a": 1}, "locals": {"b": 2}}',
    "valid_root_array": b'[{"locals": {"a": 1}}, {"locals": {"b": 2}}]',
    "valid_empty_root_array": b"[]",
    "valid_null_blocks": b'{"locals": null, "variable": {"x": null}}',
    "valid_comment_properties": b'{"//": "comment", "locals": {"//": "c", "a": 1}}',
    "valid_deep_arrays": ('{"locals": {"a": ' + "[" * 3000 + "]" * 3000 + "}}").encode(),
    "valid_deep_objects": ('{"locals": {"a": ' + '{"b":' * 3000 + "1" + "}" * 3000 + "}}").encode(),
}

# name -> terraform.tfvars.json (beside a configuration declaring `a`)
TFVARS: dict[str, bytes] = {
    "tfvars_keyword": b'{"a": tru}',
    "tfvars_trailing_comma": b'{"a": 1,}',
    "tfvars_not_object": b"[1]",
    "tfvars_array_of_objects": b'[{"a": 1}]',
    "tfvars_duplicate": b'{"a": 1, "a": 2}',
    "tfvars_variable_block_and_error": b'{"variable": {"x": {}}, "a": tru}',
    "tfvars_invalid_utf8": b'{"a": "\xff", "b": 01}',
    "tfvars_empty": b"",
}
TFVARS_CONFIG = b'variable "a" {\n  default = 0\n}\n'


# cases whose human output (`validate -no-color`) is compared too: several diagnostics
# (terraform shows them sorted by position), non-ASCII lines, escaped templates, CRLF
HUMAN = (
    "missing_comma_object", "trailing_comma_array", "array_closed_by_brace", "unquoted_key",
    "several_value_errors", "broken_file_beside_native", "invalid_utf8_outside_string",
    "multibyte_as_value", "bad_escape_multibyte_char", "emoji_before_error", "crlf_lines",
    "lone_surrogate_escape", "invalid_utf8_decoded", "reference_after_newline_escape",
    "top_level_array_mixed",
    "duplicate_argument", "label_array_element_not_object",
)


def _files(case: bytes | tuple[bytes, dict[str, bytes]]) -> dict[str, bytes]:
    if isinstance(case, bytes):
        return {"main.tf.json": case}
    main, others = case
    return {"main.tf.json": main, **others}


def _validate(files: dict[str, bytes], terraform: bool) -> tuple[int, Any, str]:
    with tempfile.TemporaryDirectory() as d:
        for name, data in files.items():
            Path(d, name).write_bytes(data)
        run = (run_terraform if terraform else run_groundplan)(Path(d), "validate", "-json")
        return shown_json_diagnostics(run, terraform)


def _human(files: dict[str, bytes], terraform: bool) -> tuple[int, str, str]:
    with tempfile.TemporaryDirectory() as d:
        for name, data in files.items():
            Path(d, name).write_bytes(data)
        run = (run_terraform if terraform else run_groundplan)(Path(d), "validate", "-no-color")
        return run.code, run.stdout, run.stderr


def _plan_diagnostics(tfvars: bytes, terraform: bool) -> tuple[int, list[Any]]:
    with tempfile.TemporaryDirectory() as d:
        Path(d, "main.tf").write_bytes(TFVARS_CONFIG)
        Path(d, "terraform.tfvars.json").write_bytes(tfvars)
        run = (run_terraform if terraform else run_groundplan)(Path(d), "plan", "-json", "-input=false")
        diags = []
        for line in run.stdout.splitlines():
            msg = json.loads(line)
            if msg.get("type") == "diagnostic":
                diags.append(msg["diagnostic"])
        return run.code, diags


@pytest.fixture(scope="module")
def oracle() -> dict[str, Any]:
    require_terraform()
    with ThreadPoolExecutor(max_workers=6) as pool:
        validated = pool.map(lambda c: _validate(_files(c), True), CASES.values())
        planned = pool.map(lambda t: _plan_diagnostics(t, True), TFVARS.values())
        human = pool.map(lambda n: _human(_files(CASES[n]), True), HUMAN)
        return {**dict(zip(CASES, validated)), **dict(zip(TFVARS, planned)),
                **{"human:" + n: h for n, h in zip(HUMAN, human)}}


@pytest.mark.parametrize("name", sorted(CASES))
def test_json_config_diagnostics_match_terraform(name: str, oracle: dict[str, Any]) -> None:
    want = oracle[name]
    got = _validate(_files(CASES[name]), False)
    assert got[:2] == want[:2]
    if name.startswith("valid_"):
        assert want[0] == 0 and want[1]["valid"] is True
    else:
        assert want[1]["valid"] is False and want[1]["diagnostics"]


@pytest.mark.parametrize("name", HUMAN)
def test_json_config_human_output_matches_terraform(name: str, oracle: dict[str, Any]) -> None:
    want = oracle["human:" + name]
    assert _human(_files(CASES[name]), False) == want
    assert want[0] == 1 and "Error: " in want[2]


@pytest.mark.parametrize("name", sorted(TFVARS))
def test_json_tfvars_diagnostics_match_terraform(name: str, oracle: dict[str, Any]) -> None:
    want = oracle[name]
    got = _plan_diagnostics(TFVARS[name], False)
    assert got == want
    assert want[1], "terraform reported nothing: the case tests nothing"


def test_nesting_beyond_any_stack_is_a_clear_error(tmp_path: Path) -> None:
    depth = 300_000
    (tmp_path / "main.tf.json").write_text('{"locals": {"a": ' + "[" * depth + "]" * depth + "}}")
    res = run_groundplan(tmp_path, "validate", "-no-color", timeout=600)
    assert res.code == 1
    assert "Error: Configuration nested too deeply" in res.stdout + res.stderr
    assert "crashed" not in res.stdout + res.stderr
