"""Syntax errors and tricky valid syntax, judged by `terraform validate -json` as the oracle.

Each invalid source must be rejected by both terraform and `engine.hcl.parse_file`, with the
same first error summary at the same start line and column. Each valid source must be
accepted by both. Syntax errors need no `terraform init`. terraform runs once per case, in
parallel, in a module-scoped fixture; when terraform is missing the tests fail loudly.
"""

from __future__ import annotations

import json
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from engine.hcl import parse_file
from tests.conformance.harness import require_terraform, run_terraform

L = "locals {\n"
E = "}\n"

INVALID: dict[str, str] = {
    "missing_newline": L + "  a = 1 b = 2\n" + E,
    "hex_number": L + "  a = 0x1F\n" + E,
    "comma_after_arg": "locals {\n  a = 1,\n  b = 2\n}\n",
    "single_line_two_args": 'resource "terraform_data" "x" { input = 1, triggers_replace = 2 }\n',
    "single_line_newline": 'resource "terraform_data" "x" { input = 1\n}\n',
    "single_line_nested_block": 'resource "terraform_data" "x" { lifecycle {} }\n',
    "arg_or_block_required": L + "  a\n" + E,
    "arg_number_name": L + "  1 = 2\n" + E,
    "quoted_arg_name": L + '  "a" = 1\n' + E,
    "obj_missing_separator": L + "  a = { x = 1 y = 2 }\n" + E,
    "obj_missing_value": L + "  a = { x }\n" + E,
    "obj_missing_kv": L + "  a = { x 1 }\n" + E,
    "multiline_string": L + '  a = "abc\n  def"\n' + E,
    "invalid_expression": L + "  a = )\n" + E,
    "attribute_redefined": L + "  a = 1\n  a = 2\n" + E,
    "unclosed_block": L + "  a = 1\n",
    "unclosed_nested": 'resource "terraform_data" "x" {\n  lifecycle {\n}\n',
    "invalid_character_backtick": L + "  a = `x`\n" + E,
    "invalid_character_semicolon": L + "  a = 1;\n" + E,
    "invalid_character_apostrophe": L + "  a = 'x'\n" + E,
    "invalid_character_other": L + "  a = 1 @ 2\n" + E,
    "unterminated_string_eof": L + '  a = "abc',
    "tuple_missing_separator": L + "  a = [1 2]\n" + E,
    "interp_extra_chars": L + '  a = "${x y}"\n' + E,
    "interp_colon": L + '  a = "${x:y}"\n' + E,
    "block_equals": 'locals "x" = {\n}\n',
    "index_missing_bracket": L + "  a = x[1\n  b = 2\n" + E,
    "block_newline_before_brace": "locals\n{\n}\n",
    "block_label_interp": 'resource "terraform_data" "${x}" {\n}\n',
    "block_bad_label": "resource terraform_data 1 {\n}\n",
    "comment_newline_between_labels": 'resource "terraform_data" # c\n "x" {\n}\n',
    "heredoc_unterminated": L + "  a = <<EOT\nfoo\n" + E,
    "heredoc_no_newline_eof": L + "  a = <<EOT\nfoo\nEOT",
    "missing_false_expr": L + "  a = true ? 1\n" + E,
    "unbalanced_parens": L + "  a = (1 + 2\n  b = 3\n" + E,
    "func_missing_comma": L + "  a = max(1 2)\n" + E,
    "func_unterminated": L + "  a = max(1, 2\n",
    "for_missing_in": L + "  a = [for x xs : x]\n" + E,
    "for_key_in_tuple": L + "  a = [for k, v in {} : k => v]\n" + E,
    "for_object_no_key": L + "  a = {for v in [] : v}\n" + E,
    "for_extra_chars": L + "  a = [for v in [] : v v]\n" + E,
    "attr_name_after_dot": L + "  a = x.[0]\n" + E,
    "legacy_index_chain": L + "  a = x.0.1\n" + E,
    "splat_missing_bracket": L + "  a = x[*.y\n" + E,
    "bitwise_and": L + "  a = true & false\n" + E,
    "bitwise_or": L + "  a = true | false\n" + E,
    "template_bad_keyword": L + '  a = "%{ iff true }x%{ endif }"\n' + E,
    "template_missing_endif": L + '  a = "%{ if true }x"\n' + E,
    "template_stray_endfor": L + '  a = "x%{ endfor }"\n' + E,
    "bad_escape": L + '  a = "\\q"\n' + E,
    "short_unicode_escape": L + '  a = "\\u12"\n' + E,
    "number_dots": L + "  a = 1.2.3\n" + E,
    "missing_block_newline": 'terraform {\n} locals {\n}\n',
    "ellipsis_not_last": L + "  a = max([1]..., 2)\n" + E,
    "namespace_missing_name": L + "  a = provider::(1)\n" + E,
    "unterminated_tuple": L + "  a = [1,\n",
    "unterminated_object": L + "  a = {\n  b = 1\n",
    "object_bad_separator_eq": L + "  a = { b = 1 ; c = 2 }\n" + E,
    "directive_extra": L + '  a = "%{ else x }"\n' + E,
    "tab_then_bad": "locals {\n\ta = $\n}\n",
}

VALID: dict[str, str] = {
    "numbers": L + "  a = 1e3\n  b = 2E-5\n  c = 1.5e+3\n  d = 0.5\n" + E,
    "unary": L + "  a = !!true\n  b = - -1\n  c = -(1)\n" + E,
    "comments_everywhere": '# top\n/* x */ resource /* a */ "terraform_data" /* b */ "x" { // c\n'
    "  input = 1 # d\n  /* e */\n}\n",
    "unicode_ident": L + "  café = 1\n  b-c = 2\n  _x = 3\n" + E,
    "conditional_chain": L + "  a = true ? 1 : false ? 2 : 3\n" + E,
    "one_line_block": 'resource "terraform_data" "x" { input = 1 }\n',
    "empty_one_line_block": 'resource "terraform_data" "x" {}\n',
    "object_newlines_and_commas": L + "  a = {\n    x = 1, y = 2\n    z = 3,\n  }\n" + E,
    "object_colon": L + '  a = { "k": 1, k2: 2 }\n' + E,
    "paren_key": L + "  k = \"x\"\n  a = { (local.k) = 1 }\n" + E,
    "function_multiline": L + "  a = max(\n    1,\n    2,\n  )\n" + E,
    "expand_args": L + "  a = max([1, 2]...)\n" + E,
    "provider_function_syntax": L + "  a = [for x in [] : x]\n" + E,
    "for_object_group": L + '  a = {for k, v in {a = 1} : v => k... if k != ""}\n' + E,
    "splats": L + "  l = [{ a = 1 }]\n  a = local.l[*].a\n  b = local.l.*.a\n  c = local.l.0.a\n" + E,
    "heredocs": L + "  a = <<EOT\n  ${1 + 1} text\n  %{if true}yes%{endif}\nEOT\n"
    "  b = <<-EOT\n    indented\n      more\n    EOT\n" + E,
    "template_strip": L + '  a = "x %{ if true ~} y %{~ endif ~} z"\n' + E,
    "escapes": L + '  a = "\\n\\t\\"\\\\ \\u00e9 $${x} %%{y}"\n' + E,
    "newlines_in_brackets": L + "  a = [\n    1,\n    2\n  ]\n  b = (\n    1 +\n    2\n  )\n" + E,
    "labels_ident": "resource terraform_data x {\n}\n",
    "crlf_line_endings": "locals {\r\n  a = 1\r\n  b = <<EOT\r\nx\r\nEOT\r\n}\r\n",
    "tabs_as_space": "locals {\n\ta = 1\n}\n",
    "index_and_ops": L + "  l = [1, 2]\n  a = local.l[0] + local.l[1] * 2 % 3 == 2 || false && true\n" + E,
}


def _terraform_result(source: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as d:
        Path(d, "main.tf").write_text(source, encoding="utf-8")
        run = run_terraform(Path(d), "validate", "-json", "-no-color")
        result: dict[str, Any] = json.loads(run.stdout)
        return result


@pytest.fixture(scope="module")
def oracle() -> dict[str, dict[str, Any]]:
    require_terraform()
    cases = {**{"i:" + k: v for k, v in INVALID.items()}, **{"v:" + k: v for k, v in VALID.items()}}
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = dict(zip(cases, pool.map(_terraform_result, cases.values())))
    return results


def _first_error(result: dict[str, Any]) -> dict[str, Any]:
    return next(d for d in result["diagnostics"] if d["severity"] == "error")


@pytest.mark.conformance
@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_syntax_matches_terraform(name: str, oracle: dict[str, dict[str, Any]]) -> None:
    source = INVALID[name]
    tf = oracle["i:" + name]
    assert tf["valid"] is False, f"terraform accepted {name!r}"
    want = _first_error(tf)
    _, diags = parse_file(source, "main.tf")
    assert diags.has_errors, f"groundplan accepted {name!r}; terraform said {want['summary']!r}"
    got = diags.errors[0]
    assert got.summary == want["summary"], (got.summary, got.detail, want)
    assert want.get("detail", "") == got.detail
    assert got.subject is not None
    start = want["range"]["start"]
    assert (got.subject.start.line, got.subject.start.column) == (start["line"], start["column"])


@pytest.mark.conformance
@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_syntax_matches_terraform(name: str, oracle: dict[str, dict[str, Any]]) -> None:
    tf = oracle["v:" + name]
    assert tf["valid"] is True, f"terraform rejected {name!r}: {tf['diagnostics']}"
    _, diags = parse_file(VALID[name], "main.tf")
    assert not diags.has_errors, [(d.summary, d.detail, str(d.subject)) for d in diags]
