"""Deeply nested input does not crash: side by side with terraform.

2,000 nested parentheses, lists, objects, conditionals and templates, and a 10,000-term flat
chain `1 + 1 + ...`, as an output's value: `validate` (which evaluates the output) and `fmt`
(`fmt -check`'s verdict and `fmt -`'s text) give terraform's results. Input far deeper than
any stack holds (300,000 parentheses) is a clear error, not a crash.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.harness import run_groundplan, run_terraform

pytestmark = pytest.mark.slow

N = 2000
CASES = {
    "parentheses": "(" * N + "1" + ")" * N,
    "lists": "[" * N + "1" + "]" * N,
    "objects": "{a = " * N + "1" + "}" * N,
    "conditionals": "true ? " * N + "1" + " : 0" * N,
    "templates": '"' + '${"' * N + "x" + '"}' * N + '"',
    "flat_chain": " + ".join(["1"] * 10000),
}


def _config(expr: str) -> str:
    return f'output "o" {{\n  value = {expr}\n}}\n'


@pytest.mark.parametrize("name", sorted(CASES))
def test_deep_input_as_terraform(name: str, tmp_path: Path) -> None:
    text = _config(CASES[name])
    results = []
    for tool, run in (("tf", run_terraform), ("gp", run_groundplan)):
        work = tmp_path / tool
        work.mkdir()
        (work / "main.tf").write_text(text, encoding="utf-8")
        validate = run(work, "validate", "-no-color", timeout=600)
        check = run(work, "fmt", "-check", timeout=600)
        formatted = run(work, "fmt", "-", stdin=text, timeout=600)
        results.append((validate.code, validate.stdout, check.code, check.stdout,
                        formatted.code, formatted.stdout))
    assert results[1] == results[0]
    assert results[0][0] == 0


def test_beyond_any_stack_is_a_clear_error(tmp_path: Path) -> None:
    depth = 300_000
    (tmp_path / "main.tf").write_text(_config("(" * depth + "1" + ")" * depth))
    res = run_groundplan(tmp_path, "validate", "-no-color", timeout=600)
    assert res.code == 1
    assert "Error: Configuration nested too deeply" in res.stdout + res.stderr
    assert "crashed" not in res.stdout + res.stderr
