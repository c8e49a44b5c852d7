"""Evaluation errors rendered for people: `apply -no-color` output must equal terraform's.

Each case is an output expression that fails; the whole rendered error (summary, the
`on main.tf line N, in output "o":` line, the source line, the value lines and the wrapped
detail) must be the same text terraform prints.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

from tests.conformance.harness import Run, run_groundplan, run_terraform

LOCALS = """\
locals {
  t = "a"
  n = 1
  l = ["x", "y"]
  m = { k = "v" }
  f = "$${file(\\"x\\")}"
  g = "$${nope}"
}
"""

CASES = [
    'templatestring("x", {})',
    'templatestring("${local.t}", {})',
    'templatestring("a${local.t}", {})',
    "templatestring(upper(local.t), {})",
    "templatestring(local.f, {})",
    'templatestring(local.t, {"a b" = 1})',
    "templatestring(local.t, 1)",
    "templatestring(local.n, {})",
    "templatestring(local.g, {})",
    "upper(local.n, 2)",
    "upper([local.n])",
    "local.n + local.t",
    "local.l[5]",
    "local.m.nope",
    'local.m["nope"]',
    "nosuch(local.n)",
    'join(",", local.n)',
    '"a${local.l}"',
    "local.t ? 1 : 2",
    "[for x in local.n : x]",
    "element(local.l, local.t)",
    "tonumber(local.t)",
    'cidrsubnet("10.0.0.0/8", 30, local.n)',
    "-local.t",
]


def _error_text(run: Run) -> str:
    text = run.stdout + run.stderr
    match = re.search(r"^Error: .*", text, re.S | re.M)
    assert match, f"no error reported (exit {run.code}): {text[-500:]}"
    return match.group(0).strip()


@pytest.mark.parametrize("expr", CASES)
def test_rendered_error_matches_terraform(expr: str) -> None:
    with tempfile.TemporaryDirectory(prefix="gp-render-") as tmp:
        work = Path(tmp)
        (work / "main.tf").write_text(LOCALS + f'output "o" {{\n  value = {expr}\n}}\n')
        expected = run_terraform(work, "apply", "-auto-approve", "-no-color")
        actual = run_groundplan(work, "apply", "-auto-approve", "-no-color")
    assert actual.code == expected.code == 1
    assert _error_text(actual) == _error_text(expected)
