"""Stop requests and SIGINT/SIGTERM handling (real signals, in a child process)."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

from engine.graph.signals import StopController, install_signal_handlers

ROOT = Path(__file__).resolve().parents[3]


def test_first_request_stops_and_notifies_second_hard_exits() -> None:
    exits: list[int] = []
    heard: list[str] = []
    c = StopController(on_hard_exit=lambda: exits.append(1))
    c.add_listener(lambda: heard.append("first"))
    assert not c.stop_requested and not c.wait(0)
    c.request_stop()
    assert c.stop_requested and c.wait(0) and heard == ["first"] and exits == []
    c.add_listener(lambda: heard.append("late"))  # already stopping: called at once
    assert heard == ["first", "late"]
    c.request_stop()
    assert exits == [1] and heard == ["first", "late"] and c.requests == 2


def test_handlers_restored_after_block() -> None:
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    with install_signal_handlers(StopController()) as installed:
        assert installed
        assert signal.getsignal(signal.SIGINT) is not before[0]
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_no_handlers_off_the_main_thread() -> None:
    seen: list[bool] = []
    before = signal.getsignal(signal.SIGINT)

    def run() -> None:
        with install_signal_handlers(StopController()) as installed:
            seen.append(installed)

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert seen == [False] and signal.getsignal(signal.SIGINT) is before


CHILD = textwrap.dedent(
    """
    import os, signal, sys, time, threading
    from engine.graph.digraph import DiGraph
    from engine.diags import Diagnostics
    from engine.graph.signals import StopController, install_signal_handlers
    from engine.graph.walker import walk

    sig = getattr(signal, sys.argv[1])
    twice = sys.argv[2] == "twice"
    g = DiGraph([(i, i + 1) for i in range(9)])
    ran = []

    def hard_exit():
        print("HARD EXIT", flush=True)
        os._exit(3)

    def cb(n):
        ran.append(n)
        if n == 2:
            os.kill(os.getpid(), sig)
            if twice:
                time.sleep(0.2)
                os.kill(os.getpid(), sig)
            time.sleep(0.3)  # the running node finishes after the signal
        return Diagnostics()

    before = signal.getsignal(signal.SIGINT)  # SIG_IGN when started as a background job
    stop = StopController(on_hard_exit=hard_exit)
    with install_signal_handlers(stop):
        res = walk(g, cb, stop=stop)
    print("ran", ran)
    print("interrupted", res.interrupted, "completed", len(res.completed),
          "not_started", sorted(res.not_started))
    print("restored", signal.getsignal(signal.SIGINT) is before)
    """
)


def _child(sig: str, mode: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CHILD, sig, mode],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_sigint_stops_walk_gracefully() -> None:
    p = _child("SIGINT", "once")
    assert p.returncode == 0, p.stderr
    assert "ran [0, 1, 2]" in p.stdout
    assert "interrupted True completed 3 not_started [3, 4, 5, 6, 7, 8, 9]" in p.stdout
    assert "restored True" in p.stdout


def test_sigterm_stops_walk_gracefully() -> None:
    p = _child("SIGTERM", "once")
    assert p.returncode == 0, p.stderr
    assert "interrupted True completed 3" in p.stdout


def test_second_signal_exits_hard() -> None:
    p = _child("SIGINT", "twice")
    assert p.returncode == 3, p.stderr
    assert "HARD EXIT" in p.stdout and "interrupted" not in p.stdout
