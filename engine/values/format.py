"""Rendering values as Terraform shows them to people.

`format_value(v)` is terraform's repl.FormatValue, used by `terraform console` and by
`terraform output NAME`: `tolist([...])`, `toset([...])`, `tomap({...})`, tuples as `[...]`,
objects as `{...}`, typed nulls (`tostring(null)`, `tolist(null) /* of string */`),
`(known after apply)`, `(sensitive value)`, strings Go-quoted, multi-line strings as heredocs.
`go_quote(s)` is Go's strconv.Quote (also `%q`), used in messages and paths.
"""

from __future__ import annotations

from engine.gocompat.strconv import quote as go_quote
from engine.values.numbers import format_number
from engine.values.types import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    ListType,
    MapType,
    ObjectType,
    SetType,
    TupleType,
)
from engine.values.value import SENSITIVE, UNKNOWN, Value


def format_value(v: Value, indent: int = 0) -> str:
    """The value as `terraform console` / `terraform output NAME` print it."""
    if v.v is UNKNOWN:
        return "(known after apply)"
    if SENSITIVE in v.marks:
        return "(sensitive value)"
    t = v.type
    if v.v is None:
        if t == DYNAMIC:
            return "null"
        if t == STRING:
            return "tostring(null)"
        if t == NUMBER:
            return "tonumber(null)"
        if t == BOOL:
            return "tobool(null)"
        if isinstance(t, (ListType, SetType, MapType)):
            conv = {"list": "tolist", "set": "toset", "map": "tomap"}[t.kind]
            return f"{conv}(null) /* of {t.element.friendly_name()} */"
        return f"null /* {t.friendly_name()} */"
    if t == STRING:
        ml = _multiline(v.v, indent)
        return ml if ml is not None else go_quote(v.v)
    if t == NUMBER:
        return format_number(v.v)
    if t == BOOL:
        return "true" if v.v else "false"
    if isinstance(t, ObjectType):
        return _mapping(v, indent)
    if isinstance(t, TupleType):
        return _sequence(v, indent)
    if isinstance(t, ListType):
        return f"tolist({_sequence(v, indent)})"
    if isinstance(t, SetType):
        return f"toset({_sequence(v, indent)})"
    if isinstance(t, MapType):
        return f"tomap({_mapping(v, indent)})"
    return repr(v)


def _multiline(s: str, indent: int) -> str | None:
    lines = s.split("\n")
    if len(lines) < 2:
        return None
    op = "<<-" if indent > 0 else "<<"
    delim = "EOT"
    while any(line.strip() == delim for line in lines):
        delim += "_"
    pad = " " * indent
    body = "".join(f"\n{pad}{line}" for line in lines)
    return f"{op}{delim}{body}\n{pad}{delim}"


def _mapping(v: Value, indent: int) -> str:
    items = v.v
    inner = indent + 2
    pad = " " * inner
    parts = ["{"]
    for k in sorted(items, key=str.encode) if isinstance(v.type, ObjectType) else items:
        parts.append(f"\n{pad}{go_quote(k)} = {format_value(items[k], inner)}")
    if items:
        parts.append("\n" + " " * indent)
    parts.append("}")
    return "".join(parts)


def _sequence(v: Value, indent: int) -> str:
    items = v.v
    inner = indent + 2
    pad = " " * inner
    parts = ["["]
    for e in items:
        parts.append(f"\n{pad}{format_value(e, inner)},")
    if items:
        parts.append("\n" + " " * indent)
    parts.append("]")
    return "".join(parts)
