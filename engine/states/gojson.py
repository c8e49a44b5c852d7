"""JSON text exactly as Go's `encoding/json` writes it (what Terraform's files look like).

Go escapes `<`, `>` and `&` (as `\\u003c`, `\\u003e`, `\\u0026`) and U+2028/U+2029, writes
other non-ASCII characters as UTF-8, and `MarshalIndent` puts `[]`/`{}` on one line when empty.
Numbers that must keep their exact text travel as `RawNumber`; `loads` gives them back that way
so a file read and written again keeps every digit.
"""

from __future__ import annotations

import json
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


def quote(s: str) -> str:
    """A JSON string literal as Go writes it."""
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
    """Serialise `obj` (dict, list, str, bool, None, int, float, RawNumber)."""
    if obj is None:
        return "null"
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    if isinstance(obj, RawNumber):
        return str(obj)
    if isinstance(obj, str):
        return quote(obj)
    if isinstance(obj, (int, float)):
        return _number(obj)
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        if indent is None:
            return "{" + ",".join(quote(k) + ":" + dumps(v, None) for k, v in obj.items()) + "}"
        inner = prefix + indent
        parts = [inner + quote(k) + ": " + dumps(v, indent, inner) for k, v in obj.items()]
        return "{\n" + ",\n".join(parts) + "\n" + prefix + "}"
    if isinstance(obj, (list, tuple)):
        if not obj:
            return "[]"
        if indent is None:
            return "[" + ",".join(dumps(v, None) for v in obj) + "]"
        inner = prefix + indent
        return "[\n" + ",\n".join(inner + dumps(v, indent, inner) for v in obj) + "\n" + prefix + "]"
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
