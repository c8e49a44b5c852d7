"""`output` blocks and the entries of `locals` blocks."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.configs.checks import CheckRule, decode_check_rule
from engine.configs.exprs import decode_bool, decode_string, valid_identifier
from engine.configs.meta import decode_depends_on
from engine.configs.syntax import AttrSchema, BlockSchema, BodySchema, content, just_attributes
from engine.configs.variables import BAD_IDENTIFIER_DETAIL
from engine.diags import Diagnostics, error
from engine.hcl.ast import Block, Expr, Traversal
from engine.source import Range

OUTPUT_SCHEMA = BodySchema(
    attributes=(
        AttrSchema("description"),
        AttrSchema("value", required=True),
        AttrSchema("depends_on"),
        AttrSchema("sensitive"),
        AttrSchema("ephemeral"),
    ),
    blocks=(BlockSchema("precondition"), BlockSchema("postcondition")),
)


@dataclass(slots=True)
class Output:
    """An output value: its expression (None only in override files) and settings."""

    name: str
    decl_range: Range
    expr: Expr | None = None
    description: str = ""
    description_set: bool = False
    sensitive: bool = False
    sensitive_set: bool = False
    ephemeral: bool = False
    ephemeral_set: bool = False
    depends_on: list[Traversal] = field(default_factory=list)
    preconditions: list[CheckRule] = field(default_factory=list)


@dataclass(slots=True)
class Local:
    """One `name = expr` entry of a `locals` block."""

    name: str
    expr: Expr
    decl_range: Range


def decode_output_block(block: Block, override: bool) -> tuple[Output, Diagnostics]:
    """Decode `output "name" { ... }`."""
    o = Output(name=block.labels[0], decl_range=block.def_range)
    schema = OUTPUT_SCHEMA.without_required() if override else OUTPUT_SCHEMA
    got, diags = content(block.body, schema, block)
    if not valid_identifier(o.name):
        diags.append(error("Invalid output name", BAD_IDENTIFIER_DETAIL, block.label_ranges[0]))
    a = got.attributes
    if "description" in a:
        s, d = decode_string(a["description"])
        diags.extend(d)
        o.description, o.description_set = s or "", True
    if "value" in a:
        o.expr = a["value"].expr
    if "sensitive" in a:
        b, d = decode_bool(a["sensitive"])
        diags.extend(d)
        o.sensitive, o.sensitive_set = bool(b), True
    if "ephemeral" in a:
        b, d = decode_bool(a["ephemeral"])
        diags.extend(d)
        o.ephemeral, o.ephemeral_set = bool(b), True
    if "depends_on" in a:
        deps, d = decode_depends_on(a["depends_on"])
        diags.extend(d)
        o.depends_on.extend(deps)
    for blk in got.blocks:
        if blk.type == "postcondition":
            diags.append(
                error(
                    "Postconditions are not allowed",
                    "Output values can only have preconditions, not postconditions.",
                    blk.type_range,
                )
            )
            continue
        rule, d = decode_check_rule(blk, override)
        diags.extend(d)
        o.preconditions.append(rule)
    return o, diags


def decode_locals_block(block: Block) -> tuple[list[Local], Diagnostics]:
    """The entries of a `locals { ... }` block, in source order."""
    attrs, diags = just_attributes(block.body)
    out: list[Local] = []
    for name, attr in attrs.items():
        if not valid_identifier(name):
            diags.append(error("Invalid local value name", BAD_IDENTIFIER_DETAIL, attr.name_range))
        out.append(Local(name, attr.expr, attr.range))
    return out, diags
