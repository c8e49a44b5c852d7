"""Time as the control plane records it (UTC, RFC 3339 with milliseconds)."""

from __future__ import annotations

import datetime as _dt
import time


def now_iso() -> str:
    """The current time, e.g. `2026-12-01T22:09:56.123Z`."""
    t = _dt.datetime.now(_dt.UTC)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def epoch() -> float:
    """Seconds since the epoch."""
    return time.time()
