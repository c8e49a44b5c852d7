"""Crash test of the state layer: SIGKILL a process mid-apply, then recover in a fresh one.

A child process locks the state, records 1,000 instance creations through the state manager
from 4 worker threads (intent, simulated provider work, result) with a snapshot timer running,
and reports on stdout, with one atomic write per line, `B i` once `record_intent` returned and
`R i` once `record_result` returned. The parent kills it with SIGKILL at a seeded random moment,
then a fresh manager takes the lock (the dead holder's lock must be free) and recovers:

- every instance whose result was acknowledged is in the state, exactly once, with its object;
- nothing is in the state that never began;
- every instance that began without an acknowledged result is either in the state (its result
  reached the journal just before the kill) or named as begun-without-result — never both;
- no instance with an acknowledged result is named as begun-without-result.

A second group kills the child during the final state write (a large state, so the write
takes a while): the state file must always read whole, and recovery must give every instance.
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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from engine.states.local import LocalState
from engine.states.lock import FilesystemLocker
from engine.states.manager import StateManager
from engine.states.statefile import read_state

REPO = Path(__file__).resolve().parents[3]
N = 1000

CHILD = r"""
import os, sys, threading, time
sys.path.insert(0, sys.argv[1])
from engine.addrs import parse_abs_resource_instance
from engine.states.local import LocalState
from engine.states.lock import FilesystemLocker
from engine.states.manager import StateManager
from engine.states.state import ResourceInstanceObject

workdir, n, pad, interval = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
os.chdir(workdir)
P = 'provider["registry.terraform.io/hashicorp/null"]'
mgr = StateManager(LocalState("terraform.tfstate"), FilesystemLocker("terraform.tfstate"),
                   snapshot_interval=interval)
def say(text):
    os.write(1, (text + "\n").encode())
d = mgr.lock("OperationTypeApply")
d.extend(mgr.recover())
d.extend(mgr.begin_apply())
assert not d.has_errors, [x.summary for x in d]
say("ready")
def work(t):
    for i in range(t, n, 4):
        addr = parse_abs_resource_instance(f"null_resource.r[{i}]")
        seq, d = mgr.record_intent(addr, "create")
        assert not d
        say(f"B {i}")
        x = 0
        for k in range(2000):  # the provider's work
            x += k
        obj = ResourceInstanceObject(attributes={"id": f"id-{i}", "pad": "x" * pad})
        assert not mgr.record_result(addr, seq, obj, provider=P)
        say(f"R {i}")
threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
for th in threads: th.start()
for th in threads: th.join()
say("finishing")
d = mgr.finish()
assert not d.has_errors
say("done")
mgr.unlock()
"""


def _spawn(workdir: Path, pad: int, interval: float) -> subprocess.Popen[bytes]:
    script = workdir.parent / f"{workdir.name}-child.py"
    script.write_text(CHILD)
    return subprocess.Popen(
        [sys.executable, str(script), str(REPO), str(workdir), str(N), str(pad), str(interval)],
        stdout=subprocess.PIPE,
    )


def _wait_for(proc: subprocess.Popen[bytes], marker: bytes) -> bytes:
    assert proc.stdout is not None
    seen = b""
    while True:
        line = proc.stdout.readline()
        assert line, f"child ended before {marker!r}: {proc.wait()}"
        seen += line
        if line.strip() == marker:
            return seen


def _kill_and_collect(proc: subprocess.Popen[bytes], delay: float, before: bytes) -> set[str]:
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    assert proc.stdout is not None
    rest = proc.stdout.read()
    proc.wait()
    return set((before + rest).decode().splitlines())


def _recover(workdir: Path) -> tuple[dict[int, int], list[int], str]:
    """Recover with a fresh manager: {index: times present}, begun-unrecorded, state text."""
    path = str(workdir / "terraform.tfstate")
    mgr = StateManager(LocalState(path), FilesystemLocker(path), snapshot_interval=0,
                       errored_path=str(workdir / "errored.tfstate"))
    with mgr.locked("OperationTypeApply", 0.0) as diags:
        assert not diags.has_errors, [d.detail for d in diags]
        diags.extend(mgr.recover())
        assert not diags.has_errors, [d.detail for d in diags]
    assert not os.path.exists(mgr.journal_path)
    named: list[int] = []
    for w in diags.warnings:
        named += [int(m) for m in re.findall(r"null_resource\.r\[(\d+)\] \(create\)", w.detail)]
    text = Path(path).read_text() if os.path.exists(path) else ""
    present: dict[int, int] = {}
    if text.strip():
        sf, rdiags = read_state(text)
        assert sf is not None and not rdiags
        for rs in sf.state.resources:
            for inst in rs.instances:
                assert isinstance(inst.index_key, int) and inst.current is not None
                assert inst.current.attributes["id"] == f"id-{inst.index_key}"
                present[inst.index_key] = present.get(inst.index_key, 0) + 1
        raw = json.loads(text)  # the file itself has each instance once
        keys = [i["index_key"] for r in raw["resources"] for i in r["instances"]]
        assert len(keys) == len(set(keys))
    return present, named, text


def _check(lines: set[str], present: dict[int, int], named: list[int]) -> None:
    begun = {int(x[2:]) for x in lines if x.startswith("B ")}
    acked = {int(x[2:]) for x in lines if x.startswith("R ")}
    assert acked <= begun
    assert all(c == 1 for c in present.values()), "an instance is doubled"
    assert acked <= set(present), f"lost: {sorted(acked - set(present))[:10]}"
    assert set(present) <= begun | set(named), "an instance appeared that never began"
    assert len(named) == len(set(named)), "an instance is named twice"
    assert not (set(named) & set(present)), "named as unrecorded but recorded"
    assert not (set(named) & acked), "an acknowledged result was named as unrecorded"
    for i in begun - acked:
        assert (i in present) != (i in named), f"r[{i}] began, unaccounted for"


def _one_mid_apply_run(tmp: Path, seed: int, span: float) -> tuple[int, int, int]:
    workdir = tmp / f"run{seed}"
    workdir.mkdir()
    proc = _spawn(workdir, pad=16, interval=0.1)
    before = _wait_for(proc, b"ready")
    lines = _kill_and_collect(proc, random.Random(seed).uniform(0, span), before)
    present, named, _ = _recover(workdir)
    _check(lines, present, named)
    return len({x for x in lines if x.startswith("R ")}), len(present), len(named)


def test_sigkill_mid_apply_loses_and_doubles_nothing(tmp_path: Path) -> None:
    # calibrate: one uninterrupted run gives the time the 1,000 creations take here
    calib = tmp_path / "calib"
    calib.mkdir()
    proc = _spawn(calib, pad=16, interval=0.1)
    _wait_for(proc, b"ready")
    start = time.monotonic()
    _wait_for(proc, b"finishing")
    span = time.monotonic() - start
    assert proc.wait(timeout=60) == 0
    present, named, _ = _recover(calib)
    assert sorted(present) == list(range(N)) and named == []

    seeds = list(range(1, 25))  # 24 runs, each killed at its own seeded moment
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda s: _one_mid_apply_run(tmp_path, s, span * 1.05), seeds))
    acked_counts = [r[0] for r in results]
    # the kill moments really are spread over the run
    assert len(set(acked_counts)) >= 15
    assert sum(1 for a in acked_counts if 0 < a < N) >= 12


def _one_final_write_run(tmp: Path, seed: int, lo: float, hi: float) -> str:
    """Kill during `finish()`; the outcome: "before" the rename, "after" it, or "done"."""
    workdir = tmp / f"final{seed}"
    workdir.mkdir()
    proc = _spawn(workdir, pad=2000, interval=0)
    before = _wait_for(proc, b"finishing")
    lines = _kill_and_collect(proc, random.Random(seed).uniform(lo, hi), before)
    text = (workdir / "terraform.tfstate").read_text()
    if text.strip():  # the state file on disk always reads whole
        sf, diags = read_state(text)
        assert sf is not None and not diags
    torn_tmp = any(p.name.startswith(".tmp-") for p in workdir.iterdir())
    outcome = "done" if "done" in lines else ("after" if text.strip() else "before")
    if torn_tmp:
        outcome += "+tmp"
    present, named, _ = _recover(workdir)
    assert sorted(present) == list(range(N)), f"seed {seed}: {outcome}"
    assert named == []
    return outcome


def test_sigkill_during_final_state_write_is_atomic(tmp_path: Path) -> None:
    # calibrate: when, after "finishing", the temporary file of the final write appears
    # (serialising comes first) and when the run is done
    calib = tmp_path / "fcalib"
    calib.mkdir()
    proc = _spawn(calib, pad=2000, interval=0)
    _wait_for(proc, b"finishing")
    start = time.monotonic()
    write_started = 0.0
    while proc.poll() is None and not write_started:
        if any(p.name.startswith(".tmp-") for p in calib.iterdir()):
            write_started = time.monotonic() - start
        time.sleep(0.0005)
    _wait_for(proc, b"done")
    done = time.monotonic() - start
    assert proc.wait(timeout=60) == 0 and write_started
    outcomes = [
        _one_final_write_run(tmp_path, s, write_started * 0.9, done * 1.1)
        for s in range(100, 108)
    ]
    print("\nfinal-write kill outcomes:", outcomes)
    # the kills landed in or after the write, not only while serialising
    assert any(o != "before" for o in outcomes), outcomes
