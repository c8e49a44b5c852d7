"""Ephemeral input variables and saved plans, side by side with terraform.

A saved plan never holds an ephemeral variable's value: the plan file of each tool is
searched for the value given. Applying the plan then needs the value again, and terraform
1.11's rules for what else may be given are followed: the same command sequence runs
through both tools in two copies of one configuration, comparing exit codes, stdout and
stderr (ids and times normalised) and the resources' inputs in the state left.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conformance.harness import Run, require_terraform, run_groundplan, run_terraform

CONFIG = """\
variable "token" {
  type      = string
  ephemeral = true
}

variable "unset" {
  type      = string
  default   = null
  ephemeral = true
}

variable "y" {
  type    = string
  default = "d"
}

resource "terraform_data" "a" {
  input = var.y
}
"""

SECRET = "s3cr3t-never-stored"

STEPS: list[list[str]] = [
    ["plan", "-no-color", f"-var=token={SECRET}", "-out=p.tfplan"],
    ["show", "-json", "p.tfplan"],
    ["apply", "-no-color", "p.tfplan"],                                   # token again
    ["apply", "-no-color", "-var=y=other", "-var=token=t", "p.tfplan"],  # y is fixed
    ["apply", "-no-color", "-var=zz=1", "-var=token=t", "p.tfplan"],     # undeclared
    ["apply", "-no-color", "-var=unset=u", "-var=token=t", "p.tfplan"],  # unset stays unset
    ["apply", "-no-color", "-var=token=null", "p.tfplan"],  # a string "null": fine as given
]

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_ELAPSED = re.compile(r"after \d+s")
_TIMESTAMP = re.compile(r'"timestamp":"[^"]*"')


def _norm(text: str) -> str:
    return _TIMESTAMP.sub('"timestamp":""', _ELAPSED.sub("after Ns", _UUID.sub("<id>", text)))


def _inputs(root: Path) -> object:
    path = root / "terraform.tfstate"
    if not path.exists():
        return None
    doc = json.loads(path.read_text())
    return [(r["name"], [i["attributes"]["input"] for i in r["instances"]])
            for r in doc["resources"]]


def _contains(path: Path, text: str) -> bool:
    """Whether `text` is anywhere in the zip at `path`, its members uncompressed."""
    import zipfile

    with zipfile.ZipFile(path) as zf:
        return any(text.encode() in zf.read(n) for n in zf.namelist())


def _run_steps(tmp_path: Path, steps: list[list[str]], files: dict[str, str]) -> None:
    tf_dir, gp_dir = tmp_path / "tf", tmp_path / "gp"
    for d in (tf_dir, gp_dir):
        d.mkdir()
        (d / "main.tf").write_text(CONFIG)
        for name, text in files.items():
            (d / name).write_text(text)
    for args in steps:
        tf: Run = run_terraform(tf_dir, *args)
        gp: Run = run_groundplan(gp_dir, *args)
        if args[0] == "show":
            assert gp.code == tf.code == 0
            assert gp.json()["variables"] == tf.json()["variables"]
            for d in (tf_dir, gp_dir):
                assert not _contains(d / "p.tfplan", SECRET), d.name
            continue
        assert (gp.code, _norm(gp.stdout), _norm(gp.stderr)) == (
            tf.code, _norm(tf.stdout), _norm(tf.stderr)), " ".join(args)
        assert _inputs(gp_dir) == _inputs(tf_dir), " ".join(args)


def test_ephemeral_variables_are_asked_again_at_apply(tmp_path: Path) -> None:
    require_terraform()
    _run_steps(tmp_path, STEPS, {})


def test_variable_files_when_applying_a_saved_plan(tmp_path: Path) -> None:
    """Values from files: an automatically loaded file may repeat non-ephemeral values (an
    undeclared one is warned about after the apply), a named file's are refused as
    undeclared with a warning, and the ephemeral value from a file is taken."""
    require_terraform()
    files = {"terraform.tfvars": 'y  = "d"\nzz = 1\n',
             "named.tfvars": f'y     = "zz"\ntoken = "{SECRET}"\n'}
    _run_steps(tmp_path, [
        ["plan", "-no-color", "-var-file=named.tfvars", "-out=p.tfplan"],
        ["show", "-json", "p.tfplan"],
        ["apply", "-no-color", "p.tfplan"],
        ["apply", "-no-color", "-var-file=named.tfvars", "p.tfplan"],
    ], files)


def test_recorded_variables_cannot_change(tmp_path: Path) -> None:
    """A variable given when planning is fixed: the same value again is accepted, another
    one is refused from -var and from a named file, ignored from an automatic file."""
    require_terraform()
    files = {"other.tfvars": 'y = "three"\n'}
    _run_steps(tmp_path, [
        ["plan", "-no-color", "-var=token=t", "-var=y=one", "-out=p.tfplan"],
        ["apply", "-no-color", "-var=token=t", "-var=y=two", "p.tfplan"],
        ["apply", "-no-color", "-var=token=t", "-var-file=other.tfvars", "p.tfplan"],
        ["apply", "-no-color", "-var=token=t", "-var=y=one", "p.tfplan"],
    ], files)
