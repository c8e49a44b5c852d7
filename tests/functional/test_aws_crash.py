"""SIGKILLed applies of 50 aws_sqs_queue against moto (real aws 3.39.0 provider), reconciled.

Each queue has a `name_prefix`, so the provider gives every CreateQueue a fresh name: a queue
created twice shows up as two queues with the same prefix. In each round (moto emptied, no
state) `groundplan apply -auto-approve` is SIGKILLed at a seeded moment, `groundplan plan`
reconciles the journal it left, a second apply is SIGKILLed, `plan` reconciles again, and an
uncut `apply` converges. Kill moments are seeded: a pause of up to 0.2 s after the N-th progress
line of the apply phase (N random up to the number of queues left). After each reconciliation and after
convergence:

- every queue in moto is in state or was named by a recovery warning as begun but unrecorded;
- no instance has more queues than 1 + the number of times it was named so (nothing that was
  recorded is ever created again);
- after convergence all 50 instances are in state, each with a queue that exists;
- no provider process started from the test's directory is running (the providers of a
  SIGKILLed groundplan die with it: parent-death signal).
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path

import boto3
import pytest

from tests.functional.test_aws_end_to_end import build_mirror, tool_env
from tests.functional.test_provider_errors import leftover_processes

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
GROUNDPLAN = [sys.executable, "-m", "engine.cli.main"]
QUEUES = 50
ROUNDS = 7  # two kills each
SEED = 20261130
PREFIX = re.compile(r"^gpc-(\d+)-")
BEGUN = re.compile(r"^\s*(?:│\s*)?- (aws_sqs_queue\.q\[\d+\]) \((\w+)\)\s*$", re.M)
PROGRESS = re.compile(r"^aws_sqs_queue\.q\[\d+\]: Creat(ing\.\.\.|ion complete)")
WARNING = "Resources may have changed without being recorded in state"


def config(moto_url: str) -> str:
    return f"""
provider "aws" {{
  region                      = "us-east-1"
  access_key                  = "test"
  secret_key                  = "test"
  skip_credentials_validation = true
  skip_metadata_api_check     = true
  skip_requesting_account_id  = true
  skip_region_validation      = true
  skip_get_ec2_platforms      = true
  endpoints {{
    sqs = "{moto_url}"
    sts = "{moto_url}"
  }}
}}

resource "aws_sqs_queue" "q" {{
  count       = {QUEUES}
  name_prefix = "gpc-${{count.index}}-"
}}
"""


def reset(moto_url: str) -> None:
    req = urllib.request.Request(moto_url + "/moto-api/reset", method="POST")
    with urllib.request.urlopen(req, timeout=10):
        pass


class Round:
    """One working directory's history: queues named as begun-but-unrecorded so far."""

    def __init__(self, workdir: Path, moto_url: str) -> None:
        self.dir, self.moto = workdir, moto_url
        self.env = tool_env(workdir)
        self.sqs = boto3.client("sqs", endpoint_url=moto_url, region_name="us-east-1",
                                aws_access_key_id="test", aws_secret_access_key="test")
        self.begun: Counter[int] = Counter()

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*GROUNDPLAN, *args, "-no-color"], cwd=self.dir, env=self.env,
                              capture_output=True, text=True, timeout=300, check=False)

    def killed_apply(self, after_lines: int, pause: float) -> bool:
        """Start `apply -auto-approve` and SIGKILL it `pause` seconds after its
        `after_lines`-th progress line ("Creating..." or "Creation complete"); whether it was
        killed (False: it ended first)."""
        proc = subprocess.Popen([*GROUNDPLAN, "apply", "-auto-approve", "-no-color"],
                                cwd=self.dir, env=self.env, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        assert proc.stdout is not None
        seen = 0
        for line in proc.stdout:
            seen += PROGRESS.match(line) is not None
            if seen >= after_lines:
                time.sleep(pause)  # land anywhere between two provider calls
                os.kill(proc.pid, signal.SIGKILL)
                break
        proc.stdout.read()
        return proc.wait() == -signal.SIGKILL

    def reconcile(self) -> str:
        out = self.run("plan")
        text = out.stdout + out.stderr
        assert out.returncode == 0, text
        if WARNING in text:
            named = BEGUN.findall(text)
            assert named, text
            for addr, action in named:
                assert action == "create", text
                self.begun[int(addr.split("[")[1].rstrip("]"))] += 1
        return text

    def state_queues(self) -> dict[int, str]:
        """Instance index -> queue name recorded in state."""
        path = self.dir / "terraform.tfstate"
        text = path.read_text() if path.exists() else ""
        if not text.strip():  # as terraform's, the lock leaves an empty file before any state
            return {}
        doc = json.loads(text)
        out: dict[int, str] = {}
        for rs in doc.get("resources", []):
            for inst in rs["instances"]:
                assert inst["index_key"] not in out, "an instance recorded twice"
                out[int(inst["index_key"])] = inst["attributes"]["name"]
        return out

    def moto_queues(self) -> list[str]:
        urls = self.sqs.list_queues(MaxResults=1000).get("QueueUrls", [])
        return [u.rsplit("/", 1)[-1] for u in urls]

    def check(self) -> dict[int, str]:
        """The invariants of the module docstring; the state's queues."""
        recorded = self.state_queues()
        live = self.moto_queues()
        per_index: Counter[int] = Counter()
        for name in live:
            m = PREFIX.match(name)
            assert m is not None, name
            i = int(m.group(1))
            per_index[i] += 1
            assert name in recorded.values() or self.begun[i] > 0, (
                f"queue {name} exists, is not in state and was never named as begun")
        for i, n in per_index.items():
            assert n <= 1 + self.begun[i], f"instance {i} created {n} times ({self.begun[i]})"
        for name in recorded.values():
            assert name in live, f"state records {name}, which does not exist"
        assert leftover_processes(str(self.dir)) == []
        return recorded


@pytest.fixture(scope="module")
def aws_mirror(aws_provider_binary: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_mirror(aws_provider_binary, tmp_path_factory.mktemp("aws-mirror"))


def _workdir(base: Path, name: str, moto_url: str, mirror: Path) -> Path:
    d = base / name
    d.mkdir()
    (d / "main.tf").write_text(config(moto_url))
    r = subprocess.run([*GROUNDPLAN, "init", f"-plugin-dir={mirror}", "-no-color"], cwd=d,
                       env=tool_env(d), capture_output=True, text=True, timeout=300,
                       check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    return d


def test_sigkilled_applies_reconcile(aws_mirror: Path, moto: str, tmp_path: Path) -> None:
    rng = random.Random(SEED)
    kills = partial = 0
    for n in range(ROUNDS):
        reset(moto)
        r = Round(_workdir(tmp_path, f"round{n}", moto, aws_mirror), moto)
        for _ in range(2):
            remaining = QUEUES - len(r.state_queues())
            kills += r.killed_apply(rng.randint(1, max(1, remaining)),
                                    rng.uniform(0.0, 0.2))
            r.reconcile()
            partial += 0 < len(r.check()) < QUEUES
        out = r.run("apply", "-auto-approve")
        assert out.returncode == 0, out.stdout + out.stderr
        recorded = r.check()
        assert sorted(recorded) == list(range(QUEUES))
    plan = r.run("plan", "-detailed-exitcode")
    assert plan.returncode == 0, plan.stdout + plan.stderr
    assert kills >= 10
    assert partial >= 5  # kills that stopped the apply phase itself
