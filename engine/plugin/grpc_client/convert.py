"""Protocol messages to engine objects: schemas, diagnostics and attribute paths.

Works on tfplugin5 and tfplugin6 messages alike (they share field names); protocol 6 adds
nested attribute types (`Schema.Attribute.nested_type`), read here when present.

- `schema_from_proto(msg)` turns a `Schema` message into an engine.plugin.schema `Schema`:
  attribute types from their JSON type bytes, nesting modes, required/optional/computed/
  sensitive/deprecated/write-only flags, descriptions and their kind ("plain"/"markdown"),
  min/max items. A malformed schema raises `SchemaError` naming the offending attribute.
- `diagnostics_from_proto(msgs)` keeps severity, summary and detail; a diagnostic with an
  attribute path becomes an `AttributeDiagnostic` so the core can point it at the config.
- `path_from_proto(msg)` is the inverse of cty's path-to-proto: attribute names, string keys
  and integer keys.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from engine.diags import Diagnostic, Diagnostics, Severity
from engine.plugin.paths import AttributePath
from engine.plugin.protocol import AttributeDiagnostic, Deferred, ServerCapabilities
from engine.plugin.schema import Attribute, Block, NestedBlock, NestedObject, Nesting, Schema
from engine.values import Type, type_from_json

__all__ = [
    "SchemaError",
    "capabilities_from_proto",
    "deferred_from_proto",
    "diagnostics_from_proto",
    "path_from_proto",
    "schema_from_proto",
]

# Both protocols number the nesting modes alike: INVALID 0, SINGLE 1, LIST 2, SET 3, MAP 4,
# GROUP 5 (blocks only).
_NESTING = {1: Nesting.SINGLE, 2: Nesting.LIST, 3: Nesting.SET, 4: Nesting.MAP, 5: Nesting.GROUP}
_KIND = {0: "plain", 1: "markdown"}
_DEFER_REASONS = {
    1: "resource_config_unknown",
    2: "provider_config_unknown",
    3: "absent_prereq",
}


# Types are immutable: one Type per distinct JSON type text (a big schema repeats a few dozen).
_TYPES: dict[bytes, Type] = {}
_FIELDS: dict[tuple[str, str], bool] = {}


class SchemaError(ValueError):
    """A schema message the engine cannot represent (bad type JSON, invalid nesting)."""


def schema_from_proto(msg: Any) -> Schema:
    """The engine Schema for a protocol `Schema` message (an unset message: empty schema)."""
    return Schema(block=_block(msg.block, ""), version=int(msg.version))


def _block(msg: Any, where: str) -> Block:
    attrs = {a.name: _attribute(a, f"{where}{a.name}") for a in msg.attributes}
    blocks: dict[str, NestedBlock] = {}
    for nb in msg.block_types:
        nesting = _NESTING.get(int(nb.nesting))
        if nesting is None:
            raise SchemaError(f"block type {where}{nb.type_name} has an invalid nesting mode")
        blocks[nb.type_name] = NestedBlock(
            block=_block(nb.block, f"{where}{nb.type_name}."),
            nesting=nesting,
            min_items=int(nb.min_items),
            max_items=int(nb.max_items),
        )
    return Block(
        attributes=attrs,
        block_types=blocks,
        description=msg.description,
        description_kind=_KIND.get(int(msg.description_kind), "plain"),
        deprecated=bool(msg.deprecated),
    )


def _attribute(msg: Any, where: str) -> Attribute:
    nested: NestedObject | None = None
    typ = None
    if _has(msg, "nested_type"):
        obj = msg.nested_type
        nesting = _NESTING.get(int(obj.nesting))
        if nesting is None or nesting is Nesting.GROUP:
            raise SchemaError(f"attribute {where} has an invalid nested type nesting mode")
        nested = NestedObject(
            attributes={a.name: _attribute(a, f"{where}.{a.name}") for a in obj.attributes},
            nesting=nesting,
        )
    elif msg.type:
        typ = _TYPES.get(msg.type)
        if typ is None:
            try:
                typ = _TYPES[msg.type] = type_from_json(json.loads(msg.type))
            except ValueError as e:
                raise SchemaError(f"attribute {where} has an invalid type: {e}") from None
    else:
        raise SchemaError(f"attribute {where} has neither a type nor a nested type")
    return Attribute(
        type=typ,
        nested_type=nested,
        description=msg.description,
        description_kind=_KIND.get(int(msg.description_kind), "plain"),
        required=bool(msg.required),
        optional=bool(msg.optional),
        computed=bool(msg.computed),
        sensitive=bool(msg.sensitive),
        deprecated=bool(msg.deprecated),
        write_only=bool(getattr(msg, "write_only", False)),
    )


def _has(msg: Any, field: str) -> bool:
    key = (msg.DESCRIPTOR.full_name, field)
    known = _FIELDS.get(key)
    if known is None:
        known = _FIELDS[key] = field in msg.DESCRIPTOR.fields_by_name
    return known and bool(msg.HasField(field))


def capabilities_from_proto(msg: Any) -> ServerCapabilities:
    return ServerCapabilities(
        plan_destroy=bool(msg.plan_destroy),
        get_provider_schema_optional=bool(msg.get_provider_schema_optional),
        move_resource_state=bool(msg.move_resource_state),
    )


def deferred_from_proto(parent: Any) -> Deferred | None:
    """The `deferred` field of a response message, None when unset."""
    if not _has(parent, "deferred"):
        return None
    return Deferred(_DEFER_REASONS.get(int(parent.deferred.reason), "unknown"))


def path_from_proto(msg: Any) -> AttributePath:
    p = AttributePath.root()
    for step in msg.steps:
        which = step.WhichOneof("selector")
        if which == "attribute_name":
            p = p.attr(step.attribute_name)
        elif which == "element_key_string":
            p = p.index(step.element_key_string)
        elif which == "element_key_int":
            p = p.index(int(step.element_key_int))
    return p


def diagnostics_from_proto(msgs: Iterable[Any]) -> Diagnostics:
    """Provider diagnostics as engine diagnostics (INVALID severity counts as an error)."""
    out = Diagnostics()
    for d in msgs:
        sev = Severity.WARNING if int(d.severity) == 2 else Severity.ERROR
        diag: Diagnostic
        if d.HasField("attribute") and len(d.attribute.steps):
            diag = AttributeDiagnostic(
                sev, d.summary, d.detail, attribute_path=path_from_proto(d.attribute)
            )
        else:
            diag = Diagnostic(sev, d.summary, d.detail)
        out.append(diag)
    return out
