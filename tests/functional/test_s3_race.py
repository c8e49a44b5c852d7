"""Twenty groundplan applies started at once on one S3 workspace (versioning on).

With the lock (`use_lockfile`, `-lock-timeout=300s`) all twenty succeed, one at a time: the
bucket's versions of the state object have distinct, consecutive serials, every version is a
whole state, and every apply's result is in one of them. Without it (`-lock=false`) the
state writes are still conditional (If-Match on the ETag each run read): runs that lost the
race fail with the conflict and save `errored.tfstate`, and still no two versions share a
serial — no update was lost. Each run works in its own copy of the working directory, as
separate CI jobs would. Nothing here depends on timing: the outcome is the same however the
runs interleave.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from tests.functional.s3_support import (
    BUCKET,
    S3Env,
    backend_block,
    gp,
    groundplan_cmd,
    ok,
    tool_env,
)
from tests.functional.s3_support import moto_s3 as moto_s3
from tests.functional.s3_support import s3env as s3env

KEY = "race/terraform.tfstate"
CONFIG = """
variable "n" {
  type = string
}
resource "terraform_data" "r" {
  input = var.n
}
output "n" {
  value = var.n
}
"""
RUNS = 20


def _dirs(tmp_path: Path, env: S3Env) -> list[Path]:
    base = tmp_path / "base"
    base.mkdir()
    (base / "backend.tf").write_text(backend_block(env.url, key=KEY))
    (base / "main.tf").write_text(CONFIG)
    ok(gp(base, "init", "-no-color"))
    dirs = []
    for i in range(RUNS):
        d = tmp_path / f"run{i}"
        shutil.copytree(base, d)
        dirs.append(d)
    return dirs


def _start_all(dirs: list[Path], *flags: str) -> list[subprocess.CompletedProcess[str]]:
    procs = [
        subprocess.Popen([*groundplan_cmd(), "apply", "-auto-approve", "-no-color", *flags,
                          "-var", f"n=run-{i}"], cwd=d, env=tool_env(), text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for i, d in enumerate(dirs)
    ]
    out = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=900)
        out.append(subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr))
    return out


def _versions(env: S3Env) -> list[dict[str, object]]:
    s3 = env.client("s3")
    listing = s3.list_object_versions(Bucket=BUCKET, Prefix=KEY)
    docs = []
    for v in listing.get("Versions", []):
        if v["Key"] != KEY:
            continue
        body = s3.get_object(Bucket=BUCKET, Key=KEY, VersionId=v["VersionId"])["Body"].read()
        docs.append(json.loads(body))  # every version is a whole state
    return docs


def test_twenty_locked_applies_all_succeed_one_at_a_time(tmp_path: Path, s3env: S3Env) -> None:
    dirs = _dirs(tmp_path, s3env)
    results = _start_all(dirs, "-lock-timeout=300s")
    for r in results:
        assert r.returncode == 0, r.stdout + r.stderr
    docs = _versions(s3env)
    serials = sorted(int(d["serial"]) for d in docs)  # type: ignore[call-overload]
    assert len(serials) == len(set(serials)), serials
    assert serials == list(range(1, len(serials) + 1))
    assert len({d["lineage"] for d in docs}) == 1
    applied = {d["outputs"]["n"]["value"] for d in docs if d["outputs"]}  # type: ignore[index]
    assert applied >= {f"run-{i}" for i in range(RUNS)}  # none lost
    assert KEY + ".tflock" not in s3env.object_keys()


def test_twenty_unlocked_applies_never_lose_an_update(tmp_path: Path, s3env: S3Env) -> None:
    dirs = _dirs(tmp_path, s3env)
    results = _start_all(dirs, "-lock=false")
    won, lost = [], []
    for i, r in enumerate(results):
        if r.returncode == 0:
            won.append(i)
            continue
        lost.append(i)
        assert "changed by someone else" in r.stderr, r.stderr
        assert "groundplan state push errored.tfstate" in r.stderr
        saved = json.loads((dirs[i] / "errored.tfstate").read_text())
        assert saved["outputs"]["n"]["value"] == f"run-{i}"  # nothing applied is lost
    assert won, "at least the first writer wins"
    docs = _versions(s3env)
    serials = [int(d["serial"]) for d in docs]  # type: ignore[call-overload]
    assert len(serials) == len(set(serials)), sorted(serials)  # no two versions share a serial
    applied = {d["outputs"]["n"]["value"] for d in docs if d["outputs"]}  # type: ignore[index]
    assert applied >= {f"run-{i}" for i in won}
    assert applied.isdisjoint({f"run-{i}" for i in lost})
