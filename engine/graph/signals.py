"""Stop requests: what Ctrl-C (SIGINT) and SIGTERM do to a running operation.

A `StopController` counts stop requests. The first one asks the operation to stop gracefully:
the walker schedules no new work, lets running nodes finish and reports the walk as
interrupted; listeners (for example "tell every provider to stop") are called once. The second
one calls the hard-exit callback (default: leave the process at once with status 1).

`install_signal_handlers()` routes SIGINT/SIGTERM to a controller while its `with` block runs
and restores the previous handlers afterwards. Python only allows installing handlers from the
main thread; elsewhere it installs nothing and the controller is still usable by hand.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any


def _exit_now() -> None:
    os._exit(1)


class StopController:
    """Thread-safe stop request state. `request_stop()` may be called from a signal handler
    or any thread."""

    def __init__(self, on_hard_exit: Callable[[], None] = _exit_now) -> None:
        self._on_hard_exit = on_hard_exit
        self._lock = threading.Lock()
        self._event = threading.Event()
        self._count = 0
        self._listeners: list[Callable[[], None]] = []

    @property
    def stop_requested(self) -> bool:
        return self._event.is_set()

    @property
    def requests(self) -> int:
        """How many stop requests arrived."""
        return self._count

    def add_listener(self, listener: Callable[[], None]) -> None:
        """Call `listener` on the first stop request (at once if it already happened)."""
        with self._lock:
            already = self._count > 0
            if not already:
                self._listeners.append(listener)
        if already:
            listener()

    def request_stop(self) -> None:
        """First call: graceful stop (listeners run). Later calls: the hard-exit callback."""
        with self._lock:
            self._count += 1
            first = self._count == 1
            listeners = list(self._listeners) if first else []
        if first:
            self._event.set()
            for listener in listeners:
                listener()
        else:
            self._on_hard_exit()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until a stop is requested or `timeout` passes; whether one was."""
        return self._event.wait(timeout)


@contextmanager
def install_signal_handlers(
    controller: StopController,
    signals: tuple[signal.Signals, ...] = (signal.SIGINT, signal.SIGTERM),
) -> Iterator[bool]:
    """Send `signals` to `controller` inside the block; yields whether handlers were
    installed (False off the main thread). Previous handlers are restored on exit."""
    if threading.current_thread() is not threading.main_thread():
        yield False
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        controller.request_stop()

    previous: dict[signal.Signals, Any] = {}
    try:
        for sig in signals:
            previous[sig] = signal.signal(sig, handler)
        yield True
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
