"""Time arithmetic as Go's time package does it, for the time resources.

- `parse_rfc3339` / `format_rfc3339`: RFC 3339 timestamps (`Z` for UTC, as Go formats them);
- `add_date(t, years, months, days)`: Go's `Time.AddDate`, which normalises overflowing days
  (January 31 plus one month is March 2 or 3);
- `parse_duration`: Go's `time.ParseDuration` ("1h30m", "300ms", "-2.5s");
- `parts(t)`: the year/month/day/hour/minute/second/unix attributes.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

__all__ = ["add_date", "format_rfc3339", "now", "parse_duration", "parse_rfc3339", "parts"]

_UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0,
          "h": 3600.0}
_DURATION_PART = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)")


def now() -> dt.datetime:
    """The current UTC time, to the second."""
    return dt.datetime.now(dt.UTC).replace(microsecond=0)


def parse_rfc3339(text: str) -> dt.datetime:
    """A timestamp such as `2020-02-12T06:36:13Z` or with a numeric offset."""
    if not re.match(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$", text):
        raise ValueError(f'parsing time "{text}" as RFC3339: invalid format')
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def format_rfc3339(t: dt.datetime) -> str:
    text = t.replace(microsecond=0).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def add_date(t: dt.datetime, years: int = 0, months: int = 0, days: int = 0) -> dt.datetime:
    """Go's AddDate: add years and months to the calendar fields, then normalise."""
    total = t.year * 12 + (t.month - 1) + years * 12 + months
    y, m = divmod(total, 12)
    first = t.replace(year=y, month=m + 1, day=1)
    return first + dt.timedelta(days=t.day - 1 + days)


def parse_duration(text: str) -> dt.timedelta:
    """Go's time.ParseDuration."""
    s = text
    sign = 1
    if s[:1] in "+-" and s:
        sign, s = (-1 if s[0] == "-" else 1), s[1:]
    if s == "0":
        return dt.timedelta(0)
    pos, seconds = 0, 0.0
    while pos < len(s):
        m = _DURATION_PART.match(s, pos)
        if not m:
            raise ValueError(f'time: invalid duration "{text}"')
        seconds += float(m.group(1)) * _UNITS[m.group(2)]
        pos = m.end()
    if not s:
        raise ValueError(f'time: invalid duration "{text}"')
    return dt.timedelta(seconds=sign * seconds)


def parts(t: dt.datetime) -> dict[str, Any]:
    """The numeric calendar attributes of `t` (in its own offset) and its Unix time."""
    return {"year": t.year, "month": t.month, "day": t.day, "hour": t.hour,
            "minute": t.minute, "second": t.second, "unix": int(t.timestamp())}
