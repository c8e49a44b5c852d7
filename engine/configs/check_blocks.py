"""`check` blocks: a scoped data source and `assert` rules evaluated after plan/apply."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.configs.checks import CheckRule, decode_check_rule
from engine.configs.exprs import valid_identifier
from engine.configs.resources import DATA, Resource, decode_resource_block
from engine.configs.syntax import BlockSchema, BodySchema, content
from engine.configs.variables import BAD_IDENTIFIER_DETAIL
from engine.diags import Diagnostics, error
from engine.hcl.ast import Block
from engine.source import Range

CHECK_SCHEMA = BodySchema((), (BlockSchema("data", ("type", "name")), BlockSchema("assert")))


@dataclass(slots=True)
class Check:
    """A `check` block: its name, scoped data source and assertions."""

    name: str
    decl_range: Range
    data_resource: Resource | None = None
    asserts: list[CheckRule] = field(default_factory=list)


def decode_check_block(block: Block, override: bool) -> tuple[Check, Diagnostics]:
    """Decode `check "name" { data ... assert { ... } }`."""
    diags = Diagnostics()
    chk = Check(block.labels[0], block.def_range)
    if override:
        diags.append(
            error("Can't override check blocks", "Override files cannot override check blocks.", block.def_range)
        )
        return chk, diags
    got, cdiags = content(block.body, CHECK_SCHEMA, block)
    diags.extend(cdiags)
    if not valid_identifier(chk.name):
        diags.append(error("Invalid check block name", BAD_IDENTIFIER_DETAIL, block.label_ranges[0]))
    for blk in got.blocks:
        if blk.type == "data":
            if chk.data_resource is not None:
                diags.append(
                    error(
                        "Multiple data resource blocks",
                        "This check block already has a data resource defined at "
                        f"{chk.data_resource.decl_range}.",
                        blk.def_range,
                    )
                )
                continue
            data, dd = decode_resource_block(blk, override, DATA)
            diags.extend(dd)
            if not dd.has_errors:
                data.container = chk.name
                chk.data_resource = data
        else:
            rule, rd = decode_check_rule(blk, override)
            diags.extend(rd)
            if not rd.has_errors:
                chk.asserts.append(rule)
    if not chk.asserts:
        diags.append(
            error("Zero assert blocks", "Check blocks must have at least one assert block.", block.def_range)
        )
    return chk, diags
