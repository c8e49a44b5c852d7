"""Workspaces side by side: the same command sequence through terraform and groundplan in
two copies of one configuration, comparing exit codes, stdout and stderr (ids normalised)
after every step, then the files each left on disk and the states' contents."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conformance.harness import Run, require_terraform, run_groundplan, run_terraform

CONFIG = """\
resource "terraform_data" "a" {
  input = terraform.workspace
}

output "ws" {
  value = terraform.workspace
}
"""

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_ELAPSED = re.compile(r"after \d+s")

# (TF_WORKSPACE or None, arguments); colour stays on for the workspace commands so their
# colour codes are compared too.
STEPS: list[tuple[str | None, list[str]]] = [
    (None, ["workspace"]),
    (None, ["workspace", "list"]),
    (None, ["workspace", "show"]),
    (None, ["workspace", "new", "dev"]),
    (None, ["workspace", "new", "dev"]),
    (None, ["workspace", "new", "bad name"]),
    (None, ["workspace", "new", "a/b"]),
    (None, ["workspace", "new"]),
    (None, ["workspace", "new", "-bogus", "x"]),
    (None, ["workspace", "list"]),
    (None, ["workspace", "show"]),
    (None, ["apply", "-auto-approve", "-no-color"]),
    (None, ["output", "-no-color"]),
    (None, ["state", "list"]),
    (None, ["workspace", "select", "nope"]),
    (None, ["workspace", "select", "default"]),
    (None, ["state", "list", "-no-color"]),
    (None, ["plan", "-no-color", "-out=default.tfplan"]),
    (None, ["apply", "-auto-approve", "-no-color"]),
    (None, ["output", "-no-color"]),
    (None, ["workspace", "select", "dev"]),
    # a plan made in another workspace: its prior state is not this workspace's
    (None, ["apply", "-no-color", "default.tfplan"]),
    (None, ["workspace", "list"]),
    (None, ["workspace", "delete", "dev"]),
    (None, ["workspace", "select", "-or-create", "qa"]),
    (None, ["workspace", "select", "qa"]),
    (None, ["workspace", "delete", "dev"]),
    (None, ["workspace", "delete", "-no-color", "dev"]),
    (None, ["workspace", "delete", "nope"]),
    (None, ["workspace", "new", "-state=terraform.tfstate", "copy"]),
    (None, ["state", "list"]),
    ("dev", ["workspace", "show"]),
    ("dev", ["workspace", "list"]),
    ("dev", ["workspace", "select", "default"]),
    ("dev", ["workspace", "new", "other"]),
    ("dev", ["workspace", "new", "dev"]),
    ("dev", ["plan", "-no-color"]),
    ("dev", ["workspace", "delete", "dev"]),
    ("staging", ["apply", "-auto-approve", "-no-color"]),
    ("staging", ["workspace", "list"]),
    ("bad name", ["workspace", "show"]),
    ("bad name", ["workspace", "list"]),
    ("bad name", ["plan", "-no-color"]),
    ("bad name", ["state", "list"]),
    (None, ["workspace", "select", "default"]),
    (None, ["workspace", "delete", "-force", "dev"]),
    (None, ["workspace", "delete", "-force", "staging"]),
    (None, ["workspace", "delete", "qa"]),
    (None, ["workspace", "list"]),
]


def _norm(text: str) -> str:
    return _ELAPSED.sub("after Ns", _UUID.sub("<id>", text))


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")
                  if p.name not in ("main.tf", "default.tfplan"))


def _state_summary(path: Path) -> object:
    doc = json.loads(path.read_text())
    return {
        "serial": doc["serial"],
        "outputs": doc["outputs"],
        "resources": [
            (r["type"], r["name"], [i["attributes"]["input"] for i in r["instances"]])
            for r in doc["resources"]
        ],
    }


def _compare(step: str, tf: Run, gp: Run) -> None:
    assert (gp.code, _norm(gp.stdout), _norm(gp.stderr)) == (
        tf.code, _norm(tf.stdout), _norm(tf.stderr)), step


def test_workspaces_match_terraform(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    require_terraform()
    tf_dir, gp_dir = tmp_path / "tf", tmp_path / "gp"
    for d in (tf_dir, gp_dir):
        d.mkdir()
        (d / "main.tf").write_text(CONFIG)
    for env, args in STEPS:
        if env is None:
            monkeypatch.delenv("TF_WORKSPACE", raising=False)
        else:
            monkeypatch.setenv("TF_WORKSPACE", env)
        step = f"TF_WORKSPACE={env} {' '.join(args)}"
        _compare(step, run_terraform(tf_dir, *args), run_groundplan(gp_dir, *args))
        assert _files(gp_dir) == _files(tf_dir), step
    # what is left: default's state, the copy made by `new -state`, the selection
    assert "terraform.tfstate.d/copy/terraform.tfstate" in _files(gp_dir)
    assert "terraform.tfstate.d/dev" not in _files(gp_dir)
    for rel in ("terraform.tfstate", "terraform.tfstate.d/copy/terraform.tfstate"):
        assert _state_summary(gp_dir / rel) == _state_summary(tf_dir / rel), rel
    assert (gp_dir / ".terraform" / "environment").read_bytes() == (
        tf_dir / ".terraform" / "environment").read_bytes()


@pytest.mark.parametrize("args", [
    ["workspace", "-help"], ["workspace", "new", "-help"], ["workspace", "select", "-h"],
    ["workspace", "list", "-help"], ["workspace", "show", "-help"],
    ["workspace", "delete", "x", "-help"],
])
def test_workspace_help_matches_terraform(tmp_path: Path, args: list[str]) -> None:
    tf, gp = run_terraform(tmp_path, *args), run_groundplan(tmp_path, *args)
    assert (gp.code, gp.stdout) == (tf.code, tf.stdout)


def test_delete_of_a_locked_workspace_matches_terraform(tmp_path: Path) -> None:
    """A lock held on the workspace's state (here by this process) makes `delete` fail
    with terraform's "Error acquiring the state lock" naming the holder."""
    from engine.states.lock import FilesystemLocker, new_lock_info, release

    outs: list[Run] = []
    for tool, d in (("tf", tmp_path / "tf"), ("gp", tmp_path / "gp")):
        d.mkdir()
        (d / "main.tf").write_text(CONFIG)
        run = run_terraform if tool == "tf" else run_groundplan
        assert run(d, "workspace", "new", "dev").code == 0
        assert run(d, "workspace", "select", "default").code == 0
        locker = FilesystemLocker(str(d / "terraform.tfstate.d" / "dev" / "terraform.tfstate"))
        lock_id, err = locker.lock(new_lock_info("OperationTypeApply"))
        assert err is None
        try:
            outs.append(run(d, "workspace", "delete", "dev"))
        finally:
            release(locker, lock_id)
        assert (d / "terraform.tfstate.d" / "dev").is_dir()
    tf, gp = outs

    def holder_free(r: Run, d: Path) -> Run:  # the holders' paths and times differ
        text = re.sub(r"Created: .*", "Created: <t>", r.stderr.replace(f"{d}/", ""))
        return Run(r.code, r.stdout, text)

    assert "Error acquiring the state lock" in gp.stderr
    _compare("workspace delete dev (locked)", holder_free(tf, tmp_path / "tf"),
             holder_free(gp, tmp_path / "gp"))
