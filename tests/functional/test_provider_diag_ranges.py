"""Provider diagnostics point at the configuration they are about, as terraform's do.

Our Python providers are packaged into a filesystem mirror so that terraform and groundplan run
the same configuration against the same provider processes; a provider rejects a value (with an
attribute path, or about the whole object) and both tools' errors are compared: the summary,
the `with ADDRESS,` line, `on FILE line N, in resource ...:`, the source line and what is
underlined (JSON ranges from `validate -json` and the `-json` UI)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.plugin.sdk.package import package
from tests.conformance.harness import Run, run_groundplan, run_terraform

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("terraform_required")]

REQUIRED = """\
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "3.6.3" }
    time   = { source = "hashicorp/time", version = "0.12.1" }
    local  = { source = "hashicorp/local", version = "2.5.2" }
  }
}
"""

# validate: an attribute the provider names (length), and a whole-object error in a module
VALIDATE = REQUIRED + """
resource "random_string" "s" {
  special = false
  length  = 0
}

module "m" {
  source = "./mod"
}
"""

MODULE = """\
resource "time_offset" "o" {
  base_rfc3339 = "2020-01-01T00:00:00Z"
}
"""

# plan: only one instance's evaluated value is rejected (the validate walk sees it unknown)
PLAN = REQUIRED + """
resource "random_string" "c" {
  count  = 2
  length = count.index == 0 ? 0 : 5
}
"""

# apply: ApplyResourceChange fails without an attribute path
APPLY = REQUIRED + """
resource "local_file" "f" {
  filename = "/proc/groundplan-nope/x"
  content  = "x"
}
"""


@pytest.fixture(scope="module")
def mirror(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("diagmirror")
    for name, version in {"random": "3.6.3", "time": "0.12.1", "local": "2.5.2"}.items():
        package(name, version, root)
    return root


def _workdirs(base: Path, mirror: Path, main: str, files: dict[str, str] | None = None
              ) -> tuple[Path, Path]:
    dirs = []
    for tool in ("tf", "gp"):
        d = base / tool
        (d / "mod").mkdir(parents=True)
        (d / "main.tf").write_text(main)
        for rel, text in (files or {}).items():
            (d / rel).write_text(text)
        dirs.append(d)
    tf, gp = dirs
    init = run_terraform(tf, "init", "-no-color", f"-plugin-dir={mirror}")
    assert init.code == 0, init.stdout + init.stderr
    init = run_groundplan(gp, "init", "-no-color", f"-plugin-dir={mirror}")
    assert init.code == 0, init.stdout + init.stderr
    return tf, gp


def _errors(run: Run) -> str:
    """The error blocks of a -no-color run (everything from the first `Error:` on)."""
    text = run.stdout + run.stderr
    at = text.find("\nError: ")
    assert at >= 0, text
    return text[at:]


def _blocks(text: str) -> list[str]:
    """The error blocks of a -no-color run, in a stable order (validate's walk is concurrent),
    each without trailing blank lines (terraform ends a diagnostic without a detail with one
    more blank line than groundplan's UI does: a known difference of engine/cli/ui.py)."""
    return sorted(b.rstrip("\n") for b in text.split("\nError: ") if b.strip())


def _json_diags(run: Run) -> list[dict[str, Any]]:
    out = []
    for line in run.stdout.splitlines():
        msg = json.loads(line)
        if msg.get("type") == "diagnostic":
            out.append(msg["diagnostic"])
    return out


def test_validate_json_points_at_the_argument_and_the_block(tmp_path: Path, mirror: Path) -> None:
    tf, gp = _workdirs(tmp_path, mirror, VALIDATE, {"mod/main.tf": MODULE})
    want = json.loads(run_terraform(tf, "validate", "-json").stdout)
    got = json.loads(run_groundplan(gp, "validate", "-json").stdout)

    def key(d: dict[str, Any]) -> tuple[str, int]:
        return (d["range"]["filename"], d["range"]["start"]["byte"])

    assert sorted(got["diagnostics"], key=key) == sorted(want["diagnostics"], key=key)
    by_address = {d["address"]: d for d in want["diagnostics"]}
    # the oracle says what we compared: the argument's value, and the module block's brace
    assert by_address["random_string.s"]["snippet"]["code"] == "  length  = 0"
    assert by_address["module.m.time_offset.o"]["range"]["start"]["line"] == 1
    assert (got["valid"], got["error_count"]) == (want["valid"], want["error_count"])


def test_validate_human_output(tmp_path: Path, mirror: Path) -> None:
    tf, gp = _workdirs(tmp_path, mirror, VALIDATE, {"mod/main.tf": MODULE})
    want = _errors(run_terraform(tf, "validate", "-no-color"))
    got = _errors(run_groundplan(gp, "validate", "-no-color"))
    assert _blocks(got) == _blocks(want)
    assert "  with random_string.s,\n  on main.tf line 11, in resource" in want


def test_plan_error_names_the_instance(tmp_path: Path, mirror: Path) -> None:
    tf, gp = _workdirs(tmp_path, mirror, PLAN)
    want = run_terraform(tf, "plan", "-no-color")
    got = run_groundplan(gp, "plan", "-no-color")
    assert got.code == want.code == 1
    assert _errors(got) == _errors(want)
    assert "  with random_string.c[0],\n" in _errors(want)


def test_plan_json_ui_carries_the_address(tmp_path: Path, mirror: Path) -> None:
    tf, gp = _workdirs(tmp_path, mirror, PLAN)
    want = _json_diags(run_terraform(tf, "plan", "-json"))
    got = _json_diags(run_groundplan(gp, "plan", "-json"))
    assert got == want
    assert [d["address"] for d in want] == ["random_string.c[0]"]


def test_apply_error_points_at_the_resource_body(tmp_path: Path, mirror: Path) -> None:
    tf, gp = _workdirs(tmp_path, mirror, APPLY)
    want = run_terraform(tf, "apply", "-auto-approve", "-no-color")
    got = run_groundplan(gp, "apply", "-auto-approve", "-no-color")
    assert got.code == want.code == 1
    assert _errors(got) == _errors(want)
    # the opening brace of the resource's body, on its header line
    assert re.search(r'  with local_file\.f,\n  on main\.tf line \d+, in resource "local_file" '
                     r'"f":\n +\d+: resource "local_file" "f" \{\n', _errors(want))



AWS_PROVIDER = """\
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "3.39.0" }
  }
}

provider "aws" {
  region                      = "us-east-1"
  access_key                  = "test"
  secret_key                  = "test"
  skip_credentials_validation = true
  skip_metadata_api_check     = true
  skip_requesting_account_id  = true
  skip_get_ec2_platforms      = true
%s}
"""

AWS_RESOURCES = """
resource "aws_dynamodb_table" "t" {
  name         = "t"
  hash_key     = "pk"
  billing_mode = "SOMETIMES"
  attribute {
    name = "pk"
    type = "Q"
  }
  server_side_encryption {
    enabled     = true
    kms_key_arn = "not-an-arn"
  }
}
"""

BAD_ASSUME_ROLE = """\
  assume_role {
    role_arn = "not-an-arn"
  }
"""


@pytest.mark.parametrize(
    ("main", "codes"),
    [
        # a top-level argument, an argument inside a list-nested block
        # (`server_side_encryption.0.kms_key_arn`), and one inside a set-nested block, which
        # terraform cannot follow (the resource body's opening brace)
        (AWS_PROVIDER % "" + AWS_RESOURCES,
         ['resource "aws_dynamodb_table" "t" {', 'billing_mode = "SOMETIMES"',
          'kms_key_arn = "not-an-arn"']),
        # the provider block's own ValidateProviderConfig error; as in terraform's walk, the
        # resources of a provider configuration with errors are not validated
        (AWS_PROVIDER % BAD_ASSUME_ROLE + AWS_RESOURCES, ['role_arn = "not-an-arn"']),
    ],
    ids=["resources", "provider"],
)
def test_aws_provider_validation_errors(aws_provider_binary: Path, tmp_path: Path, main: str,
                                        codes: list[str]) -> None:
    """The real hashicorp/aws provider (SDKv2) through `validate`, -json and -no-color."""
    from tests.functional.test_aws_end_to_end import build_mirror

    mirror = build_mirror(aws_provider_binary, tmp_path / "mirror")
    tf, gp = _workdirs(tmp_path, mirror, main)
    want = json.loads(run_terraform(tf, "validate", "-json").stdout)["diagnostics"]
    got = json.loads(run_groundplan(gp, "validate", "-json").stdout)["diagnostics"]

    def key(d: dict[str, Any]) -> int:
        return int(d["range"]["start"]["byte"])

    assert sorted(got, key=key) == sorted(want, key=key)
    assert [d["snippet"]["code"].strip() for d in sorted(want, key=key)] == codes
    want_text = _errors(run_terraform(tf, "validate", "-no-color"))
    got_text = _errors(run_groundplan(gp, "validate", "-no-color"))
    assert _blocks(got_text) == _blocks(want_text)
