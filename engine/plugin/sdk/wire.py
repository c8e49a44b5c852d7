"""Conversion between the engine's provider-protocol objects and tfplugin6 messages, for the
server side: schemas, diagnostics, attribute paths and DynamicValues.

- `schema_to_proto(schema)`: a `Schema` as `tfplugin6.Schema` (attribute types as cty type
  JSON bytes; attributes and block types sorted by name, as terraform-plugin-go sends them);
- `diagnostic_to_proto(diag)`: severity, summary, detail, and the attribute path when the
  diagnostic is an `AttributeDiagnostic`;
- `path_to_proto(path)` / `path_from_proto(msg)`;
- `dynamic_value(value, type)` (msgpack) and `value_of(dv, type)` (msgpack or JSON; empty is
  null of the type).
"""

from __future__ import annotations

import json

from engine.diags import Diagnostic, Diagnostics, Severity
from engine.plugin import msgpack_codec
from engine.plugin.paths import AttributePath, AttrStep
from engine.plugin.proto import tfplugin6_pb2 as pb
from engine.plugin.protocol import AttributeDiagnostic
from engine.plugin.schema import Attribute, Block, NestedObject, Nesting, Schema
from engine.values import NUMBER, STRING, Type, Value

__all__ = [
    "diagnostic_to_proto", "diagnostics_to_proto", "dynamic_value", "path_from_proto",
    "path_to_proto", "schema_to_proto", "value_of",
]

_KIND = {"plain": pb.PLAIN, "markdown": pb.MARKDOWN}
_BLOCK_NESTING = {
    Nesting.SINGLE: pb.Schema.NestedBlock.SINGLE,
    Nesting.LIST: pb.Schema.NestedBlock.LIST,
    Nesting.SET: pb.Schema.NestedBlock.SET,
    Nesting.MAP: pb.Schema.NestedBlock.MAP,
    Nesting.GROUP: pb.Schema.NestedBlock.GROUP,
}
_OBJECT_NESTING = {
    Nesting.SINGLE: pb.Schema.Object.SINGLE,
    Nesting.LIST: pb.Schema.Object.LIST,
    Nesting.SET: pb.Schema.Object.SET,
    Nesting.MAP: pb.Schema.Object.MAP,
}


def _type_json(t: Type) -> bytes:
    return json.dumps(t.to_json(), separators=(",", ":")).encode()


def _attribute(name: str, a: Attribute) -> pb.Schema.Attribute:
    msg = pb.Schema.Attribute(
        name=name,
        description=a.description,
        description_kind=_KIND.get(a.description_kind, pb.PLAIN),
        required=a.required,
        optional=a.optional,
        computed=a.computed,
        sensitive=a.sensitive,
        deprecated=a.deprecated,
        write_only=a.write_only,
    )
    if a.nested_type is not None:
        msg.nested_type.CopyFrom(_object(a.nested_type))
    else:
        msg.type = _type_json(a.implied_type())
    return msg


def _object(o: NestedObject) -> pb.Schema.Object:
    return pb.Schema.Object(
        attributes=[_attribute(n, a) for n, a in sorted(o.attributes.items())],
        nesting=_OBJECT_NESTING[o.nesting],
    )


def _block(b: Block, version: int = 0) -> pb.Schema.Block:
    return pb.Schema.Block(
        version=version,
        attributes=[_attribute(n, a) for n, a in sorted(b.attributes.items())],
        block_types=[
            pb.Schema.NestedBlock(
                type_name=n,
                block=_block(nb.block),
                nesting=_BLOCK_NESTING[nb.nesting],
                min_items=nb.min_items,
                max_items=nb.max_items,
            )
            for n, nb in sorted(b.block_types.items())
        ],
        description=b.description,
        description_kind=_KIND.get(b.description_kind, pb.PLAIN),
        deprecated=b.deprecated,
    )


def schema_to_proto(schema: Schema) -> pb.Schema:
    """The wire form of `schema`."""
    return pb.Schema(version=schema.version, block=_block(schema.block, schema.version))


def path_to_proto(path: AttributePath) -> pb.AttributePath:
    steps = []
    for s in path.steps:
        if isinstance(s, AttrStep):
            steps.append(pb.AttributePath.Step(attribute_name=s.name))
        elif s.key.type == NUMBER and isinstance(s.key.v, int):
            steps.append(pb.AttributePath.Step(element_key_int=s.key.v))
        else:
            steps.append(pb.AttributePath.Step(element_key_string=str(s.key.v)))
    return pb.AttributePath(steps=steps)


def path_from_proto(msg: pb.AttributePath) -> AttributePath:
    path = AttributePath.root()
    for s in msg.steps:
        which = s.WhichOneof("selector")
        if which == "attribute_name":
            path = path.attr(s.attribute_name)
        elif which == "element_key_int":
            path = path.index(s.element_key_int)
        else:
            path = path.index(Value(STRING, s.element_key_string))
    return path


def diagnostic_to_proto(d: Diagnostic) -> pb.Diagnostic:
    msg = pb.Diagnostic(
        severity=pb.Diagnostic.ERROR if d.severity is Severity.ERROR else pb.Diagnostic.WARNING,
        summary=d.summary,
        detail=d.detail,
    )
    if isinstance(d, AttributeDiagnostic) and d.attribute_path is not None:
        msg.attribute.CopyFrom(path_to_proto(d.attribute_path))
    return msg


def diagnostics_to_proto(diags: Diagnostics | list[Diagnostic]) -> list[pb.Diagnostic]:
    return [diagnostic_to_proto(d) for d in diags]


def dynamic_value(value: Value, t: Type) -> pb.DynamicValue:
    """`value` as a msgpack DynamicValue of type `t`."""
    return pb.DynamicValue(msgpack=msgpack_codec.encode(value, t))


def value_of(dv: pb.DynamicValue, t: Type) -> Value:
    """The value a DynamicValue holds, as type `t`."""
    return msgpack_codec.decode_dynamic_value(dv.msgpack, dv.json, t)
