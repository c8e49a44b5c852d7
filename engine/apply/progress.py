"""`Ticker`: "Still creating... [10s elapsed]" for provider calls that take a while.

One background thread per apply walk watches the running provider calls and calls
`hooks.still_applying(addr, action, elapsed)` about every `interval` seconds of each call's
run time; `running(addr, action)` is a context manager around one call.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from engine.addrs import AbsResourceInstance
from engine.plans.hooks import Hooks
from engine.plans.model import Action


class Ticker:
    """See the module docstring."""

    def __init__(self, hooks: Hooks, interval: float = 10.0) -> None:
        self.hooks = hooks
        self.interval = interval
        self._mu = threading.Lock()
        self._running: dict[int, tuple[AbsResourceInstance, Action, float, int]] = {}
        self._ids = itertools.count()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="still-applying",
                                            daemon=True)
            self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    @contextmanager
    def running(self, addr: AbsResourceInstance, action: Action) -> Iterator[None]:
        token = next(self._ids)
        with self._mu:
            self._running[token] = (addr, action, time.monotonic(), 0)
        try:
            yield
        finally:
            with self._mu:
                self._running.pop(token, None)

    def _loop(self) -> None:
        tick = min(1.0, self.interval / 2)
        while not self._stop.wait(tick):
            now = time.monotonic()
            due: list[tuple[Any, Action, float]] = []
            with self._mu:
                for token, (addr, action, start, told) in list(self._running.items()):
                    elapsed = now - start
                    n = int(elapsed // self.interval)
                    if n > told:
                        self._running[token] = (addr, action, start, n)
                        due.append((addr, action, n * self.interval))
            for addr, action, elapsed in due:
                self.hooks.still_applying(addr, action, elapsed)
