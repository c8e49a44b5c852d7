"""JSON text exactly as Go's `encoding/json` writes it (what Terraform's files look like).

Go escapes `<`, `>` and `&` (as `\\u003c`, `\\u003e`, `\\u0026`) and U+2028/U+2029, writes
other non-ASCII characters as UTF-8, and `MarshalIndent` puts `[]`/`{}` on one line when empty.
Numbers that must keep their exact text travel as `RawNumber`; `loads` gives them back that way
so a file read and written again keeps every digit.
"""

from __future__ import annotations

import json
import json.encoder as _json_encoder
from collections.abc import Callable
from typing import Any


class RawNumber(str):
    """A JSON number kept as its source text (arbitrary precision, never rounded)."""

    __slots__ = ()


_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}

# The stdlib's C string escaper: it writes what Go writes except for `<` `>` `&` U+2028 U+2029
# (copied as is) and backspace and form feed (short escapes, where Go writes `u0008`/`u000c`).
_encode_basestring: Callable[[str], str] = getattr(
    _json_encoder, "c_encode_basestring", None) or _json_encoder.py_encode_basestring


def quote(s: str) -> str:
    """A JSON string literal as Go writes it."""
    if "<" in s or ">" in s or "&" in s or "\b" in s or "\f" in s or not s.isascii():
        return _quote_special(s)
    return _encode_basestring(s)


def _quote_special(s: str) -> str:
    if "\b" in s or "\f" in s:
        return _quote_slow(s)
    out = _encode_basestring(s)
    if "<" in out:
        out = out.replace("<", "\\u003c")
    if ">" in out:
        out = out.replace(">", "\\u003e")
    if "&" in out:
        out = out.replace("&", "\\u0026")
    if not s.isascii():
        out = out.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return out


def _quote_slow(s: str) -> str:
    out: list[str] = ['"']
    for ch in s:
        esc = _ESCAPES.get(ch)
        if esc is not None:
            out.append(esc)
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _number(n: Any) -> str:
    if isinstance(n, RawNumber):
        return str(n)
    if isinstance(n, int):
        return str(n)
    if isinstance(n, float):
        if n == int(n) and abs(n) < 1e21:
            return str(int(n))
        return repr(n)
    raise TypeError(f"not a JSON number: {n!r}")


def dumps(obj: Any, indent: str | None = "  ", prefix: str = "") -> str:
    """Serialise `obj` (dict, list, str, bool, None, int, float, RawNumber); mappings keep
    their order. `indent` None writes compact JSON; otherwise each nested line is indented by
    `prefix` plus one `indent` per level, with `": "` after keys."""
    parts: list[str] = []
    _write(obj, parts, None if indent is None else "\n" + prefix, indent or "")
    return "".join(parts)


def _write(obj: Any, out: list[str], nl: str | None, step: str) -> None:
    """Append `obj` to `out`; `nl` is None (compact) or a newline and `obj`'s line prefix."""
    append = out.append
    t = type(obj)
    if t is dict or isinstance(obj, dict):
        if not obj:
            append("{}")
            return
        if nl is None:
            inner, comma, colon, close = None, ",", ":", "}"
            append("{")
        else:
            inner = nl + step
            comma, colon, close = "," + inner, ": ", nl + "}"
            append("{" + inner)
        first = True
        for k, v in obj.items():
            if first:
                first = False
            else:
                append(comma)
            append(quote(k))
            append(colon)
            tv = type(v)
            if tv is str:
                append(quote(v))
            elif v is None:
                append("null")
            elif tv is bool:
                append("true" if v else "false")
            elif tv is int or tv is RawNumber:
                append(str(v))
            else:
                _write(v, out, inner, step)
        append(close)
    elif t is list or t is tuple or isinstance(obj, (list, tuple)):
        if not obj:
            append("[]")
            return
        if nl is None:
            inner, comma, close = None, ",", "]"
            append("[")
        else:
            inner = nl + step
            comma, close = "," + inner, nl + "]"
            append("[" + inner)
        first = True
        for v in obj:
            if first:
                first = False
            else:
                append(comma)
            tv = type(v)
            if tv is str:
                append(quote(v))
            elif v is None:
                append("null")
            elif tv is bool:
                append("true" if v else "false")
            elif tv is int or tv is RawNumber:
                append(str(v))
            else:
                _write(v, out, inner, step)
        append(close)
    elif obj is None:
        append("null")
    elif obj is True:
        append("true")
    elif obj is False:
        append("false")
    elif isinstance(obj, RawNumber):
        append(str(obj))
    elif isinstance(obj, str):
        append(quote(obj))
    elif isinstance(obj, (int, float)):
        append(_number(obj))
    else:
        raise TypeError(f"cannot serialise {type(obj).__name__} as JSON")


def loads(text: str) -> Any:
    """Parse JSON keeping every number as a `RawNumber` (its exact text)."""
    return json.loads(text, parse_int=RawNumber, parse_float=RawNumber)


def sort_keys(obj: Any) -> Any:
    """`obj` with every mapping's keys sorted, as Go sorts map keys (recursively)."""
    if isinstance(obj, dict):
        return {k: sort_keys(obj[k]) for k in sorted(obj)}
    if isinstance(obj, list):
        return [sort_keys(v) for v in obj]
    return obj
