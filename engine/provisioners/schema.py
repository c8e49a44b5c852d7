"""Provisioner configuration schemas, and decoding a provisioner body against one.

A provisioner's arguments (everything in its block except `when`, `on_failure` and
`connection`, which `engine.configs` takes out) are decoded the way Terraform decodes them
with hcldec: arguments the schema does not name are HCL's "Unsupported argument" /
"Unsupported block type" errors, a missing required one is "Missing required argument" (at the
block's opening brace), and a value that does not convert to the attribute's type is
"Incorrect attribute value type" with the detail `Inappropriate value for attribute "x": ...`.

`decode_config(body, schema, ctx)` returns an object value with one attribute per schema
attribute (absent ones are typed nulls; ones that failed to evaluate or convert are typed
unknowns) plus the diagnostics, in source order. Marks (sensitivity) on argument values are kept.

`LOCAL_EXEC_SCHEMA`, `FILE_SCHEMA` and `REMOTE_EXEC_SCHEMA` are those provisioners' schemas,
as Terraform's.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.configs.syntax import AttrSchema, BodySchema, content
from engine.diags import Diagnostics, error
from engine.hcl.ast import Body
from engine.lang import EvalContext, evaluate
from engine.values import (
    BOOL,
    STRING,
    ConversionError,
    ListType,
    MapType,
    ObjectType,
    Type,
    Value,
    convert,
    null,
    object_,
    unknown,
)


@dataclass(frozen=True, slots=True)
class AttributeSpec:
    """One argument of a provisioner: its name, type and whether it must be given."""

    name: str
    type: Type
    required: bool = False


@dataclass(frozen=True, slots=True)
class ConfigSchema:
    """The arguments a provisioner type accepts (provisioners have no nested blocks)."""

    attributes: tuple[AttributeSpec, ...]

    def implied_type(self) -> ObjectType:
        """The object type of a decoded configuration."""
        return ObjectType({a.name: a.type for a in self.attributes})

    def body_schema(self) -> BodySchema:
        """The schema for HCL content decoding (names and required-ness only)."""
        return BodySchema(attributes=tuple(AttrSchema(a.name, a.required) for a in self.attributes))


LOCAL_EXEC_SCHEMA = ConfigSchema(
    (
        AttributeSpec("command", STRING, required=True),
        AttributeSpec("interpreter", ListType(STRING)),
        AttributeSpec("working_dir", STRING),
        AttributeSpec("environment", MapType(STRING)),
        AttributeSpec("quiet", BOOL),
    )
)

FILE_SCHEMA = ConfigSchema(
    (
        AttributeSpec("source", STRING),
        AttributeSpec("content", STRING),
        AttributeSpec("destination", STRING, required=True),
    )
)

REMOTE_EXEC_SCHEMA = ConfigSchema(
    (
        AttributeSpec("inline", ListType(STRING)),
        AttributeSpec("script", STRING),
        AttributeSpec("scripts", ListType(STRING)),
    )
)


def decode_config(body: Body, schema: ConfigSchema, ctx: EvalContext) -> tuple[Value, Diagnostics]:
    """Decode `body` against `schema`, evaluating each argument in `ctx` (see module doc)."""
    got, diags = content(body, schema.body_schema())
    attrs: dict[str, Value] = {}
    for spec in schema.attributes:
        attr = got.attributes.get(spec.name)
        if attr is None:
            attrs[spec.name] = null(spec.type)
            continue
        val, more = evaluate(attr.expr, ctx)
        diags.extend(more)
        if more.has_errors:
            attrs[spec.name] = unknown(spec.type)
            continue
        try:
            attrs[spec.name] = convert(val, spec.type)
        except ConversionError as exc:
            diags.append(
                error(
                    "Incorrect attribute value type",
                    f'Inappropriate value for attribute "{spec.name}": {exc}.',
                    attr.expr.range,
                    attr.name_range.to(attr.expr.range),
                )
            )
            attrs[spec.name] = unknown(spec.type)
    diags.items.sort(key=lambda d: d.subject.start_offset if d.subject is not None else -1)
    return object_(attrs), diags
