"""The human view of state outputs (`terraform show`): `name = value`, 4-space nesting.

Values are rendered with their types as Terraform's state renderer does: objects as
`{ attr = value }` (bare attribute names), maps as `{ "key" = value }` (quoted keys), both
padded to a common width; lists, sets and tuples one element per line with a trailing comma;
multi-line strings as `<<-EOT` heredocs; strings holding a JSON object or array as
`jsonencode(...)`; sensitive outputs as `(sensitive value)`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from engine.gocompat.json import RawNumber, loads
from engine.states import OutputValue
from engine.states.codec import encode_value
from engine.values import Value
from engine.values.types import MapType, ObjectType

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def quote_string(s: str) -> str:
    """A string as terraform's renderer quotes it (JSON escapes, U+2028/9 escaped)."""
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch in "\u2028\u2029\ue000\ue001\ue002\ue003" or ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def format_primitive(v: Any) -> str:
    """A JSON primitive (exact numbers as `RawNumber`) as terraform's renderer shows it."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (RawNumber, int, float)):
        return str(v)
    return quote_string(str(v))


def attribute_name(key: str) -> str:
    """An object attribute name: bare when it is an identifier, else quoted."""
    return key if _IDENT.match(key) else quote_string(key)


def json_container(s: str) -> Any | None:
    """The decoded JSON object or array a string holds, else None."""
    text = s.strip()
    if not text.startswith(("{", "[")):
        return None
    try:
        data = loads(s)
    except (ValueError, json.JSONDecodeError):
        return None
    return data if isinstance(data, (dict, list)) else None


def _render_json(v: Any, indent: int) -> str:
    """Untyped JSON data (inside `jsonencode(...)`): objects with bare keys."""
    pad = " " * indent
    if isinstance(v, dict):
        if not v:
            return "{}"
        width = max(len(attribute_name(k)) for k in v)
        body = [
            f"{pad}    {attribute_name(k).ljust(width)} = {_render_json(v[k], indent + 4)}"
            for k in sorted(v)
        ]
        return "{\n" + "\n".join(body) + f"\n{pad}}}"
    if isinstance(v, list):
        if not v:
            return "[]"
        return "[\n" + "\n".join(f"{pad}    {_render_json(e, indent + 4)}," for e in v) + f"\n{pad}]"
    if isinstance(v, str) and not isinstance(v, RawNumber):
        return _render_string(v, indent)
    return format_primitive(v)


def _render_string(s: str, indent: int) -> str:
    pad = " " * indent
    inner = json_container(s)
    if inner is not None:
        return f"jsonencode(\n{pad}    {_render_json(inner, indent + 4)}\n{pad})"
    if "\n" in s:
        text = s[:-1] if s.endswith("\n") else s
        lines = "\n".join(f"{pad}    {line}".rstrip() for line in text.split("\n"))
        return f"<<-EOT\n{lines}\n{pad}EOT"
    return quote_string(s)


def render_value(val: Value, indent: int = 0) -> str:
    """One value as `show` prints it, continuation lines indented from `indent`."""
    pad = " " * indent
    if val.is_null:
        return "null"
    t = val.type
    if isinstance(t, (MapType, ObjectType)):
        items: dict[str, Value] = val.v
        if not items:
            return "{}"
        names = {
            k: quote_string(k) if isinstance(t, MapType) else attribute_name(k) for k in items
        }
        width = max(len(n) for n in names.values())
        body = [
            f"{pad}    {names[k].ljust(width)} = {render_value(items[k], indent + 4)}"
            for k in sorted(items)
        ]
        return "{\n" + "\n".join(body) + f"\n{pad}}}"
    if isinstance(val.v, list):
        if not val.v:
            return "[]"
        body = [f"{pad}    {render_value(e, indent + 4)}," for e in val.v]
        return "[\n" + "\n".join(body) + f"\n{pad}]"
    if isinstance(val.v, str):
        return _render_string(val.v, indent)
    return format_primitive(encode_value(val))


def render_state_outputs(outputs: dict[str, OutputValue]) -> str:
    """The "Outputs:" section `show` prints (after two blank lines, as Terraform does)."""
    lines = ["", "", "Outputs:", ""]
    for name in sorted(outputs):
        ov = outputs[name]
        text = "(sensitive value)" if ov.sensitive else render_value(ov.value)
        lines.append(f"{name} = {text}")
    return "\n".join(lines) + "\n"
