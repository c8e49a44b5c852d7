"""The groundplan CLI end to end on configurations with `terraform_data` resources.

Each test runs the real CLI (`python -m engine.cli.main`) in a temporary directory and, where
terraform's output is deterministic, the real terraform in a copy of the same directory, and
compares: exit codes, plan texts, state listings, `show` of the same state file, messages of
taint/untaint, the DOT graph. Terraform must be on PATH: without it these tests FAIL loudly.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.product_name import as_groundplan

pytestmark = pytest.mark.conformance

ROOT = Path(__file__).resolve().parents[2]
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
ELAPSED = re.compile(r"(complete after |\[)\d+s(?= elapsed\]|\b)")

MAIN_TF = """
variable "name" {
  type    = string
  default = "demo"
}

resource "terraform_data" "base" {
  input = var.name
}

resource "terraform_data" "item" {
  count = 2
  input = "${terraform_data.base.output}-${count.index}"
}

resource "terraform_data" "keyed" {
  for_each = toset(["x", "y"])
  input    = { key = each.key, base = terraform_data.base.output }
}

output "base" {
  value = terraform_data.base.output
}

output "secret" {
  value     = "s3cr3t"
  sensitive = true
}
"""

SLOW_TF = """
resource "terraform_data" "fast" {
  input = "fast"
}

resource "terraform_data" "slow" {
  input = terraform_data.fast.output
  provisioner "local-exec" {
    command = "echo started; sleep 30"
  }
}

resource "terraform_data" "after" {
  input = terraform_data.slow.output
}
"""


def _terraform() -> str:
    path = shutil.which("terraform")
    if path is None:
        pytest.fail("CONFORMANCE TESTS NEED TERRAFORM: the `terraform` binary (v1.11) is not "
                    "on PATH, so groundplan cannot be compared with its oracle.", pytrace=False)
    return path


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_VAR_", "TF_CLI_ARGS"))}
    env.update(TF_CLI_CONFIG_FILE=os.devnull, CHECKPOINT_DISABLE="1", PYTHONPATH=str(ROOT))
    env.pop("TF_IN_AUTOMATION", None)
    return env


def _cmd(tool: str) -> list[str]:
    return [_terraform()] if tool == "terraform" else [sys.executable, "-m", "engine.cli.main"]


def run(tool: str, cwd: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([*_cmd(tool), *args], cwd=cwd, env=_env(), input=stdin,
                          capture_output=True, text=True, timeout=120, check=False)
    if tool == "terraform":  # terraform's words as groundplan prints them (tests.product_name)
        proc.stdout, proc.stderr = as_groundplan(proc.stdout), as_groundplan(proc.stderr)
    return proc


PROGRESS = re.compile(r"^\S.*: (Refreshing state|Creating|Creation complete|Destroying|"
                      r"Destruction complete|Modifying|Modifications complete)")


def norm(text: str) -> str:
    """Output with object IDs replaced (they are random UUIDs in both tools) and progress
    lines, whose order depends on concurrent work, sorted among themselves."""
    text = ELAPSED.sub(r"\1<n>s", UUID.sub("<uuid>", text))
    lines = text.split("\n")
    slots = [i for i, line in enumerate(lines) if PROGRESS.match(line)]
    for i, line in zip(slots, sorted(lines[i] for i in slots), strict=True):
        lines[i] = line
    return "\n".join(lines)


@pytest.fixture
def dirs(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for tool in ("groundplan", "terraform"):
        d = tmp_path / tool
        d.mkdir()
        (d / "main.tf").write_text(MAIN_TF)
        out[tool] = d
    assert run("terraform", out["terraform"], "init", "-no-color").returncode == 0
    return out


def both(dirs: dict[str, Path], *args: str, stdin: str = ""
         ) -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
    g = run("groundplan", dirs["groundplan"], *args, stdin=stdin)
    t = run("terraform", dirs["terraform"], *args, stdin=stdin)
    return g, t


def same(dirs: dict[str, Path], *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run both tools; exit codes and normalised stdout must agree. The groundplan result."""
    g, t = both(dirs, *args, stdin=stdin)
    assert g.returncode == t.returncode, (args, g.stdout + g.stderr, t.stdout + t.stderr)
    assert norm(g.stdout) == norm(t.stdout), args
    return g


def test_plan_out_show_apply_saved_plan_then_no_changes(dirs: dict[str, Path]) -> None:
    g = same(dirs, "plan", "-no-color", "-out=p")
    assert "Saved the plan to: p" in g.stdout
    assert 'groundplan apply "p"' in g.stdout
    assert "Plan: 5 to add, 0 to change, 0 to destroy." in g.stdout
    assert (dirs["groundplan"] / "p").is_file()
    same(dirs, "show", "-no-color", "p")
    g, t = both(dirs, "apply", "-no-color", "p")
    assert g.returncode == t.returncode == 0, g.stderr
    assert "Apply complete! Resources: 5 added, 0 changed, 0 destroyed." in g.stdout
    assert "terraform_data.base: Creating..." in g.stdout
    assert re.search(r"terraform_data.base: Creation complete after \ds \[id=" + UUID.pattern,
                     g.stdout)
    assert g.stdout.endswith('\nOutputs:\n\nbase = "demo"\nsecret = <sensitive>\n')
    g = same(dirs, "plan", "-no-color", "-detailed-exitcode")
    assert "No changes. Your infrastructure matches the configuration." in g.stdout
    assert "terraform_data.base: Refreshing state... [id=" in g.stdout
    same(dirs, "state", "list")
    same(dirs, "output")
    same(dirs, "output", "-json")
    same(dirs, "output", "-raw", "base")
    same(dirs, "graph")


def test_show_renders_the_same_state_file_as_terraform(dirs: dict[str, Path]) -> None:
    g, t = both(dirs, "apply", "-auto-approve", "-no-color")
    assert g.returncode == t.returncode == 0, g.stderr
    # Each tool shows the state terraform wrote, and the one groundplan wrote.
    for source in ("terraform", "groundplan"):
        shutil.copy(dirs[source] / "terraform.tfstate", dirs["groundplan"] / "other.tfstate")
        shutil.copy(dirs[source] / "terraform.tfstate", dirs["terraform"] / "other.tfstate")
        same(dirs, "show", "-no-color", "other.tfstate")
        g = same(dirs, "state", "show", "-no-color", "-state=other.tfstate",
                 'terraform_data.keyed["x"]')
        assert g.stdout.startswith('# terraform_data.keyed["x"]:\nresource "terraform_data"')
        g, t = both(dirs, "show", "-json", "other.tfstate")
        assert json.loads(g.stdout) == json.loads(t.stdout)


def test_saved_plan_refused_when_stale_or_config_changed(dirs: dict[str, Path]) -> None:
    same(dirs, "plan", "-no-color", "-out=p")
    shutil.copy(dirs["groundplan"] / "p", dirs["groundplan"] / "p2")
    shutil.copy(dirs["terraform"] / "p", dirs["terraform"] / "p2")
    assert all(r.returncode == 0 for r in both(dirs, "apply", "-no-color", "p"))
    g, t = both(dirs, "apply", "-no-color", "p2")
    assert g.returncode == t.returncode == 1
    assert "Error: Saved plan is stale" in g.stderr
    assert norm(g.stderr) == norm(t.stderr)
    g = run("groundplan", dirs["groundplan"], "plan", "-no-color", "-out=p3")
    assert g.returncode == 0
    (dirs["groundplan"] / "extra.tf").write_text('output "more" { value = 1 }\n')
    g = run("groundplan", dirs["groundplan"], "apply", "-no-color", "p3")
    assert g.returncode == 1
    assert "Error: Saved plan does not match the configuration" in g.stderr


def test_taint_untaint_and_replace(dirs: dict[str, Path]) -> None:
    assert all(r.returncode == 0 for r in both(dirs, "apply", "-auto-approve"))
    g = same(dirs, "taint", "-no-color", "terraform_data.base")
    assert g.stdout == "Resource instance terraform_data.base has been marked as tainted.\n"
    g = same(dirs, "plan", "-no-color", "-detailed-exitcode")
    assert "# terraform_data.base is tainted, so must be replaced" in g.stdout
    g = same(dirs, "untaint", "-no-color", "terraform_data.base")
    assert "has been successfully untainted." in g.stdout
    g, t = both(dirs, "untaint", "-no-color", "terraform_data.base")
    assert g.returncode == t.returncode == 1
    assert g.stderr == t.stderr
    g, t = both(dirs, "taint", "-no-color", "terraform_data.nope")
    assert g.returncode == t.returncode == 1
    assert g.stderr == t.stderr
    g = same(dirs, "plan", "-no-color", "-replace=terraform_data.item[1]")
    assert "# terraform_data.item[1] will be replaced, as requested" in g.stdout


def test_targeted_destroy_plan(dirs: dict[str, Path]) -> None:
    """A targeted destroy removes the target and what depends on it, not its dependencies."""
    assert all(r.returncode == 0 for r in both(dirs, "apply", "-auto-approve"))
    g = same(dirs, "plan", "-no-color", "-destroy", "-target=terraform_data.item")
    assert "Warning: Resource targeting is in effect" in g.stdout
    assert "terraform_data.base will be destroyed" not in g.stdout


def test_destroy_command(dirs: dict[str, Path]) -> None:
    assert all(r.returncode == 0 for r in both(dirs, "apply", "-auto-approve"))
    g, t = both(dirs, "destroy", "-no-color", stdin="no\n")
    assert g.returncode == t.returncode == 1
    assert "Do you really want to destroy all resources?" in g.stdout
    assert "Destroy cancelled." in g.stdout
    g, t = both(dirs, "destroy", "-no-color", "-auto-approve")
    assert g.returncode == t.returncode == 0, g.stderr
    assert g.stdout.rstrip().endswith("Destroy complete! Resources: 5 destroyed.")
    assert re.search(r"terraform_data.base: Destroying\.\.\. \[id=" + UUID.pattern + r"\]",
                     g.stdout)
    assert re.search(r"terraform_data.base: Destruction complete after \ds\n", g.stdout)
    same(dirs, "state", "list")


def test_apply_asks_for_approval(dirs: dict[str, Path]) -> None:
    g, t = both(dirs, "apply", "-no-color", stdin="nope\n")
    assert g.returncode == t.returncode == 1
    assert "Do you want to perform these actions?" in g.stdout
    assert "Apply cancelled." in g.stdout
    assert not (dirs["groundplan"] / "terraform.tfstate").exists() or \
        "terraform_data" not in (dirs["groundplan"] / "terraform.tfstate").read_text()
    g = run("groundplan", dirs["groundplan"], "apply", "-no-color", stdin="yes\n")
    assert g.returncode == 0, g.stderr
    assert "Apply complete! Resources: 5 added" in g.stdout


def _json_lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_json_ui_message_types(dirs: dict[str, Path]) -> None:
    g, t = both(dirs, "plan", "-json", "-out=p")
    assert g.returncode == t.returncode == 0, g.stdout
    gm, tm = _json_lines(g.stdout), _json_lines(t.stdout)
    assert [m["type"] for m in gm] == [m["type"] for m in tm]
    for m in gm:
        assert set(m) >= {"@level", "@message", "@module", "@timestamp", "type"}
        assert m["@module"] == "terraform.ui"
    assert sorted(json.dumps(m.get("change"), sort_keys=True) for m in gm) == \
        sorted(json.dumps(m.get("change"), sort_keys=True) for m in tm)
    assert next(m for m in gm if m["type"] == "change_summary")["changes"] == \
        next(m for m in tm if m["type"] == "change_summary")["changes"]
    g, t = both(dirs, "apply", "-json", "p")
    assert g.returncode == t.returncode == 0, g.stdout
    gm, tm = _json_lines(g.stdout), _json_lines(t.stdout)
    assert sorted(str(m["type"]) for m in gm) == sorted(str(m["type"]) for m in tm)
    assert gm[-1]["type"] == "outputs"
    assert gm[-1]["outputs"] == tm[-1]["outputs"]
    g, t = both(dirs, "plan", "-json", "-var=nope=1")
    assert g.returncode == t.returncode == 1
    diag = [m for m in _json_lines(g.stdout) if m["type"] == "diagnostic"]
    assert diag and diag[0]["@level"] == "error"
    assert diag[0]["@message"] == "Error: Value for undeclared variable"


def test_sigint_during_slow_apply_keeps_state_consistent(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(SLOW_TF)
    proc = subprocess.Popen(
        [*_cmd("groundplan"), "apply", "-auto-approve", "-no-color"], cwd=tmp_path,
        env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    seen = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        seen.append(line)
        if "(local-exec): started" in line:
            break
    else:  # pragma: no cover - reported as a failure below
        proc.kill()
    assert any("(local-exec): started" in s for s in seen), seen
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, out + err
    assert "Interrupt received." in out
    assert "Gracefully shutting down..." in out
    assert "terraform_data.after: Creating..." not in out
    state = json.loads((tmp_path / "terraform.tfstate").read_text())
    names = {r["name"] for r in state["resources"]}
    assert "fast" in names
    assert "after" not in names
    assert not (tmp_path / ".terraform.tfstate.lock.info").exists()
    g = run("groundplan", tmp_path, "state", "list")
    assert g.returncode == 0
    assert "terraform_data.fast" in g.stdout.splitlines()
    g = run("groundplan", tmp_path, "plan", "-no-color", "-detailed-exitcode")
    assert g.returncode == 2, g.stderr
    assert "terraform_data.after will be created" in g.stdout


def test_killed_apply_leaves_a_journal_the_next_plan_recovers(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(SLOW_TF)
    proc = subprocess.Popen(
        [*_cmd("groundplan"), "apply", "-auto-approve", "-no-color"], cwd=tmp_path,
        env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if "(local-exec): started" in proc.stdout.readline():
            break
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    journal = tmp_path / "terraform.tfstate.journal"
    assert journal.is_file()
    g = run("groundplan", tmp_path, "plan", "-no-color", "-detailed-exitcode")
    assert g.returncode == 2, g.stdout + g.stderr
    assert not journal.exists()
    # The creations recorded in the journal are in the state now: only "after" is planned.
    assert "terraform_data.after will be created" in g.stdout
    assert "terraform_data.fast will be created" not in g.stdout
    listed = run("groundplan", tmp_path, "state", "list").stdout.splitlines()
    assert "terraform_data.fast" in listed


PROVISIONED_TF = """
resource "terraform_data" "p" {
  input = "x"
  provisioner "local-exec" {
    command = "echo created"
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo destroying"
  }
}
"""


def test_completion_lines_follow_the_provisioners(dirs: dict[str, Path]) -> None:
    """`Creation complete` comes after the creation-time provisioners' output, and
    `Destroying...` before the destroy-time ones, in terraform's order (`same` sorts the
    progress lines, so the order is checked here)."""
    for d in dirs.values():
        (d / "main.tf").write_text(PROVISIONED_TF)
    g = same(dirs, "apply", "-auto-approve", "-no-color")
    lines = [line for line in g.stdout.splitlines() if line.startswith("terraform_data.p")]
    assert lines[-2:] == ["terraform_data.p (local-exec): created",
                          lines[-1]] and "Creation complete" in lines[-1]
    g = same(dirs, "destroy", "-auto-approve", "-no-color")
    lines = [line for line in g.stdout.splitlines()
             if line.startswith("terraform_data.p") and "Refreshing state" not in line]
    assert "Destroying..." in lines[0] and "Destruction complete" in lines[-1]
    assert "terraform_data.p (local-exec): destroying" in lines[1:-1]
