"""Import blocks whose target is missing or does not fit, side by side with terraform 1.11.

Each case is a configuration run through `init -backend=false`, `validate` (human and
`-json`) and `plan` by both tools; exit codes and what a person reads must be equal
(terraform's output through the product-name substitution): the `for_each` import into a
module the configuration does not have (the only error, found while terraform builds its
graph), into a resource not configured (keys that cannot fit, configuration that cannot be
generated), into a module's resource that is not configured, into a configured resource whose
repetition the keys do not fit, with ids that refer to the target or are null, a `for_each`
that is not a collection, and one not known until apply.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conformance.harness import Run, run_groundplan, run_terraform, shown_json_diagnostics

pytestmark = pytest.mark.slow

LOCALS = 'locals {\n  ids = { a = "x", b = "y" }\n}\n\n'

CASES: dict[str, dict[str, str]] = {
    "module_missing": {"main.tf": LOCALS + """import {
  for_each = local.ids
  to       = terraform_data.nope[each.key]
  id       = each.value
}

import {
  for_each = toset(["p"])
  to       = module.m.terraform_data.r[each.key]
  id       = each.value
}

resource "terraform_data" "x" {
  input = local.nope
}
"""},
    "resource_missing": {"main.tf": LOCALS + """import {
  for_each = local.ids
  to       = terraform_data.nope[each.key]
  id       = each.value
}

import {
  for_each = [1]
  to       = terraform_data.other
  id       = "z"
}

import {
  to = terraform_data.keyed["k"]
  id = "k"
}
"""},
    "module_resource_missing": {
        "main.tf": LOCALS + """module "m" {
  source = "./m"
}

import {
  for_each = local.ids
  to       = module.m.terraform_data.nope[each.key]
  id       = each.value
}
""",
        "m/main.tf": 'resource "terraform_data" "here" {}\n',
    },
    "keys_do_not_fit": {"main.tf": LOCALS + """resource "terraform_data" "single" {}

resource "terraform_data" "counted" {
  count = 2
}

import {
  for_each = local.ids
  to       = terraform_data.single[each.key]
  id       = each.value
}

import {
  for_each = [0, 1]
  to       = terraform_data.counted[each.key]
  id       = "c"
}

import {
  for_each = local.ids
  to       = terraform_data.counted[each.key]
  id       = each.value
}
"""},
    "ids": {"main.tf": LOCALS + """resource "terraform_data" "a" {
  for_each = local.ids
}

import {
  for_each = local.ids
  to       = terraform_data.a[each.key]
  id       = terraform_data.a[each.key].id
}

resource "terraform_data" "b" {
  for_each = local.ids
}

import {
  for_each = { a = null }
  to       = terraform_data.b[each.key]
  id       = each.value
}

resource "terraform_data" "c" {
  for_each = local.ids
}

import {
  for_each = 3
  to       = terraform_data.c[each.key]
  id       = "x"
}
"""},
    "keys_not_expanded": {"main.tf": LOCALS + """resource "terraform_data" "a" {
  for_each = { a = 1 }
}

import {
  for_each = local.ids
  to       = terraform_data.a[each.key]
  id       = each.value
}
"""},
    "for_each_unknown_at_validate": {"main.tf": """variable "ids" {
  type    = map(string)
  default = { a = "x" }
}

resource "terraform_data" "a" {
  for_each = var.ids
}

import {
  for_each = var.ids
  to       = terraform_data.a[each.key]
  id       = each.value
}
"""},
}


def _shown(run: Run, terraform: bool) -> tuple[int, Any, str]:
    """The harness's shown_json_diagnostics, diagnostics sorted."""
    return shown_json_diagnostics(run, terraform, sort=True)


def _runs(tool: str, work: Path, files: dict[str, str]) -> list[tuple[int, Any, str]]:
    for rel, text in files.items():
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        (work / rel).write_text(text, encoding="utf-8")
    run = run_terraform if tool == "terraform" else run_groundplan
    out = [_shown(run(work, "init", "-no-color", "-backend=false"), tool == "terraform")]
    for args in (("validate", "-no-color"), ("validate", "-json"), ("plan", "-no-color")):
        out.append(_shown(run(work, *args), tool == "terraform"))
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_terraform(name: str, tmp_path: Path) -> None:
    want = _runs("terraform", tmp_path / "tf", CASES[name])
    got = _runs("groundplan", tmp_path / "gp", CASES[name])
    assert got == want


def test_the_oracle_rejects_them(tmp_path: Path) -> None:
    """terraform's verdicts, so the comparison cannot pass on outputs that are both empty."""
    codes = {name: _runs("terraform", tmp_path / name, files)[1][0]
             for name, files in CASES.items()
             if name not in ("for_each_unknown_at_validate", "keys_not_expanded")}
    assert set(codes.values()) == {1}
    only = _runs("terraform", tmp_path / "again", CASES["module_missing"])[1][2]
    assert only.count("Error: ") == 1 and "module.m.terraform_data.r" in only
