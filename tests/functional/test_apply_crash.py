"""Crash safety of apply: `groundplan apply` SIGKILLed at seeded moments, then reconciled.

A configuration of 1,000 `terraform_data.item` instances (input from `count.index`) and three
`terraform_data.after` instances that depend on items is applied through the real CLI as a
subprocess and killed with SIGKILL. Kill moments are seeded and spread over the whole run:
four during start-up and planning (a seeded fraction of the time to the first `Creating...`
line, measured by a complete apply first), the other twenty during the apply phase: a seeded
few milliseconds after the k-th `Creating...` line, k a seeded fraction of the instances
still to create (progress rather than time, so that a busy machine does not move the kills
past the end of the apply).

Each directory sees two kills: one from an empty state, one from the state the first
recovery wrote (so recovery also runs over a persisted snapshot with a lineage and serial).
After each kill the next `groundplan plan` (or, in some directories, `apply -auto-approve`)
must reconcile the journal the killed run left. The journal is read independently before
that run and used as the oracle:

- every instance with a recorded result is in state afterwards, exactly once, with the
  input its index gives; nothing else is (none lost, none doubled);
- the recovery warning names exactly the instances whose intent has no result, each once,
  and none of them is in state;
- every instance the killed run printed as `Creating...` or `Creation complete` is in one
  of the two groups;
- the killed run only began operations on instances that were not in state before it (an
  instance already recorded is never created again);
- the plan proposes exactly the missing instances, and a recovered object keeps its id
  through later applies; the journal is gone and the lineage is kept.

Some directories then converge with `apply -auto-approve`, after which
`plan -detailed-exitcode` exits 0. Twice, the recovered state file is read by
`terraform show -json`.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]

ITEMS = 1000
AFTER = 3
MAIN_TF = f"""
resource "terraform_data" "item" {{
  count = {ITEMS}
  input = "item-${{count.index}}"
}}

resource "terraform_data" "after" {{
  count = {AFTER}
  input = "${{terraform_data.item[count.index * 400].output}}/after-${{count.index}}"
}}
"""
EXPECTED_INPUT = {f"terraform_data.item[{i}]": f"item-{i}" for i in range(ITEMS)} | {
    f"terraform_data.after[{i}]": f"item-{i * 400}/after-{i}" for i in range(AFTER)
}
ALL = frozenset(EXPECTED_INPUT)

SEED = 20261130
CHAINS = 12  # directories; two kills each
MIN_KILLS = 20
MIN_JOURNALS = 18  # kills that stopped the apply phase itself (leaving a journal)
STARTUP_SLOTS = frozenset({4, 11, 16, 23})  # kills (chain * 2 + step) before the apply phase
PHASE_SHARE = 0.95  # apply-phase kills come after up to 95% of the creations have begun
JITTER = 0.02  # seconds; a seeded delay after the chosen Creating... line
CONVERGE_EVERY = 4  # every fourth directory converges (recovering with apply)
SHOW_JSON_IN = (0, 1)  # directories whose recovered state terraform show -json reads

STATE = "terraform.tfstate"
JOURNAL = STATE + ".journal"
CREATING = re.compile(r"^(\S+): Creating\.\.\.$", re.M)
CREATED = re.compile(r"^(\S+): Creation complete after ", re.M)
PLAN_LINE = re.compile(r"^Plan: (\d+) to add, (\d+) to change, (\d+) to destroy\.$", re.M)
WARNING_SUMMARY = "Resources may have changed without being recorded in state"
BEGUN_LINE = re.compile(r"^\s*(?:│\s*)?- (\S+) \((\w+)\)\s*$")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_VAR_", "TF_CLI_ARGS"))}
    env.update(TF_CLI_CONFIG_FILE=os.devnull, CHECKPOINT_DISABLE="1", PYTHONPATH=str(ROOT))
    env.pop("TF_LOG", None)
    return env


GP = [sys.executable, "-m", "engine.cli.main"]


def gp(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GP, *args, "-no-color"], cwd=cwd, env=_env(), capture_output=True,
                          text=True, timeout=300, check=False)


# ---------------------------------------------------------------------------- a killed apply
@dataclass
class Killed:
    killed: bool  # False when the apply ended before its kill moment
    returncode: int
    output: str
    journal: bytes | None  # the journal left behind, None when there is none


def _read_from(path: Path, offset: int) -> tuple[str, int]:
    with open(path, "rb") as fh:
        fh.seek(offset)
        data = fh.read()
    return data.decode("utf-8", "replace"), offset + len(data)


def apply_and_kill(cwd: Path, *, startup_delay: float | None = None, started: int = 0,
                   jitter: float = 0.0) -> Killed:
    """Run `apply -auto-approve` and SIGKILL it: `startup_delay` seconds after it starts or,
    when that is None, `jitter` seconds after its `started`-th `Creating...` line."""
    out_path = cwd / "apply.out"
    with open(out_path, "wb") as out:
        proc = subprocess.Popen([*GP, "apply", "-auto-approve", "-no-color"], cwd=cwd,
                                env=_env(), stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + startup_delay if startup_delay is not None else None
    offset, partial, creating = 0, "", 0
    try:
        while proc.poll() is None:
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                break
            if deadline is None:
                text, offset = _read_from(out_path, offset)
                *lines, partial = (partial + text).split("\n")
                creating += sum(line.endswith(": Creating...") for line in lines)
                if creating >= started:
                    deadline = now + jitter
            time.sleep(0.002)
        killed = proc.poll() is None
        if killed:
            os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    journal = cwd / JOURNAL
    return Killed(killed, proc.returncode, out_path.read_text("utf-8", "replace"),
                  journal.read_bytes() if journal.exists() else None)


# ---------------------------------------------------------------------------- the oracle
@dataclass
class JournalFacts:
    intents: dict[int, str] = field(default_factory=dict)
    results: dict[int, tuple[str, str | None]] = field(default_factory=dict)  # addr, id

    @property
    def recorded(self) -> dict[str, str]:
        """Address -> id of each object a result recorded."""
        return {addr: oid for addr, oid in self.results.values() if oid is not None}

    @property
    def removed(self) -> set[str]:
        return {addr for addr, oid in self.results.values() if oid is None}

    @property
    def begun(self) -> set[str]:
        return {a for s, a in self.intents.items() if s not in self.results}


def parse_journal(data: bytes) -> JournalFacts:
    """The journal, read the way recovery must: a torn final segment is ignored."""
    facts = JournalFacts()
    segments = data.split(b"\n")
    for i, raw in enumerate(segments):
        if not raw.strip():
            continue
        try:
            rec = json.loads(raw)
        except ValueError:
            assert i == len(segments) - 1, f"unreadable journal line {i + 1}: {raw[:200]!r}"
            continue
        if rec["kind"] == "intent":
            facts.intents[rec["seq"]] = rec["addr"]
        elif rec["kind"] == "result":
            obj = rec["object"]
            facts.results[rec["seq"]] = (rec["addr"], None if obj is None else
                                         obj["attributes"]["id"])
            assert rec["status"] == "ok", rec
    return facts


def state_instances(cwd: Path) -> tuple[dict[str, dict], dict]:
    """Instance address -> attributes of the state file (asserting each is there once)."""
    path = cwd / STATE
    if not path.exists() or path.stat().st_size == 0:
        return {}, {}
    doc = json.loads(path.read_text("utf-8"))
    assert doc["version"] == 4 and doc["lineage"], doc.get("lineage")
    out: dict[str, dict] = {}
    seen_resources: set[tuple[str, str, str]] = set()
    for res in doc["resources"]:
        key = (res["mode"], res["type"], res["name"])
        assert key not in seen_resources, f"resource {key} twice in state"
        seen_resources.add(key)
        for inst in res["instances"]:
            assert "deposed" not in inst, inst
            addr = f"{res['type']}.{res['name']}"
            if "index_key" in inst:
                addr += f"[{inst['index_key']}]"
            assert addr not in out, f"{addr} twice in state"
            out[addr] = inst["attributes"]
    return out, doc


def begun_warning(output: str) -> list[str]:
    """The instances the recovery warning names (empty when there is no such warning)."""
    if WARNING_SUMMARY not in output:
        return []
    assert output.count(WARNING_SUMMARY) == 1, output[:3000]
    section = output.split(WARNING_SUMMARY, 1)[1]
    names: list[str] = []
    started = False
    for line in section.splitlines():
        m = BEGUN_LINE.match(line)
        if m:
            names.append(m.group(1))
            assert m.group(2) == "create", line
            started = True
        elif started:
            break
    assert started, f"the warning names no instance:\n{section[:2000]}"
    return names


def check_recovery(cwd: Path, run: Killed, before: dict[str, dict],
                   recovery: subprocess.CompletedProcess[str], *, converged: bool) -> dict:
    """Everything a recovery must guarantee; returns the state instances after it."""
    what = f"{cwd.name} (killed={run.killed}, rc={run.returncode})"
    output = recovery.stdout + recovery.stderr
    assert not (cwd / JOURNAL).exists(), f"{what}: the journal is still there\n{output[-2000:]}"
    after, doc = state_instances(cwd)
    for addr, attrs in after.items():
        assert addr in ALL, f"{what}: unexpected {addr} in state"
        assert attrs["input"]["value"] == EXPECTED_INPUT[addr], (addr, attrs)
        assert attrs["output"] == attrs["input"] and attrs["id"], (addr, attrs)
    for addr, attrs in before.items():
        assert after[addr]["id"] == attrs["id"], f"{what}: {addr} was created again"

    facts = parse_journal(run.journal) if run.journal is not None else JournalFacts()
    warned = begun_warning(output)
    assert len(warned) == len(set(warned)), f"{what}: named twice: {warned}"
    assert set(warned) == facts.begun, (
        f"{what}: warning names {sorted(set(warned) - facts.begun)[:10]} not begun, misses "
        f"{sorted(facts.begun - set(warned))[:10]}")
    assert not facts.removed, f"{what}: removals recorded: {sorted(facts.removed)[:10]}"
    for addr, oid in facts.recorded.items():
        assert addr in after, f"{what}: {addr} was recorded, but it is not in state"
        assert after[addr]["id"] == oid, f"{what}: {addr} is not the object recorded"
    began = set(facts.intents.values())
    assert not began & set(before), f"{what}: began again: {sorted(began & set(before))[:10]}"
    printed = set(CREATING.findall(run.output)) | set(CREATED.findall(run.output))
    if run.journal is not None:
        assert printed <= began, f"{what}: printed, no intent: {sorted(printed - began)[:10]}"
    else:  # stopped before the journal was opened or after the final state was written
        assert printed <= set(after), f"{what}: printed, lost: {sorted(printed - set(after))[:10]}"

    if converged:
        assert set(after) == ALL, f"{what}: missing {sorted(ALL - set(after))[:10]}"
        assert recovery.returncode == 0, output[-3000:]
    elif run.journal is None:  # nothing begun yet, or everything already stored
        assert set(after) in (set(before), ALL), f"{what}: {len(after)} of {len(ALL)} in state"
        assert not warned
    else:
        expected = set(before) | set(facts.recorded)
        assert set(after) == expected, (
            f"{what}: lost {sorted(expected - set(after))[:10]}, "
            f"extra {sorted(set(after) - expected)[:10]}")
        assert not set(warned) & set(after), f"{what}: {sorted(set(warned) & set(after))[:10]}"
    if not converged:
        missing = len(ALL) - len(after)
        if missing:
            assert recovery.returncode == 2, output[-3000:]
            m = PLAN_LINE.search(recovery.stdout)
            assert m is not None, recovery.stdout[-3000:]
            assert m.groups() == (str(missing), "0", "0"), (what, m.group(0), missing)
        else:
            assert recovery.returncode == 0, output[-3000:]
    return doc


# ---------------------------------------------------------------------------- the test
def _calibrate(cwd: Path) -> tuple[float, float]:
    """Seconds to the first `Creating...` line and from it to `Apply complete!`, measured
    with a complete apply (whose result is checked too)."""
    out_path = cwd / "apply.out"
    with open(out_path, "wb") as out:
        proc = subprocess.Popen([*GP, "apply", "-auto-approve", "-no-color"], cwd=cwd,
                                env=_env(), stdout=out, stderr=subprocess.STDOUT)
    start = time.monotonic()
    first = done = None
    offset, carry = 0, ""
    while proc.poll() is None or done is None:
        text, offset = _read_from(out_path, offset)
        now = time.monotonic() - start
        if first is None and ": Creating..." in carry + text:
            first = now
        if "Apply complete!" in carry + text:
            done = now
        carry = text[-32:]
        if proc.poll() is not None and done is None:
            break
        time.sleep(0.002)
    assert proc.wait() == 0 and first is not None and done is not None, out_path.read_text()[-3000:]
    assert not (cwd / JOURNAL).exists()
    assert set(state_instances(cwd)[0]) == ALL
    return first, max(done - first, 0.05)


def test_apply_killed_at_seeded_moments_is_reconciled(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    calib = tmp_path / "calibrate"
    calib.mkdir()
    (calib / "main.tf").write_text(MAIN_TF)
    to_first, phase = _calibrate(calib)
    print(f"complete apply: {to_first:.2f} s to the first Creating..., then {phase:.2f} s")

    kills = 0
    with_journal = 0
    showed = 0
    plan_no_change = 0
    slots = CHAINS * 2

    def stratified() -> list[float]:
        """One seeded fraction in each of CHAINS equal slices of [0, 1), shuffled."""
        fracs = [(i + rng.random()) / CHAINS for i in range(CHAINS)]
        rng.shuffle(fracs)
        return fracs

    fractions = [stratified(), stratified()]  # per step: kill moments spread over the window
    for chain in range(CHAINS):
        cwd = tmp_path / f"chain{chain:02d}"
        cwd.mkdir()
        (cwd / "main.tf").write_text(MAIN_TF)
        lineage = ""
        for step in range(2):
            slot = chain * 2 + step
            before, _ = state_instances(cwd)
            remaining = len(ALL) - len(before)
            frac = fractions[step][chain]
            startup = slot in STARTUP_SLOTS
            if startup:
                run = apply_and_kill(cwd, startup_delay=frac * to_first)
            else:
                started = max(1, round(PHASE_SHARE * frac * remaining))
                run = apply_and_kill(cwd, started=started, jitter=rng.random() * JITTER)
            print(f"{cwd.name} step {step}: {remaining} to create, "
                  f"{'startup' if startup else 'apply'} kill at {frac:.2f}, "
                  f"killed={run.killed}, journal={run.journal is not None}, "
                  f"persisted after the kill: {len(state_instances(cwd)[0])}")
            kills += run.killed
            with_journal += run.journal is not None
            assert run.returncode == (-signal.SIGKILL if run.killed else 0), run.output[-3000:]
            converge = step == 1 and chain % CONVERGE_EVERY == 0
            if converge:
                recovery = gp(cwd, "apply", "-auto-approve")
            else:
                recovery = gp(cwd, "plan", "-detailed-exitcode")
            doc = check_recovery(cwd, run, before, recovery, converged=converge)
            if doc:
                if lineage:
                    assert doc["lineage"] == lineage, f"{cwd.name}: the state forked"
                lineage = doc["lineage"]
            if step == 1 and chain in SHOW_JSON_IN:
                shown = terraform_show(cwd)
                assert {r["address"] for r in shown} == set(state_instances(cwd)[0])
                showed += 1
            if converge:
                final = gp(cwd, "plan", "-detailed-exitcode")
                assert final.returncode == 0, final.stdout[-3000:] + final.stderr
                assert "No changes." in final.stdout
                plan_no_change += 1

    assert kills >= MIN_KILLS, f"only {kills} of {slots} applies were killed before they ended"
    assert with_journal >= MIN_JOURNALS, f"only {with_journal} kills left a journal"
    assert showed == len(SHOW_JSON_IN)
    assert plan_no_change == len(range(0, CHAINS, CONVERGE_EVERY))


def terraform_show(cwd: Path) -> list[dict]:
    """The resources `terraform show -json` reads from the state file (in a scratch copy)."""
    terraform = shutil.which("terraform")
    if terraform is None:
        pytest.fail("terraform (v1.11) is not on PATH: the state file cannot be checked with "
                    "`terraform show -json`", pytrace=False)
    scratch = cwd / "show"
    scratch.mkdir()
    shutil.copy(cwd / STATE, scratch / STATE)
    proc = subprocess.run([terraform, "show", "-json", STATE], cwd=scratch, env=_env(),
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads(proc.stdout)
    resources = doc.get("values", {}).get("root_module", {}).get("resources", [])
    for r in resources:
        assert r["values"]["input"] == EXPECTED_INPUT[r["address"]], r
    return resources
