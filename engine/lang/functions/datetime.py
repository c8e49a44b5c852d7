"""Built-in functions: dates and times (formatdate, plantimestamp, timeadd, timecmp, timestamp).

Timestamps are RFC 3339 strings parsed as Go's `time.Parse(time.RFC3339, ...)` does (so the
error texts name the failing part the way Terraform reports them) and represented as
(seconds since the Unix epoch, nanoseconds, UTC offset in seconds); years outside 1..9999
work as in Go. Durations follow Go's `time.ParseDuration`.

`timestamp` is impure (unknown during plan); `plantimestamp` gives the time the plan started:
the planner should replace the registry's entry with `make_plantimestamp(plan_time)`; the
default entry reads the clock on each call.
"""

from __future__ import annotations

import time as _time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.gocompat.duration import parse_duration
from engine.gocompat.strconv import quote as go_quote
from engine.lang.functions.base import Function, FunctionError, Param, refine_results, static_return
from engine.values import NUMBER, STRING, Type, Value, number, string

_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)
_WEEKDAYS = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")


@dataclass(frozen=True, slots=True)
class Instant:
    """A moment: Unix seconds, nanoseconds within the second, and the offset to display."""

    seconds: int
    nanos: int
    offset: int

    def key(self) -> tuple[int, int]:
        return (self.seconds, self.nanos)


def _days_from_civil(y: int, m: int, d: int) -> int:
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _civil_from_days(z: int) -> tuple[int, int, int]:
    z += 719468
    era = (z if z >= 0 else z - 146096) // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + (3 if mp < 10 else -9)
    return y + (m <= 2), m, d


def _days_in(month: int, year: int) -> int:
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return 29 if leap else 28
    return 30 if month in (4, 6, 9, 11) else 31


class _ParseError(Exception):
    def __init__(self, layout_elem: str, value_elem: str, message: str = "") -> None:
        super().__init__(message)
        self.layout_elem = layout_elem
        self.value_elem = value_elem
        self.message = message


_WHAT = {
    "2006": "year", "01": "month", "02": "day of month", "15": "hour", "04": "minute",
    "05": "second", "Z07:00": "UTC offset",
}


def _describe(err: _ParseError) -> str:
    """Terraform's wording of a Go time.ParseError."""
    if not err.layout_elem and not err.value_elem and err.message:
        return f"not a valid RFC3339 timestamp{err.message}"
    if err.layout_elem == "T":
        return "not a valid RFC3339 timestamp: missing required time introducer 'T'"
    if err.layout_elem in (":", "-"):
        if not err.value_elem:
            return f'not a valid RFC3339 timestamp: end of string where "{err.layout_elem}" is expected'
        return (
            f"not a valid RFC3339 timestamp: found {go_quote(err.value_elem)} where "
            f'"{err.layout_elem}" is expected'
        )
    what = _WHAT.get(err.layout_elem, "timestamp segment")
    if not err.value_elem:
        return f"not a valid RFC3339 timestamp: end of string before {what}"
    return f"not a valid RFC3339 timestamp: cannot use {go_quote(err.value_elem)} as {what}"


def _getnum(value: str, fixed: bool) -> tuple[int, str] | None:
    if not value[:1].isdigit() or not value[:1].isascii():
        return None
    if not (len(value) > 1 and value[1].isdigit() and value[1].isascii()):
        if fixed:
            return None
        return int(value[0]), value[1:]
    return int(value[:2]), value[2:]


def _literal(value: str, lit: str) -> str:
    if not value.startswith(lit):
        raise _ParseError(lit, value)
    return value[len(lit) :]


def _two_digits(value: str) -> int | None:
    head = value[:2]
    if len(head) == 2 and head.isdigit() and head.isascii():
        return int(head)
    return None


def _parse(value: str, strict: bool) -> Instant:
    """Go's time.Parse(RFC3339); `strict` adds the checks cty's formatdate makes (two-digit
    hour and minute in range, `.` before fractions, UTC offset within 23:59)."""
    if len(value) < 4:
        raise _ParseError("2006", value)
    ytext = value[:4]
    if not ytext.isdigit() or not ytext.isascii():
        raise _ParseError("2006", value)
    year = int(ytext)
    value = _literal(value[4:], "-")
    fields: list[int] = []
    for layout, fixed, low, limit, sep in (
        ("01", True, 1, 13, "-"), ("02", True, 0, None, "T"), ("15", False, 0, 24, ":"),
        ("04", True, 0, 60, ":"), ("05", True, 0, 60, ""),
    ):
        if strict and layout == "15":
            hour = _two_digits(value)
            if hour is None:
                raise _ParseError("", "", ": hour must have exactly two digits")
            if hour >= 24:
                raise _ParseError("", "", ": hour must be between 0 and 23 inclusive")
        if strict and layout == "04":
            minute = _two_digits(value)
            if minute is None or minute >= 60:
                raise _ParseError("", "", ": minute must have exactly two digits")
        got = _getnum(value, fixed)
        if got is None:
            raise _ParseError(layout, value)
        num, value = got
        if limit is not None and not low <= num < limit:
            raise _ParseError(layout, value, "out of range")
        fields.append(num)
        if sep:
            value = _literal(value, sep)
    month, day, hour, minute, sec = fields
    nanos = 0
    if len(value) >= 2 and value[0] in ".," and value[1].isdigit():
        if strict and value[0] == ",":
            raise _ParseError(".", ",")
        n = 1
        while n < len(value) and value[n].isdigit():
            n += 1
        nanos = int(value[1:n][:9].ljust(9, "0"))
        value = value[n:]
    if value.startswith("Z"):
        offset = 0
        value = value[1:]
    else:
        if len(value) < 6 or value[3] != ":" or value[0] not in "+-":
            raise _ParseError("Z07:00", value)
        hh = _getnum(value[1:3], True)
        mm = _getnum(value[4:6], True)
        if hh is None or mm is None:
            raise _ParseError("Z07:00", value)
        rest = value[6:]
        if hh[0] > 24 or mm[0] > 60:
            raise _ParseError("Z07:00", rest, "out of range")
        if strict and (hh[0] >= 24 or mm[0] >= 60):
            raise _ParseError("Z07:00", value[:6])
        offset = (hh[0] * 60 + mm[0]) * 60
        if value[0] == "-":
            offset = -offset
        value = rest
    if value:
        raise _ParseError("", value, f": extra text: {go_quote(value)}")
    if day < 1 or day > _days_in(month, year):
        raise _ParseError("", "", ": day out of range")
    days = _days_from_civil(year, month, day)
    seconds = days * 86400 + hour * 3600 + minute * 60 + sec - offset
    return Instant(seconds, nanos, offset)


def parse_timestamp(text: str, strict: bool = False) -> Instant:
    """Parse an RFC 3339 timestamp; ValueError carrying Terraform's message when invalid.

    `strict` is formatdate's (cty's) stricter parser; timeadd and timecmp use Go's plain one.
    """
    try:
        return _parse(text, strict)
    except _ParseError as exc:
        raise ValueError(_describe(exc)) from None


def civil(t: Instant) -> tuple[int, int, int, int, int, int, int]:
    """(year, month, day, hour, minute, second, weekday 0=Sunday) in the instant's offset."""
    local = t.seconds + t.offset
    days, secs = divmod(local, 86400)
    y, m, d = _civil_from_days(days)
    weekday = (days + 4) % 7
    return y, m, d, secs // 3600, secs // 60 % 60, secs % 60, weekday


def _year_text(y: int) -> str:
    if y < 0:
        return "-" + str(-y).rjust(4, "0")
    return str(y).rjust(4, "0")


def format_offset(offset: int, colon: bool, z_for_utc: bool) -> str:
    if offset == 0 and z_for_utc:
        return "Z"
    sign = "-" if offset < 0 else "+"
    hh, mm = divmod(abs(offset) // 60, 60)
    return f"{sign}{hh:02d}:{mm:02d}" if colon else f"{sign}{hh:02d}{mm:02d}"


def format_rfc3339(t: Instant) -> str:
    """Go's `t.Format(time.RFC3339)`: whole seconds, `Z` for a zero offset."""
    y, m, d, hh, mi, ss, _ = civil(t)
    return f"{_year_text(y)}-{m:02d}-{d:02d}T{hh:02d}:{mi:02d}:{ss:02d}" + format_offset(
        t.offset, True, True
    )


def _ts_arg(text: str, arg_index: int | None, strict: bool = False) -> Instant:
    try:
        return parse_timestamp(text, strict)
    except ValueError as exc:
        raise FunctionError(str(exc), arg_index) from None


def _timeadd(args: Sequence[Value], ret: Type) -> Value:
    t = _ts_arg(args[0].v, None)
    try:
        dur = parse_duration(args[1].v)
    except ValueError as exc:
        raise FunctionError(str(exc)) from None
    total = t.seconds * 1_000_000_000 + t.nanos + dur
    secs, nanos = divmod(total, 1_000_000_000)
    return string(format_rfc3339(Instant(secs, nanos, t.offset)))


def _timecmp(args: Sequence[Value], ret: Type) -> Value:
    a = _ts_arg(args[0].v, 0).key()
    b = _ts_arg(args[1].v, 1).key()
    return number(0 if a == b else (-1 if a < b else 1))


def _format_tokens(fmt: str) -> list[str]:
    """Split a formatdate format into literal runs, quoted literals and verb runs."""
    tokens: list[str] = []
    i = 0
    n = len(fmt)
    while i < n:
        ch = fmt[i]
        if ch == "'":
            if i + 1 < n and fmt[i + 1] == "'":
                tokens.append("''")
                i += 2
                continue
            j = i + 1
            while j < n:
                if fmt[j] == "'":
                    if j + 1 < n and fmt[j + 1] == "'":
                        j += 2
                        continue
                    break
                j += 1
            tokens.append(fmt[i : j + 1])
            i = j + 1
        elif ch.isascii() and ch.isalpha():
            j = i
            while j < n and fmt[j] == ch:
                j += 1
            tokens.append(fmt[i:j])
            i = j
        else:
            j = i + 1
            while j < n and fmt[j] != "'" and not (fmt[j].isascii() and fmt[j].isalpha()):
                j += 1
            tokens.append(fmt[i:j])
            i = j
    return tokens


def _bad_verb(tok: str, why: str = "") -> FunctionError:
    return FunctionError(f"invalid date format verb {go_quote(tok)}{why}", 0)


def format_date(fmt: str, t: Instant) -> str:
    """cty's formatdate: render `t` with the letter-mnemonic format `fmt`."""
    y, mo, d, h, mi, s, wd = civil(t)
    out: list[str] = []
    for tok in _format_tokens(fmt):
        c, n = tok[0], len(tok)
        if c == "'":
            if tok[-1] != "'" or n == 1:
                raise FunctionError("unterminated literal '", 0)
            out.append("'" if n == 2 else tok[1:-1].replace("''", "'"))
        elif not (c.isascii() and c.isalpha()):
            out.append(tok)
        elif c == "Y":
            if n not in (2, 4):
                raise _bad_verb(tok, ': year must either be "YY" or "YYYY"')
            out.append(f"{y % 100:02d}" if n == 2 else _year_text(y))
        elif c == "M":
            if n > 4:
                raise _bad_verb(tok, ': month must be "M", "MM", "MMM", or "MMMM"')
            name = _MONTHS[mo - 1]
            out.append((str(mo), f"{mo:02d}", name[:3], name)[n - 1])
        elif c == "D":
            if n > 2:
                raise _bad_verb(tok, ': day of month must either be "D" or "DD"')
            out.append(str(d) if n == 1 else f"{d:02d}")
        elif c == "E":
            if n not in (3, 4):
                raise _bad_verb(tok, ': day of week must either be "EEE" or "EEEE"')
            out.append(_WEEKDAYS[wd][:3] if n == 3 else _WEEKDAYS[wd])
        elif c in "hHms":
            val = {"h": h, "H": (h % 12) or 12, "m": mi, "s": s}[c]
            if n > 2:
                label = {"h": "24-hour", "H": "12-hour", "m": "minute", "s": "second"}[c]
                raise _bad_verb(tok, f': {label} must either be "{c}" or "{c}{c}"')
            out.append(str(val) if n == 1 else f"{val:02d}")
        elif c in "Aa":
            if n != 2:
                raise _bad_verb(tok, f': must be "{c}{c}"')
            marker = "AM" if h < 12 else "PM"
            out.append(marker if c == "A" else marker.lower())
        elif c == "Z":
            if n == 1:
                out.append(format_offset(t.offset, True, True))
            elif n == 3:
                text = format_offset(t.offset, False, False)
                out.append("UTC" if text == "+0000" else text)
            elif n == 4:
                out.append(format_offset(t.offset, False, False))
            elif n == 5:
                out.append(format_offset(t.offset, True, False))
            else:
                raise _bad_verb(tok, ": timezone must be Z, ZZZZ, or ZZZZZ")
        else:
            raise _bad_verb(tok)
    return "".join(out)


def _formatdate(args: Sequence[Value], ret: Type) -> Value:
    t = _ts_arg(args[1].v, 1, strict=True)
    return string(format_date(args[0].v, t))


def now_rfc3339() -> str:
    """The current time, UTC, as timestamp() renders it."""
    ns = _time.time_ns()
    return format_rfc3339(Instant(ns // 1_000_000_000, ns % 1_000_000_000, 0))


def _timestamp(args: Sequence[Value], ret: Type) -> Value:
    return string(now_rfc3339())


def make_plantimestamp(plan_time: str | None = None) -> Function:
    """`plantimestamp` returning `plan_time` (RFC 3339). The planner builds one per plan so
    every call in that plan agrees; without a plan time each call reads the clock."""

    def _impl(args: Sequence[Value], ret: Type) -> Value:
        return string(plan_time if plan_time else now_rfc3339())

    return Function("plantimestamp", (), _impl, static_return(STRING))


FUNCTIONS: list[Function] = refine_results([
    Function(
        "formatdate",
        (Param("format", STRING), Param("time", STRING)),
        _formatdate,
        static_return(STRING),
    ),
    make_plantimestamp(),
    Function(
        "timeadd",
        (Param("timestamp", STRING), Param("duration", STRING)),
        _timeadd,
        static_return(STRING),
    ),
    Function(
        "timecmp",
        (Param("timestamp_a", STRING), Param("timestamp_b", STRING)),
        _timecmp,
        static_return(NUMBER),
    ),
    Function("timestamp", (), _timestamp, static_return(STRING), impure=True),
], unrefined=("timeadd",))
