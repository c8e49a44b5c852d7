"""What a configuration requires of providers, side by side with terraform 1.11.

The same configuration goes through `init`, `validate` and `plan` of both tools (human output,
terraform's through the product-name substitution), and what a person sees must be equal:

- an import block naming a `provider` while its target resource is declared without one, or
  with another one: terraform's "Invalid import provider argument" at the block's `provider`
  argument, from init (which stops before installing anything), validate, and plan (inside
  "Inconsistent dependency lock file");
- several providers missing: validate's "Missing required provider" errors, in terraform's
  order (by address), and plan's "Inconsistent dependency lock file" list.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conformance.harness import Run, run_groundplan, run_terraform, shown_json_diagnostics

pytestmark = pytest.mark.slow

IMPORT_PROVIDER = """provider "terraform" {
  alias = "x"
}

import {
  to       = terraform_data.a
  id       = "x"
  provider = terraform.x
}

resource "terraform_data" "a" {}

import {
  to       = terraform_data.b
  id       = "x"
  provider = terraform.x
}

resource "terraform_data" "b" {
  provider = terraform
}

import {
  to       = terraform_data.c
  id       = "x"
  provider = terraform.x
}

resource "terraform_data" "c" {
  provider = terraform.x
}
"""

MISSING_PROVIDERS = """terraform {
  required_providers {
    zzz = { source = "example.com/x/zzz" }
    yyy = { source = "example.com/a/yyy" }
    mmm = { source = "b.example.com/x/mmm" }
  }
}

resource "aaa_thing" "a" {}

resource "terraform_data" "b" {
  provider = qqq
}
"""

CASES = {"import_provider": IMPORT_PROVIDER, "missing_providers": MISSING_PROVIDERS}


def _shown(run: Run, terraform: bool) -> tuple[int, Any, str]:
    """The harness's shown_json_diagnostics."""
    return shown_json_diagnostics(run, terraform)


def _runs(tool: str, work: Path, config: str, *commands: tuple[str, ...]) -> list[tuple[int, Any, str]]:
    work.mkdir(parents=True)
    (work / "main.tf").write_text(config, encoding="utf-8")
    run = run_terraform if tool == "terraform" else run_groundplan
    return [_shown(run(work, *args), tool == "terraform") for args in commands]


COMMANDS = {
    "import_provider": (("init", "-no-color", "-backend=false"), ("init", "-no-color"),
                        ("validate", "-no-color"), ("validate", "-json"), ("plan", "-no-color")),
    "missing_providers": (("validate", "-no-color"), ("validate", "-json"),
                          ("plan", "-no-color")),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_terraform(name: str, tmp_path: Path) -> None:
    want = _runs("terraform", tmp_path / "tf", CASES[name], *COMMANDS[name])
    got = _runs("groundplan", tmp_path / "gp", CASES[name], *COMMANDS[name])
    assert got == want


def test_the_oracle_reports_the_problems(tmp_path: Path) -> None:
    """terraform's own verdicts, so the comparison above cannot pass on two empty outputs."""
    imp = _runs("terraform", tmp_path / "imp", IMPORT_PROVIDER, ("validate", "-no-color"))[0]
    assert imp[0] == 1 and imp[2].count("Invalid import provider argument") == 2
    assert "on main.tf line 8, in import:" in imp[2] and "line 16" in imp[2]
    missing = _runs("terraform", tmp_path / "mp", MISSING_PROVIDERS, ("validate", "-no-color"))[0]
    order = [line.split()[4].rstrip(",") for line in missing[2].splitlines()
             if line.startswith("This configuration requires provider")]
    assert order == sorted(order) and len(order) == 5
