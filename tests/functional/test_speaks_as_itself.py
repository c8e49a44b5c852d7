"""groundplan names itself in everything a person reads: every command's `-help`, the main
flows (init, validate, plan, apply, show, output, state, destroy) and their errors. No
"Terraform" outside the phrases about terraform itself (`tests.product_name.ALLOWED_PHRASES`)
and no "terraform <command>" advice. The configurations hold no such words, so everything the
test reads is groundplan's own text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli.cmd_state import SUBCOMMANDS as STATE_SUBCOMMANDS
from engine.cli.main import COMMANDS
from tests.conformance.harness import Run, run_groundplan
from tests.product_name import unnamed_mentions

WORKSPACE_SUBCOMMANDS = ("new", "list", "show", "select", "delete")

CONFIG = """\
resource "terraform_data" "a" {
  input = var.name
}

variable "name" {
  type    = string
  default = "first"
}

output "name" {
  value = terraform_data.a.output
}
"""


def _assert_speaks_as_itself(run: Run, what: str) -> None:
    text = run.stdout + run.stderr
    assert text.strip(), f"{what}: printed nothing"
    found = unnamed_mentions(text)
    assert not found, f"{what} still names terraform:\n" + "\n---\n".join(found)


@pytest.mark.parametrize("args", [
    *([name, "-help"] for name in sorted(COMMANDS)),
    *(["state", name, "-help"] for name in sorted(STATE_SUBCOMMANDS)),
    *(["workspace", name, "-help"] for name in WORKSPACE_SUBCOMMANDS),
    ["-help"], [], ["-help", "plan"],
], ids=lambda a: " ".join(a) or "no-args")
def test_help_names_groundplan(tmp_path: Path, args: list[str]) -> None:
    run = run_groundplan(tmp_path, *args)
    _assert_speaks_as_itself(run, " ".join(args) or "groundplan")


def test_main_flows_name_groundplan(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(CONFIG, encoding="utf-8")
    steps: list[tuple[list[str], int]] = [
        (["init", "-no-color"], 0),
        (["validate", "-no-color"], 0),
        (["plan", "-no-color"], 0),
        (["plan", "-no-color", "-out=p"], 0),
        (["apply", "-no-color", "p"], 0),
        (["show", "-no-color"], 0),
        (["output", "-no-color"], 0),
        (["state", "list"], 0),
        (["state", "show", "terraform_data.a"], 0),
        (["output", "nope"], 1),
        (["plan", "-no-color", "-var=name=second"], 0),
        (["apply", "-no-color", "-auto-approve", "-var=name=second"], 0),
        (["apply", "-no-color", "p"], 1),  # the saved plan is stale now
        (["plan", "-no-color", "-refresh-only"], 0),
        (["destroy", "-no-color", "-auto-approve"], 0),
        (["version"], 0),
        (["workspace", "new", "other"], 0),
        (["workspace", "delete", "default"], 1),
        (["state", "rm", "terraform_data.nope"], 1),
    ]
    for args, code in steps:
        run = run_groundplan(tmp_path, *args)
        assert run.code == code, (args, run)
        _assert_speaks_as_itself(run, " ".join(args))


@pytest.mark.parametrize("args", [
    ["plna"], ["bogus", "-x"], ["plan", "-bogus-flag"], ["apply", "-auto-approve", "nope.tfplan"],
    ["state", "mv"], ["import"], ["force-unlock"], ["taint"],
], ids=" ".join)
def test_command_errors_name_groundplan(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "main.tf").write_text(CONFIG, encoding="utf-8")
    run = run_groundplan(tmp_path, *args)
    assert run.code != 0, run
    _assert_speaks_as_itself(run, " ".join(args))


@pytest.mark.parametrize("config", [
    'resource "terraform_data" {\n}\n',
    'terraform {\n  required_version = "< 1.0"\n}\n',
    'module "m" {\n  source = "./nowhere"\n}\n',
    'resource "aws_s3_bucket" "b" {\n}\n',
    'output "o" {\n  value = nope.x\n}\n',
], ids=["missing-label", "required-version", "module-not-installed", "provider-not-installed",
        "bad-reference"])
def test_configuration_errors_name_groundplan(tmp_path: Path, config: str) -> None:
    (tmp_path / "main.tf").write_text(config, encoding="utf-8")
    for args in (["validate", "-no-color"], ["plan", "-no-color"]):
        run = run_groundplan(tmp_path, *args)
        assert run.code == 1, (args, run)
        _assert_speaks_as_itself(run, f"{' '.join(args)} on {config!r}")


def test_version_json_carries_both_versions(tmp_path: Path) -> None:
    (tmp_path / ".terraform.lock.hcl").write_text(
        'provider "registry.terraform.io/hashicorp/null" {\n  version = "3.2.1"\n}\n',
        encoding="utf-8")
    human = run_groundplan(tmp_path, "version")
    assert human.stdout.split("\n")[:2] == [
        "groundplan v0.1.0", "implementing the Terraform v1.11.4 language"]
    assert "+ provider registry.terraform.io/hashicorp/null v3.2.1" in human.stdout
    doc = json.loads(run_groundplan(tmp_path, "version", "-json").stdout)
    assert doc == {
        "terraform_version": "1.11.4",
        "platform": doc["platform"],
        "provider_selections": {"registry.terraform.io/hashicorp/null": "3.2.1"},
        "terraform_outdated": False,
        "groundplan_version": "0.1.0",
    }
