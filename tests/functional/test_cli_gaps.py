"""CLI behaviours compared side by side with terraform: the dependency lock file checks before
planning, "Planning failed" placement, deposed-object progress lines, `show`/`state` errors.

Each scenario runs in two copies of one directory, one with `terraform`, one with groundplan,
and compares exit codes and (normalised) output. The Python providers are installed from a
filesystem mirror built with engine.plugin.sdk.package. Terraform must be on PATH.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.plugin.sdk.package import package
from tests.product_name import as_groundplan

pytestmark = [pytest.mark.conformance, pytest.mark.usefixtures("terraform_required")]

ROOT = Path(__file__).resolve().parents[2]
ELAPSED = re.compile(r"after \d+s")
NULL_TF = """
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "3.2.3" }
  }
}
resource "null_resource" "a" {}
"""


@pytest.fixture(scope="module")
def cli_config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("gaps")
    mirror = root / "mirror"
    package("null", "3.2.3", mirror)
    package("random", "3.6.3", mirror)
    rc = root / "terraformrc"
    rc.write_text(
        "provider_installation {\n"
        f'  filesystem_mirror {{\n    path = "{mirror}"\n'
        '    include = ["registry.terraform.io/hashicorp/*"]\n  }\n'
        '  direct {\n    exclude = ["registry.terraform.io/hashicorp/*"]\n  }\n}\n')
    return rc


def _env(rc: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "PLUGIN_"))}
    env.update(TF_CLI_CONFIG_FILE=str(rc), CHECKPOINT_DISABLE="1")
    return env


def run(tool: str, cwd: Path, rc: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = ["terraform"] if tool == "tf" else [sys.executable, "-m", "engine.cli.main"]
    env = _env(rc)
    if tool != "tf":
        env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run([*cmd, *args, "-no-color"], cwd=cwd, env=env, text=True,
                          capture_output=True, timeout=300, stdin=subprocess.DEVNULL)
    if tool == "tf":  # terraform's words as groundplan prints them (tests.product_name)
        proc.stdout, proc.stderr = as_groundplan(proc.stdout), as_groundplan(proc.stderr)
    return proc


def pair(tmp_path: Path, files: dict[str, str]) -> tuple[Path, Path]:
    dirs = []
    for name in ("tf", "gp"):
        d = tmp_path / name
        d.mkdir()
        for fname, text in files.items():
            (d / fname).write_text(text)
        dirs.append(d)
    return dirs[0], dirs[1]


def both(dirs: tuple[Path, Path], rc: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
    return run("tf", dirs[0], rc, *args), run("gp", dirs[1], rc, *args)


def same(dirs: tuple[Path, Path], rc: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `args` with both tools; exit code, stdout and stderr must agree (normalised)."""
    tf, gp = both(dirs, rc, *args)
    norm = [(p.returncode, ELAPSED.sub("after Ns", p.stdout), ELAPSED.sub("after Ns", p.stderr))
            for p in (tf, gp)]
    assert norm[1] == norm[0], f"terraform:\n{tf.stdout}\n{tf.stderr}\ngroundplan:\n{gp.stdout}\n{gp.stderr}"
    return gp


def edit(dirs: tuple[Path, Path], name: str, text: str) -> None:
    for d in dirs:
        (d / name).write_text(text)


def test_provider_missing_from_lock_file(tmp_path: Path, cli_config: Path) -> None:
    dirs = pair(tmp_path, {"main.tf": NULL_TF})
    same(dirs, cli_config, "init")
    edit(dirs, "more.tf", 'resource "random_id" "r" {\n  byte_length = 2\n}\n')
    gp = same(dirs, cli_config, "plan")
    assert "Inconsistent dependency lock file" in gp.stderr
    assert "hashicorp/random: required by this configuration" in gp.stderr
    same(dirs, cli_config, "apply", "-auto-approve")


def test_no_lock_file_at_all(tmp_path: Path, cli_config: Path) -> None:
    dirs = pair(tmp_path, {"main.tf": NULL_TF})
    gp = same(dirs, cli_config, "plan")
    assert "To make the initial dependency selections" in gp.stderr


def test_locked_version_outside_constraints(tmp_path: Path, cli_config: Path) -> None:
    dirs = pair(tmp_path, {"main.tf": NULL_TF})
    same(dirs, cli_config, "init")
    edit(dirs, "main.tf", NULL_TF.replace('"3.2.3"', '"~> 3.3"'))
    gp = same(dirs, cli_config, "plan")
    assert "doesn't match the updated version constraints" in gp.stderr


def test_installed_package_missing_or_changed(tmp_path: Path, cli_config: Path) -> None:
    dirs = pair(tmp_path, {"main.tf": NULL_TF})
    same(dirs, cli_config, "init")
    lock = (dirs[0] / ".terraform.lock.hcl").read_text()
    changed = re.sub(r'"h1:[^"]*"', '"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="', lock)
    edit(dirs, ".terraform.lock.hcl", changed)
    gp = same(dirs, cli_config, "plan")
    assert "does not match any of the checksums" in gp.stderr
    edit(dirs, ".terraform.lock.hcl", lock)
    for d in dirs:
        shutil.rmtree(d / ".terraform")
    gp = same(dirs, cli_config, "plan")
    assert "there is no package for" in gp.stderr


def test_state_provider_without_lock_entry(tmp_path: Path, cli_config: Path) -> None:
    dirs = pair(tmp_path, {"main.tf": NULL_TF})
    same(dirs, cli_config, "init")
    assert [p.returncode for p in both(dirs, cli_config, "apply", "-auto-approve")] == [0, 0]
    edit(dirs, "main.tf", "")
    for d in dirs:
        (d / ".terraform.lock.hcl").unlink()
    gp = same(dirs, cli_config, "plan")
    assert "This state requires provider registry.terraform.io/hashicorp/null" in gp.stderr


IMPORT_KEY_ERROR_TF = """
locals { m = { a = 1 } }
import {
  for_each = local.m
  to       = terraform_data.x[each.key]
  id       = "i"
}
resource "terraform_data" "x" {
  for_each = { b = 1 }
}
"""
VALIDATE_ERROR_TF = 'resource "terraform_data" "x" {\n  input = tonumber("x")\n}\n'
WALK_ERROR_TF = ('variable "v" {\n  default = "x"\n}\nresource "terraform_data" "ok" {}\n'
                 'resource "terraform_data" "x" {\n  input = tonumber(var.v)\n}\n')


@pytest.mark.parametrize("text", [IMPORT_KEY_ERROR_TF, VALIDATE_ERROR_TF, WALK_ERROR_TF],
                         ids=["import-key", "validate", "walk"])
@pytest.mark.parametrize("command", ["plan", "apply"])
def test_planning_failed_placement(tmp_path: Path, cli_config: Path, text: str,
                                   command: str) -> None:
    """"Planning failed." (stdout) only when terraform got as far as planning: not after a
    validation error, and not for apply."""
    dirs = pair(tmp_path, {"main.tf": text})
    gp = same(dirs, cli_config, command)
    assert gp.returncode == 1
    shown = "Planning failed. groundplan encountered an error" in gp.stdout
    assert shown == (command == "plan" and text == IMPORT_KEY_ERROR_TF)


CBD_TF = """
variable "v" {
  default = "a"
}
resource "terraform_data" "x" {
  triggers_replace = var.v
  lifecycle {
    create_before_destroy = true
  }
}
"""
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
DEPOSED = re.compile(r"\(deposed object [0-9a-f]{8}\)")


def test_deposed_object_progress_lines(tmp_path: Path, cli_config: Path) -> None:
    """create_before_destroy: `x (deposed object KEY): Destroying... [id=...]`, then a
    completion line that names the instance only (terraform's UiHook)."""
    dirs = pair(tmp_path, {"main.tf": CBD_TF})
    assert [p.returncode for p in both(dirs, cli_config, "apply", "-auto-approve")] == [0, 0]
    tf, gp = both(dirs, cli_config, "apply", "-auto-approve", "-var", "v=b")

    def norm(text: str) -> str:
        text = DEPOSED.sub("(deposed object KEY)", UUID.sub("UUID", text))
        return ELAPSED.sub("after Ns", text)

    assert (gp.returncode, norm(gp.stdout)) == (tf.returncode, norm(tf.stdout))
    assert "terraform_data.x (deposed object KEY): Destroying... [id=UUID]" in norm(gp.stdout)
    assert "terraform_data.x: Destruction complete after Ns" in norm(gp.stdout)


@pytest.mark.parametrize("args", [
    ("show", "junk"), ("show", "empty.tfstate"), ("show", "-json", "empty.tfstate"),
    ("show", "nonexist"), ("state", "list", "-state=bad.tfstate"),
    ("state", "show", "-state=bad.tfstate", "a.b"), ("state", "list", "-state=v9.tfstate"),
    ("state", "list", "-state=empty.tfstate"), ("output", "-state=bad.tfstate"),
], ids=lambda a: "-".join(a))
def test_unreadable_files(tmp_path: Path, cli_config: Path, args: tuple[str, ...]) -> None:
    """`show FILE` names both the state and the plan reason (an empty file is "no state");
    `state list` prints a plain "Failed to load state: ..." line, `state show` diagnostics."""
    dirs = pair(tmp_path, {"junk": "garbage\n", "empty.tfstate": "",
                           "bad.tfstate": '{"version": 4, "bad": \n', "v9.tfstate": '{"version": 9}\n'})
    gp = same(dirs, cli_config, *args)
    assert gp.returncode == 1 or (args[:2] == ("state", "list") and "empty" in args[2])


REFRESH_TF = """
resource "terraform_data" "a" {
  input = "x"
}
output "o" {
  value = terraform_data.a.output
}
"""


def test_refresh_prints_the_outputs_without_a_plan_or_summary(tmp_path: Path,
                                                               cli_config: Path) -> None:
    """`refresh` is apply -refresh-only -auto-approve underneath, but terraform's refresh
    command shows only the refreshing lines and the outputs."""
    dirs = pair(tmp_path, {"main.tf": REFRESH_TF})
    assert [p.returncode for p in both(dirs, cli_config, "apply", "-auto-approve")] == [0, 0]
    tf, gp = both(dirs, cli_config, "refresh")
    assert (gp.returncode, UUID.sub("UUID", gp.stdout)) == (tf.returncode,
                                                             UUID.sub("UUID", tf.stdout))
    assert "Apply complete" not in gp.stdout and 'o = "x"' in gp.stdout
