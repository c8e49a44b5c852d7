"""`override_resource`, `override_data` and `override_module` blocks, and which one applies.

An override names a target (`aws_s3_bucket.b`, `data.x.y`, `module.m`, or one instance of
them) and an object of values (`values`, or `outputs` for modules) evaluated without any
scope, as terraform's `attribute.Expr.Value(nil)`. `override_during = plan` makes the values
visible while planning (default: only once applied). Run-level overrides win over file-level
ones, which win over those inside a mock provider (terraform's mocking.PackageOverrides).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.addrs import AbsResourceInstance, AddressSyntaxError, parse_target
from engine.configs.exprs import abs_traversal, expr_as_keyword, static_value
from engine.configs.syntax import AttrSchema, BodySchema, content
from engine.diags import Diagnostics, error
from engine.hcl.ast import Block, traversal_str
from engine.source import Range
from engine.values import Value, object_
from engine.values.types import ObjectType

KINDS = {"override_resource": "values", "override_data": "values", "override_module": "outputs"}


@dataclass(slots=True)
class Override:
    """One override block, decoded."""

    kind: str  # override_resource | override_data | override_module
    target_str: str
    target: object
    values: Value
    during_plan: bool
    decl_range: Range
    values_range: Range | None = None
    target_range: Range | None = None  # the whole `target` argument
    from_mock_file: bool = False  # read from a mock provider's .tfmock.hcl files

    def matches_instance(self, addr: AbsResourceInstance) -> bool:
        """Whether this override is for resource instance `addr` (the whole resource, or
        exactly that instance)."""
        text = self.target_str
        return text in (str(addr), str(addr.abs_resource), str(addr.abs_resource.config()))


def decode_override(block: Block, during_plan_default: bool = False
                    ) -> tuple[Override | None, Diagnostics]:
    """An override block (terraform's decodeOverrideBlock)."""
    values_attr = KINDS[block.type]
    schema = BodySchema(attributes=(AttrSchema("target"), AttrSchema("override_during"),
                                    AttrSchema(values_attr)))
    got, diags = content(block.body, schema, block)
    target_str = ""
    target: object = None
    t = got.attributes.get("target")
    if t is None:
        diags.append(error("Missing target attribute",
                           f"{block.type} blocks must specify a target address.",
                           block.def_range))
    else:
        trav, more = abs_traversal(t.expr, shim=False)
        diags.extend(more)
        if trav is not None:
            target_str = traversal_str(trav)
            try:
                target = parse_target(target_str)
            except AddressSyntaxError as exc:
                diags.append(error("Invalid address", str(exc), t.expr.range))
    values = object_({})
    values_range = None
    v = got.attributes.get(values_attr)
    if v is not None:
        values_range = v.expr.range
        val, more = static_value(v.expr)
        diags.extend(more)
        if val is not None:
            values = val
    during = during_plan_default
    d = got.attributes.get("override_during")
    if d is not None:
        word = expr_as_keyword(d.expr)
        if word in ("plan", "apply"):
            during = word == "plan"
        else:
            diags.append(error("Invalid override_during value",
                               "The override_during attribute must be a value of plan or apply.",
                               d.range))
    if not isinstance(values.type, ObjectType):
        article = "an" if values_attr == "outputs" else "a"
        diags.append(error(f"Invalid {values_attr} attribute",
                           f"{block.type} blocks must specify {article} {values_attr} attribute "
                           "that is an object.", values_range))
    if diags.has_errors or not target_str:
        return None, diags
    return Override(block.type, target_str, target, values, during, block.def_range,
                    values_range, t.range if t is not None else None), diags


def resource_override(layers: Iterable[Iterable[Override]], addr: AbsResourceInstance,
                      data: bool) -> Override | None:
    """The override for `addr` from the first layer (run, file, mock provider) that has one."""
    kind = "override_data" if data else "override_resource"
    for layer in layers:
        for ov in layer:
            if ov.kind == kind and ov.matches_instance(addr):
                return ov
    return None


def module_overrides(layers: Iterable[Iterable[Override]]) -> dict[str, Override]:
    """`module.NAME` (as written) -> the override_module block that wins for it."""
    out: dict[str, Override] = {}
    for layer in reversed(list(layers)):
        for ov in layer:
            if ov.kind == "override_module":
                out[ov.target_str] = ov
    return out
