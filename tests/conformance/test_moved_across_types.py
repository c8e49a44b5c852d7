"""`moved` blocks across resource types, side by side with terraform.

With our Python `null` provider (installed for both tools from a filesystem mirror), which
does not implement MoveResourceState, a move from `terraform_data` to `null_resource` is
refused ("Unsupported `moved` across resource types", at the block); the built-in provider
does implement it for `null_resource` -> `terraform_data`, which then plans as a move, applies
and leaves the same state. Each step's exit code, stdout and stderr are compared (ids
normalised), and the final states' resources.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from engine.plugin.sdk.package import package
from tests.conformance.harness import require_terraform
from tests.product_name import as_groundplan

REQUIRED = """\
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "3.2.3" }
  }
}
"""
ROOT = Path(__file__).resolve().parents[2]
_IDS = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{12,}")
_ELAPSED = re.compile(r"after \d+s")


def _norm(text: str) -> str:
    return _ELAPSED.sub("after Ns", _IDS.sub("<id>", text))


def _environ(tmp: Path) -> dict[str, str]:
    mirror = tmp / "mirror"
    package("null", "3.2.3", mirror)
    cli = tmp / "terraformrc"
    cli.write_text(
        "provider_installation {\n"
        f'  filesystem_mirror {{\n    path = "{mirror}"\n'
        '    include = ["registry.terraform.io/hashicorp/null"]\n  }\n'
        '  direct {\n    exclude = ["registry.terraform.io/hashicorp/null"]\n  }\n}\n')
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "PLUGIN_"))}
    env.update(TF_CLI_CONFIG_FILE=str(cli), TF_IN_AUTOMATION="1", CHECKPOINT_DISABLE="1")
    return env


def _run(tool: str, work: Path, env: dict[str, str], *args: str) -> tuple[int, str, str]:
    cmd = ["terraform"] if tool == "tf" else [sys.executable, "-m", "engine.cli.main"]
    run_env = env if tool == "tf" else {**env, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([*cmd, *args], cwd=work, env=run_env, text=True,
                          capture_output=True, timeout=300)
    if tool == "tf":  # the one product-name substitution (tests/product_name.py)
        return proc.returncode, _norm(as_groundplan(proc.stdout)), _norm(as_groundplan(proc.stderr))
    return proc.returncode, _norm(proc.stdout), _norm(proc.stderr)


def _resources(work: Path) -> object:
    doc = json.loads((work / "terraform.tfstate").read_text())
    return [(r["type"], r["name"], r["provider"],
             [sorted(i["attributes"]) for i in r["instances"]]) for r in doc["resources"]]


def _scenario(tmp: Path, before: str, after: str, steps: list[list[str]]) -> None:
    require_terraform()
    env = _environ(tmp)
    seen: dict[str, list[tuple[int, str, str]]] = {}
    for tool in ("tf", "gp"):
        work = tmp / tool
        work.mkdir()
        (work / "main.tf").write_text(REQUIRED + before)
        # the starting state is made by terraform in both directories
        for args in (["init", "-no-color"], ["apply", "-auto-approve", "-no-color"]):
            code, out, err = _run("tf", work, env, *args)
            assert code == 0, out + err
        (work / "main.tf").write_text(REQUIRED + after)
        seen[tool] = [_run(tool, work, env, *args) for args in steps]
    assert seen["gp"] == seen["tf"]
    assert _resources(tmp / "gp") == _resources(tmp / "tf")


def test_move_to_a_type_whose_provider_cannot_move_is_refused(tmp_path: Path) -> None:
    _scenario(tmp_path, 'resource "terraform_data" "a" {\n  input = "x"\n}\n',
              'moved {\n  from = terraform_data.a\n  to   = null_resource.b\n}\n\n'
              'resource "null_resource" "b" {}\n',
              [["plan", "-no-color"], ["apply", "-auto-approve", "-no-color"]])


def test_null_resource_moves_to_terraform_data(tmp_path: Path) -> None:
    _scenario(tmp_path, 'resource "null_resource" "a" {\n  triggers = { k = "v" }\n}\n',
              'moved {\n  from = null_resource.a\n  to   = terraform_data.b\n}\n\n'
              'resource "terraform_data" "b" {\n  triggers_replace = { k = "v" }\n}\n',
              [["plan", "-no-color"], ["apply", "-auto-approve", "-no-color"],
               ["plan", "-no-color", "-detailed-exitcode"]])
