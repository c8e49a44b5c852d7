"""terraform 1.11 and groundplan take turns on one moto bucket.

For each way of locking (`use_lockfile`, `dynamodb_table`, both) the two tools alternate
`apply` on the same state: each reads what the other wrote (outputs, one lineage, serials
1, 2, 3, 4). A lock held by one (an apply waiting at its approval prompt) makes the other
fail with the holder's details, or wait with `-lock-timeout` until it is released;
`force-unlock` by one releases the other's lock; workspaces created by one are listed by the
other. terraform must be on PATH: without it these tests FAIL loudly.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.functional.s3_support import (
    BUCKET,
    S3Env,
    backend_block,
    groundplan_cmd,
    ok,
    run,
    terraform_cmd,
    tool_env,
)
from tests.functional.s3_support import moto_s3 as moto_s3
from tests.functional.s3_support import s3env as s3env

pytestmark = pytest.mark.conformance

CONFIG = """
variable "n" {
  type = string
}
resource "terraform_data" "r" {
  input = var.n
}
output "n" {
  value = terraform_data.r.output
}
"""
MODES = {"lockfile": {"lockfile": True}, "dynamodb": {"lockfile": False, "table": True},
         "both": {"lockfile": True, "table": True}}


def _pair(tmp_path: Path, env: S3Env, key: str, **mode: bool) -> tuple[Path, Path]:
    dirs = []
    for tool in ("terraform", "groundplan"):
        d = tmp_path / tool
        d.mkdir()
        (d / "backend.tf").write_text(backend_block(env.url, key=key, **mode))
        (d / "main.tf").write_text(CONFIG)
        ok(run(tool, d, "init", "-no-color", "-input=false"))
        dirs.append(d)
    return dirs[0], dirs[1]


def _output(tool: str, d: Path) -> str:
    value: str = json.loads(ok(run(tool, d, "output", "-json", "n")).stdout)
    return value


class Waiting:
    """An apply started without -auto-approve, stopped at its approval prompt (holding the
    state lock) until `answer` is called."""

    def __init__(self, tool: str, d: Path, *args: str) -> None:
        cmd = terraform_cmd() if tool == "terraform" else groundplan_cmd()
        self.proc = subprocess.Popen([*cmd, "apply", "-no-color", *args], cwd=d,
                                     env=tool_env({"TF_IN_AUTOMATION": ""}), text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        seen = ""
        assert self.proc.stdout is not None
        while "Enter a value:" not in seen:
            ch = self.proc.stdout.read(1)
            if not ch:
                raise AssertionError(f"{tool} exited before its prompt: {seen}"
                                     f"{self.proc.stderr.read() if self.proc.stderr else ''}")
            seen += ch
        self.seen = seen

    def answer(self, text: str) -> subprocess.CompletedProcess[str]:
        out, err = self.proc.communicate(text + "\n", timeout=300)
        return subprocess.CompletedProcess(self.proc.args, self.proc.returncode,
                                           self.seen + out, err)


def _lock_id(stderr: str) -> str:
    m = re.search(r"ID:\s+([0-9a-f-]{36})", stderr)
    assert m is not None, stderr
    return m.group(1)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_tools_alternate_apply_on_one_bucket(tmp_path: Path, s3env: S3Env, mode: str) -> None:
    key = f"{mode}/terraform.tfstate"
    tf, gp = _pair(tmp_path, s3env, key, **MODES[mode])
    # both record the backend identically (config, and cty's hash of the block)
    records = [json.loads((d / ".terraform" / "terraform.tfstate").read_text()) for d in (tf, gp)]
    assert records[0] == records[1]
    lineage = None
    for serial, tool in enumerate(["terraform", "groundplan", "terraform", "groundplan"], 1):
        d = tf if tool == "terraform" else gp
        other = gp if tool == "terraform" else tf
        if serial > 1:  # reads what the other tool wrote
            assert _output(tool, d) == f"v{serial - 1}"
        ok(run(tool, d, "apply", "-auto-approve", "-no-color", "-input=false",
               "-var", f"n=v{serial}"))
        doc = json.loads(s3env.body(key))
        assert doc["serial"] == serial, (tool, doc["serial"])
        lineage = lineage or doc["lineage"]
        assert doc["lineage"] == lineage
        assert _output("groundplan" if tool == "terraform" else "terraform", other) == f"v{serial}"
        if MODES[mode].get("table"):
            digest = s3env.lock_items()[f"{BUCKET}/{key}-md5"]["Digest"]
            assert digest == __import__("hashlib").md5(s3env.body(key)).hexdigest()
        assert key + ".tflock" not in s3env.object_keys()


@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_lock_held_by_one_tool_stops_the_other(tmp_path: Path, s3env: S3Env,
                                                 mode: str) -> None:
    key = f"lock-{mode}/terraform.tfstate"
    tf, gp = _pair(tmp_path, s3env, key, **MODES[mode])
    ok(run("terraform", tf, "apply", "-auto-approve", "-no-color", "-var", "n=a"))
    for holder, hdir, waiter, wdir in (("terraform", tf, "groundplan", gp),
                                       ("groundplan", gp, "terraform", tf)):
        held = Waiting(holder, hdir, "-var", f"n=held-by-{holder}")
        r = run(waiter, wdir, "plan", "-no-color", "-input=false", "-var", "n=x")
        assert r.returncode == 1 and "Error acquiring the state lock" in r.stderr
        assert "Operation: OperationTypeApply" in r.stderr
        assert f"Path:      {BUCKET}/{key}" in r.stderr
        lock_id = _lock_id(r.stderr)
        r = ok(run(waiter, wdir, "force-unlock", "-force", "-no-color", lock_id))
        assert "successfully unlocked" in r.stdout
        assert key + ".tflock" not in s3env.object_keys()
        assert f"{BUCKET}/{key}" not in s3env.lock_items()
        held.answer("no")


def _terraform_lost_the_lock_race(err: str) -> bool:
    """terraform's own race: its conditional put of the lock file failed (the lock was held),
    then the lock was released before it read the holder's lock info (404), and terraform's
    retry loop gives up on a lock error without info instead of trying again."""
    return "PreconditionFailed" in err and "NoSuchKey" in err


@pytest.mark.parametrize("waiter", ["groundplan", "terraform"])
def test_lock_timeout_waits_for_the_other_tool(tmp_path: Path, s3env: S3Env,
                                               waiter: str) -> None:
    key = f"wait-{waiter}/terraform.tfstate"
    tf, gp = _pair(tmp_path, s3env, key, lockfile=True)
    holder = "terraform" if waiter == "groundplan" else "groundplan"
    hdir, wdir = (tf, gp) if holder == "terraform" else (gp, tf)
    cmd = terraform_cmd() if waiter == "terraform" else groundplan_cmd()
    # terraform (as the waiter) can lose the race described above whatever groundplan does;
    # only that exact failure is tried again, with the lock held afresh each time
    for attempt in range(3):
        held = Waiting(holder, hdir, "-var", f"n=first-{attempt}")
        waiting = subprocess.Popen([*cmd, "apply", "-auto-approve", "-no-color",
                                    "-input=false", "-lock-timeout=300s", "-var", "n=second"],
                                   cwd=wdir, env=tool_env(), text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        ok(held.answer("yes"))
        out, err = waiting.communicate(timeout=600)
        if not (waiter == "terraform" and waiting.returncode == 1
                and _terraform_lost_the_lock_race(err)):
            break
    assert waiting.returncode == 0, out + err
    doc = json.loads(s3env.body(key))
    assert doc["outputs"]["n"]["value"] == "second"
    assert doc["serial"] == attempt + 2  # each held apply, then the waiter's


def test_workspaces_are_listed_across_tools(tmp_path: Path, s3env: S3Env) -> None:
    tf, gp = _pair(tmp_path, s3env, "ws/terraform.tfstate", lockfile=True)
    ok(run("terraform", tf, "workspace", "new", "from-terraform", "-no-color"))
    ok(run("groundplan", gp, "workspace", "new", "from-groundplan", "-no-color"))
    listing = "  default\n  from-groundplan\n  from-terraform\n\n"
    assert ok(run("terraform", tf, "workspace", "select", "default")).returncode == 0
    assert ok(run("terraform", tf, "workspace", "list")).stdout == "* default\n" + listing[10:]
    ok(run("groundplan", gp, "workspace", "select", "default"))
    assert ok(run("groundplan", gp, "workspace", "list")).stdout == "* default\n" + listing[10:]
    ok(run("groundplan", gp, "workspace", "select", "from-terraform"))
    ok(run("groundplan", gp, "apply", "-auto-approve", "-no-color", "-var", "n=ws"))
    ok(run("terraform", tf, "workspace", "select", "from-terraform"))
    assert _output("terraform", tf) == "ws"
    assert "env:/from-groundplan/ws/terraform.tfstate" in s3env.object_keys()
