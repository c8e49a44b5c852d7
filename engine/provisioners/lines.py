"""Splitting a child process's output into lines as they arrive, as Terraform's local-exec does.

Terraform reads a provisioner's merged stdout/stderr through a line reader that emits each
line (without its `\\n`) as soon as the newline arrives, and also flushes a partial line once
no more bytes have come for 100 ms (so `printf abc; sleep 1` shows `abc` at once). Empty lines
are emitted as empty strings; an idle period with nothing buffered emits nothing. Bytes are
decoded as UTF-8 with replacement characters.

`LineSplitter(emit)` is that splitting for any byte stream: `feed(chunk)` emits the complete
lines, `flush()` the partial line buffered (if any). `read_lines(fd, emit, keep, abandon)` runs
the loop on a readable file descriptor until end of file (every writer closed it) or until
`abandon` is set; `keep` receives every raw chunk (for the bounded copy of the output that goes
into error messages). The SSH communicator feeds a splitter from its channels.
"""

from __future__ import annotations

import os
import select
import threading
from collections.abc import Callable

IDLE_FLUSH_SECONDS = 0.1
_CHUNK = 65536


def _decode(data: bytes | bytearray) -> str:
    return bytes(data).decode("utf-8", errors="replace")


class LineSplitter:
    """Bytes in, lines out (see the module docstring)."""

    __slots__ = ("_buf", "_emit")

    def __init__(self, emit: Callable[[str], None]) -> None:
        self._emit = emit
        self._buf = bytearray()

    @property
    def pending(self) -> bool:
        """Whether a partial line is buffered."""
        return bool(self._buf)

    def feed(self, chunk: bytes) -> None:
        """Add `chunk`, emitting every line it completes."""
        buf = self._buf
        buf += chunk
        start = 0
        while (nl := buf.find(b"\n", start)) >= 0:
            self._emit(_decode(buf[start:nl]))
            start = nl + 1
        del buf[:start]

    def flush(self) -> None:
        """Emit the partial line buffered, if any."""
        if self._buf:
            self._emit(_decode(self._buf))
            self._buf.clear()


def read_lines(
    fd: int,
    emit: Callable[[str], None],
    keep: Callable[[bytes], None],
    abandon: threading.Event,
    idle: float = IDLE_FLUSH_SECONDS,
) -> None:
    """Read `fd` to its end, calling `emit` once per line (see module doc); stop early when
    `abandon` is set (a partial line buffered then is still emitted)."""
    lines = LineSplitter(emit)
    while not abandon.is_set():
        ready, _, _ = select.select([fd], [], [], idle)
        if not ready:
            lines.flush()
            continue
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            break
        keep(chunk)
        lines.feed(chunk)
    lines.flush()


class TailBuffer:
    """The last `limit` bytes written to it (Terraform keeps 8 KiB of output for errors)."""

    __slots__ = ("_data", "limit")

    def __init__(self, limit: int = 8 * 1024) -> None:
        self.limit = limit
        self._data = bytearray()

    def write(self, chunk: bytes) -> None:
        """Append `chunk`, dropping the oldest bytes beyond the limit."""
        self._data += chunk
        excess = len(self._data) - self.limit
        if excess > 0:
            del self._data[:excess]

    def text(self) -> str:
        """The kept bytes decoded as UTF-8 (invalid sequences replaced)."""
        return _decode(self._data)
