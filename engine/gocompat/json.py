"""JSON text exactly as Go's `encoding/json` writes it (what Terraform's files look like).

Strings: `"` `\\` `\\n` `\\r` `\\t` `\\b` `\\f` get short escapes, other control characters
lowercase `\\u00xx`; `<`, `>`, `&`, U+2028 and U+2029 are escaped (`\\u003c` ...), lone
surrogates (invalid UTF-8) become `\\ufffd`, every other character is written as UTF-8.
`MarshalIndent` layout: a newline, the prefix and one indent per level before each member,
`": "` after keys, and `[]`/`{}` on one line when empty.

`GoJSONWriter` is the one writer, parameterised by what differs between its users: whether
mapping keys are sorted (Go sorts map keys; a struct or an ordered document keeps its order),
which integers are written as they are, and how anything else (floats, exact fractions, the
value model's objects) becomes JSON data. `dumps` is the ordered writer Terraform's state,
plan and lock documents use. Numbers that must keep their exact text travel as `RawNumber`;
`loads` gives every number back that way, so a file read and written again keeps every digit.
"""

from __future__ import annotations

import json as _json
import json.encoder as _json_encoder
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["GoJSONWriter", "RawNumber", "dumps", "loads", "quote", "sort_keys"]


class RawNumber(str):
    """A JSON number kept as its source text (arbitrary precision, never rounded)."""

    __slots__ = ()


# The stdlib's C string escaper writes what Go writes (short escapes for `"` `\` `\n` `\r`
# `\t` `\b` `\f`, lowercase `\u00xx` for other control characters) except for `<` `>` `&`
# U+2028 U+2029 and lone surrogates, which it copies as they are.
_encode_basestring: Callable[[str], str] = getattr(
    _json_encoder, "c_encode_basestring", None) or _json_encoder.py_encode_basestring
_SURROGATE = re.compile("[\ud800-\udfff]")


def quote(s: str) -> str:
    """A JSON string literal as Go writes it (see the module docstring)."""
    if "<" in s or ">" in s or "&" in s or not s.isascii():
        return _quote_special(s)
    return _encode_basestring(s)


def _quote_special(s: str) -> str:
    out = _encode_basestring(s)
    if "<" in out:
        out = out.replace("<", "\\u003c")
    if ">" in out:
        out = out.replace(">", "\\u003e")
    if "&" in out:
        out = out.replace("&", "\\u0026")
    if not s.isascii():
        out = out.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
        out = _SURROGATE.sub("\\\\ufffd", out)
    return out


def _plain_fallback(obj: Any) -> Any:
    """Floats as Go's `strconv.FormatFloat(f, 'g'...)`-like text Terraform's files hold."""
    if isinstance(obj, float):
        if not math.isfinite(obj):
            raise ValueError(f"json: unsupported value: {obj!r}")
        if obj == int(obj) and abs(obj) < 1e21:
            return RawNumber(str(int(obj)))
        return RawNumber(repr(obj))
    if isinstance(obj, Mapping):
        return dict(obj.items())
    raise TypeError(f"cannot serialise {type(obj).__name__} as JSON")


class GoJSONWriter:
    """One `encoding/json` writer configuration; `dumps(obj, indent, prefix)` writes `obj`.

    `obj` is built of dicts (and their subclasses), lists, tuples, str, `RawNumber` (and its
    subclasses, written as their text), bool, None and int. Integers `i` with
    `-int_limit < i < int_limit` are written as digits; anything else goes through
    `fallback(obj)`, which returns JSON data to write in its place (a `RawNumber` for a
    number's text) or raises for what JSON cannot carry.
    """

    __slots__ = ("_write",)

    def __init__(self, *, sort_keys: bool = False, int_limit: float = math.inf,
                 fallback: Callable[[Any], Any] = _plain_fallback) -> None:
        self._write = _make_write(sort_keys, int_limit, fallback)

    def dumps(self, obj: Any, indent: str | None = None, prefix: str = "") -> str:
        """`obj` as JSON text: compact when `indent` is None, else as `MarshalIndent(obj,
        prefix, indent)` lays it out."""
        parts: list[str] = []
        self._write(obj, parts, None if indent is None else "\n" + prefix, indent or "")
        return "".join(parts)


def _make_write(sort_keys: bool, limit: float,
                fallback: Callable[[Any], Any]) -> Callable[[Any, list[str], str | None, str],
                                                            None]:
    """The recursive writer for one configuration. Leaves are handled inline in the member
    loops (the hot path of every state, journal and plan file write)."""

    def write(obj: Any, out: list[str], nl: str | None, step: str) -> None:
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
            for k in (sorted(obj) if sort_keys else obj):
                if first:
                    first = False
                else:
                    append(comma)
                append(quote(k))
                append(colon)
                v = obj[k]
                tv = type(v)
                if tv is str:
                    append(quote(v))
                elif v is None:
                    append("null")
                elif tv is bool:
                    append("true" if v else "false")
                elif (tv is int and -limit < v < limit) or tv is RawNumber:
                    append(str.__str__(v) if tv is RawNumber else str(v))
                else:
                    write(v, out, inner, step)
            append(close)
        elif t is list or t is tuple:
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
                elif (tv is int and -limit < v < limit) or tv is RawNumber:
                    append(str.__str__(v) if tv is RawNumber else str(v))
                else:
                    write(v, out, inner, step)
            append(close)
        elif t is str:
            append(quote(obj))
        elif obj is None:
            append("null")
        elif obj is True:
            append("true")
        elif obj is False:
            append("false")
        elif isinstance(obj, RawNumber):
            append(str.__str__(obj))
        elif isinstance(obj, str):
            append(quote(obj))
        elif isinstance(obj, int) and -limit < obj < limit:
            append(str(int(obj)))
        elif isinstance(obj, (list, tuple)):
            write(list(obj), out, nl, step)
        else:
            write(fallback(obj), out, nl, step)

    return write


_ORDERED = GoJSONWriter()


def dumps(obj: Any, indent: str | None = "  ", prefix: str = "") -> str:
    """`obj` with mappings in their own order, indented as Terraform's files are (two
    spaces) unless `indent` says otherwise (None: compact)."""
    return _ORDERED.dumps(obj, indent, prefix)


def loads(text: str | bytes) -> Any:
    """Parse JSON keeping every number as a `RawNumber` (its exact text)."""
    return _json.loads(text, parse_int=RawNumber, parse_float=RawNumber)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"not JSON: {name}")


def loads_strict(data: bytes) -> Any:
    """`loads` of UTF-8 `data` that Go's decoder accepts too: Python's NaN/Infinity
    extensions, a byte-order mark and invalid UTF-8 raise ValueError, where the caller
    rescans the bytes as Go does (engine.gocompat.json_syntax) for Go's error or Go's lenient
    reading."""
    if data.startswith(b"\xef\xbb\xbf"):
        raise ValueError("a byte-order mark, which Go's decoder rejects")
    return _json.loads(data, parse_int=RawNumber, parse_float=RawNumber,
                       parse_constant=_reject_constant)


def sort_keys(obj: Any) -> Any:
    """`obj` with every mapping's keys sorted, as Go sorts map keys (recursively)."""
    if isinstance(obj, dict):
        return {k: sort_keys(obj[k]) for k in sorted(obj)}
    if isinstance(obj, list):
        return [sort_keys(v) for v in obj]
    return obj
