"""terraform's communicator.Retry: try to connect until it works, fails fatally, or time is up.

`retry(attempt, timeout, stop, abandon)` calls `attempt()` in a worker thread, again after
each `Retryable` failure with terraform's backoff (no wait before the first try, then 1 s,
doubling to at most 20 s). It returns None once an attempt returns normally, the text of a
`Fatal` failure at once, and otherwise - when `timeout` seconds have passed or `stop` is set,
even in the middle of an attempt - `timeout - last error: <text>` or
`interrupted - last error: <text>`, where the text is that of the last failed attempt, or
`<nil>` when none has finished yet (Go's words). An attempt still running then is abandoned:
`abandon()` is called (it should close whatever the attempt is opening), and called again if
the abandoned attempt finishes with a connection after all, so nothing is left open.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

INITIAL_DELAY = 1.0
MAX_DELAY = 20.0
_POLL = 0.05


class Retryable(Exception):
    """An attempt failed in a way worth trying again; `str(exc)` is terraform's text."""


class Fatal(Exception):
    """An attempt failed in a way no retry mends; `str(exc)` is terraform's text."""


class _State:
    __slots__ = ("abandoned", "done", "last", "lock", "result")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.abandoned = threading.Event()
        self.last: str | None = None
        self.result: str | None = None


def _work(attempt: Callable[[], None], state: _State, abandon: Callable[[], None]) -> None:
    delay = 0.0
    while not state.abandoned.wait(delay):
        outcome: str | None = None
        finished = True
        try:
            attempt()
        except Fatal as exc:
            outcome = str(exc)
        except Retryable as exc:
            outcome, finished = str(exc), False
        with state.lock:
            if state.abandoned.is_set():
                if outcome is None:
                    abandon()
                return
            state.last = outcome
            if finished:
                state.result = outcome
                state.done.set()
                return
        delay = INITIAL_DELAY if delay == 0 else min(delay * 2, MAX_DELAY)


def retry(attempt: Callable[[], None], timeout: float, stop: threading.Event,
          abandon: Callable[[], None]) -> str | None:
    """Run `attempt` until it succeeds (None) or fails for good (the error text); see the
    module docstring."""
    state = _State()
    if stop.is_set():
        return "interrupted - last error: <nil>"
    deadline = time.monotonic() + timeout
    threading.Thread(target=_work, args=(attempt, state, abandon), daemon=True,
                     name="provisioner-connect").start()
    reason = "timeout"
    while not state.done.wait(max(0.0, min(_POLL, deadline - time.monotonic()))):
        if stop.is_set():
            reason = "interrupted"
            break
        if time.monotonic() >= deadline:
            break
    with state.lock:
        if state.done.is_set():
            return state.result
        state.abandoned.set()
        last = state.last
    abandon()
    return f"{reason} - last error: {last if last is not None else '<nil>'}"
