"""Go's `time.Duration` text: `time.ParseDuration` and `Duration.String`.

Durations are whole nanoseconds (Go's int64), so `parse_duration("1.5s")` is 1_500_000_000.
Errors carry Go's messages (`time: invalid duration "x"`, `time: missing unit in duration
"5"`, `time: unknown unit "d" in duration "5d"`), so callers can show them as terraform does.
"""

from __future__ import annotations

from engine.gocompat.strconv import quote

__all__ = ["NANOSECOND", "SECOND", "DurationError", "format_duration", "parse_duration",
           "parse_seconds"]

NANOSECOND = 1
MICROSECOND = 1000
MILLISECOND = 1000 * MICROSECOND
SECOND = 1000 * MILLISECOND
MINUTE = 60 * SECOND
HOUR = 60 * MINUTE

_UNITS = {"ns": NANOSECOND, "us": MICROSECOND, "µs": MICROSECOND, "μs": MICROSECOND,
          "ms": MILLISECOND, "s": SECOND, "m": MINUTE, "h": HOUR}
_MAX = (1 << 63) - 1


class DurationError(ValueError):
    """`time.ParseDuration` refused its input; `str()` is Go's message."""


def _digits(text: str, i: int) -> int:
    """The end of the run of ASCII digits starting at `i`."""
    while i < len(text) and "0" <= text[i] <= "9":
        i += 1
    return i


def parse_duration(text: str) -> int:
    """Nanoseconds in a Go duration string ("1h30m", "-1.5s", "300ms", "0")."""
    invalid = DurationError(f"time: invalid duration {quote(text)}")
    s = text
    neg = False
    if s[:1] in ("+", "-"):
        neg = s[0] == "-"
        s = s[1:]
    if s == "0":
        return 0
    if not s:
        raise invalid
    total = 0
    i = 0
    while i < len(s):
        if not (s[i] == "." or "0" <= s[i] <= "9"):
            raise invalid
        j = _digits(s, i)
        int_part = s[i:j]
        frac_part = ""
        if j < len(s) and s[j] == ".":
            k = _digits(s, j + 1)
            frac_part = s[j + 1:k]
            j = k
        if not int_part and not frac_part:
            raise invalid  # no digits, e.g. ".s"
        k = j
        while k < len(s) and s[k] != "." and not ("0" <= s[k] <= "9"):
            k += 1
        unit_text = s[j:k]
        if not unit_text:
            raise DurationError(f"time: missing unit in duration {quote(text)}")
        unit = _UNITS.get(unit_text)
        if unit is None:
            raise DurationError(f"time: unknown unit {quote(unit_text)} in duration {quote(text)}")
        v = int(int_part or "0")
        if v > _MAX // unit:
            raise invalid
        v *= unit
        if frac_part:
            digits = frac_part[:19]
            v += int(float(int(digits)) * (float(unit) / 10 ** len(digits)))
            if v > _MAX:
                raise invalid
        total += v
        if total > _MAX:
            raise invalid
        i = k
    return -total if neg else total


def parse_seconds(text: str) -> float:
    """`parse_duration` in seconds."""
    return parse_duration(text) / SECOND


def _fraction(v: int, precision: int) -> tuple[str, int]:
    """Go's fmtFrac: `v`'s last `precision` digits as a fraction (no trailing zeros)."""
    digits = []
    printed = False
    for _ in range(precision):
        digit = v % 10
        printed = printed or digit != 0
        if printed:
            digits.append(str(digit))
        v //= 10
    text = ("." + "".join(reversed(digits))) if printed else ""
    return text, v


def format_duration(ns: int) -> str:
    """Go's `Duration.String`: `0s`, `1.5s`, `300ms`, `1m0s`, `1h2m3s`, `-2µs`."""
    if ns == 0:
        return "0s"
    sign = "-" if ns < 0 else ""
    u = -ns if ns < 0 else ns
    if u < SECOND:
        if u < MICROSECOND:
            return f"{sign}{u}ns"
        if u < MILLISECOND:
            frac, whole = _fraction(u, 3)
            return f"{sign}{whole}{frac}µs"
        frac, whole = _fraction(u, 6)
        return f"{sign}{whole}{frac}ms"
    frac, secs = _fraction(u, 9)
    out = f"{secs % 60}{frac}s"
    mins = secs // 60
    if mins:
        out = f"{mins % 60}m" + out
        hours = mins // 60
        if hours:
            out = f"{hours}h" + out
    return sign + out
