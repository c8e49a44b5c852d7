"""Configuration generated for imported objects (`plan -generate-config-out=FILE`), written
as terraform's genconfig writes it.

`resource_config(type, name, provider_line, block, value)` is the `resource` block for one
imported object: every attribute the schema lets configuration set (required or optional;
computed-only ones and the legacy SDKs' computed `id` are left out), in name order, with the
imported value (`null` for none or for an optional empty string, `null # sensitive` for a
sensitive one, `jsonencode(...)` for a string that holds a JSON object or array); nested blocks in name order, one per element (a map's with its key
as label, an empty or null one left out); the text formatted as `terraform fmt` formats it.
`file_text(entries)` is the whole file: terraform's header, then each block after a
`# __generated__ by Terraform from "ID"` line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from engine.hcl.format import format_source
from engine.hcl.format_rewrite import quote_literal
from engine.plugin.schema import Block, Nesting
from engine.values import Value
from engine.values.types import BOOL, NUMBER, STRING

HEADER = ("# __generated__ by Terraform\n"
          "# Please review these resources and move them into your main configuration "
          "files.\n")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def file_text(entries: Iterable[tuple[str, str]]) -> str:
    """The generated file for (import ID, resource block) pairs, in order."""
    out = HEADER
    for the_id, block in entries:
        out += f"\n# __generated__ by Terraform from {json.dumps(the_id, ensure_ascii=False)}\n"
        out += block + "\n"
    return out


def resource_config(type_name: str, name: str, provider_line: str, block: Block,
                    value: Value) -> str:
    """The formatted `resource` block (no trailing newline); see the module docstring."""
    lines = [f'resource "{type_name}" "{name}" {{']
    if provider_line:
        lines.append(f"  provider = {provider_line}")
    _body(block, value, 2, lines)
    lines.append("}")
    return format_source("\n".join(lines) + "\n").rstrip("\n")


def _attr(value: Value, name: str) -> Value | None:
    if value.is_null or not isinstance(value.v, dict):
        return None
    return value.v.get(name)


def _body(block: Block, value: Value, indent: int, lines: list[str]) -> None:
    pad = " " * indent
    for name in sorted(block.attributes):
        a = block.attributes[name]
        if not (a.required or a.optional) or (name == "id" and a.computed):
            continue  # the legacy SDKs' optional and computed `id` is never configured
        val = _attr(value, name)
        if a.sensitive or (val is not None and val.is_sensitive):
            lines.append(f"{pad}{name} = null # sensitive")
            continue
        plain = None if val is None else val.unmark_deep()[0]
        if plain is not None and not a.required and plain.type == STRING and plain.v == "":
            plain = None  # as terraform: an optional empty string is written as null
        lines.append(f"{pad}{name} = {_expression(plain, indent)}")
    for name in sorted(block.block_types):
        nb = block.block_types[name]
        val = _attr(value, name)
        if val is None or val.is_null:
            continue
        if val.is_sensitive:
            lines.append(f"{pad}{name} {{}} # sensitive")
            continue
        if nb.nesting in (Nesting.SINGLE, Nesting.GROUP):
            lines.append(f"{pad}{name} {{")
            _body(nb.block, val, indent + 2, lines)
            lines.append(f"{pad}}}")
        elif nb.nesting is Nesting.MAP:
            for key in sorted(val.v):
                lines.append(f"{pad}{name} {json.dumps(key, ensure_ascii=False)} {{")
                _body(nb.block, val.v[key], indent + 2, lines)
                lines.append(f"{pad}}}")
        else:
            for elem in _elements(val):
                lines.append(f"{pad}{name} {{")
                _body(nb.block, elem, indent + 2, lines)
                lines.append(f"{pad}}}")


def _elements(val: Value) -> list[Value]:
    v = val.v
    if isinstance(v, dict):
        return [v[k] for k in sorted(v)]
    if isinstance(v, (list, tuple, frozenset, set)):
        return list(v)
    return []


def _expression(val: Value | None, indent: int) -> str:
    """hclwrite's TokensForValue, with JSON strings as `jsonencode(...)`."""
    if val is None or val.is_null:
        return "null"
    if val.type == STRING and isinstance(val.v, str):
        decoded = _json_document(val.v)
        if decoded is not None:
            return f"jsonencode({_literal(decoded, indent)})"
    return _value_literal(val, indent)


def _json_document(text: str) -> Any:
    """The JSON object or array `text` holds, or None (a lone primitive stays a string)."""
    try:
        doc = json.loads(text, parse_float=_Num, parse_int=_Num)
    except ValueError:
        return None
    return doc if isinstance(doc, (dict, list)) else None


class _Num(str):
    """A JSON number kept as written."""


def _value_literal(val: Value, indent: int) -> str:
    if val.is_null:
        return "null"
    if val.type == STRING:
        return quote_literal(val.v)
    if val.type == BOOL:
        return "true" if val.v else "false"
    if val.type == NUMBER:
        return _number(val.v)
    v = val.v
    if isinstance(v, dict):
        return _object({k: v[k] for k in sorted(v)}, indent, _value_literal)
    return "[" + ", ".join(_value_literal(e, indent) for e in _elements(val)) + "]"


def _literal(doc: Any, indent: int) -> str:
    """A decoded JSON value as an HCL literal."""
    if doc is None:
        return "null"
    if isinstance(doc, bool):
        return "true" if doc else "false"
    if isinstance(doc, _Num):
        return str(doc)
    if isinstance(doc, str):
        return quote_literal(doc)
    if isinstance(doc, list):
        return "[" + ", ".join(_literal(e, indent) for e in doc) + "]"
    return _object({k: doc[k] for k in sorted(doc)}, indent, _literal)


def _object(items: dict[str, Any], indent: int, each: Any) -> str:
    if not items:
        return "{}"
    pad = " " * (indent + 2)
    body = "".join(f"{pad}{k if _IDENT.match(k) else quote_literal(k)} = {each(v, indent + 2)}\n"
                   for k, v in items.items())
    return "{\n" + body + " " * indent + "}"


def _number(n: Any) -> str:
    text = str(n)
    if "e" in text.lower() or "." in text:
        from decimal import Decimal

        d = Decimal(text)
        return format(d.normalize(), "f") if d == d.to_integral_value() or "e" in \
            text.lower() else text
    return text
