"""Decoding one configuration file's top level into the objects it declares."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.configs.check_blocks import Check, decode_check_block
from engine.configs.module_calls import ModuleCall, decode_module_block
from engine.configs.outputs import Local, Output, decode_locals_block, decode_output_block
from engine.configs.providers import ProviderConfig, decode_provider_block
from engine.configs.refactoring import (
    Import,
    Moved,
    Removed,
    decode_import_block,
    decode_moved_block,
    decode_removed_block,
)
from engine.configs.resources import DATA, EPHEMERAL, MANAGED, Resource, decode_resource_block
from engine.configs.syntax import AttrSchema, BlockSchema, BodySchema, content, partial_content
from engine.configs.terraform_block import TerraformSettings, decode_terraform_block
from engine.configs.variables import Variable, decode_variable_block
from engine.diags import Diagnostics, error
from engine.hcl.ast import Body

FILE_SCHEMA = BodySchema(
    (),
    (
        BlockSchema("terraform"),
        BlockSchema("required_providers"),
        BlockSchema("provider", ("name",)),
        BlockSchema("variable", ("name",)),
        BlockSchema("locals"),
        BlockSchema("output", ("name",)),
        BlockSchema("module", ("name",)),
        BlockSchema("resource", ("type", "name")),
        BlockSchema("data", ("type", "name")),
        BlockSchema("ephemeral", ("type", "name")),
        BlockSchema("moved"),
        BlockSchema("import"),
        BlockSchema("check", ("name",)),
        BlockSchema("removed"),
    ),
)


@dataclass(slots=True)
class FileContents:
    """Everything one file declares, in source order per kind."""

    filename: str
    override: bool
    terraform: list[TerraformSettings] = field(default_factory=list)
    variables: list[Variable] = field(default_factory=list)
    locals: list[Local] = field(default_factory=list)
    outputs: list[Output] = field(default_factory=list)
    providers: list[ProviderConfig] = field(default_factory=list)
    module_calls: list[ModuleCall] = field(default_factory=list)
    managed: list[Resource] = field(default_factory=list)
    data: list[Resource] = field(default_factory=list)
    ephemeral: list[Resource] = field(default_factory=list)
    moved: list[Moved] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    removed: list[Removed] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)


_SNIFF_ROOT = BodySchema((), (BlockSchema("terraform"),))
_SNIFF_BLOCKS = (
    BodySchema((AttrSchema("required_version"),)),
    BodySchema((AttrSchema("experiments"), AttrSchema("language"))),
)


def _sniff_diags(body: Body) -> Diagnostics:
    """The structural diagnostics of terraform's two early looks at a file's `terraform`
    blocks (sniffCoreVersionRequirements, sniffActiveExperiments): each decodes the root
    body and those blocks' bodies partially, so what is wrong with their shape (a label on
    `terraform`, a JSON root array element that is no object) is reported by each again."""
    diags = Diagnostics()
    for inner in _SNIFF_BLOCKS:
        got, _, more = partial_content(body, _SNIFF_ROOT)
        diags.extend(more)
        for blk in got.blocks:
            _, _, more = partial_content(blk.body, inner, blk)
            diags.extend(more)
    return diags


def decode_file_body(body: Body, filename: str, override: bool) -> tuple[FileContents, Diagnostics]:
    """Decode a file's root body (Terraform's loadConfigFile)."""
    diags = _sniff_diags(body)
    got, more = content(body, FILE_SCHEMA)
    diags.extend(more)
    fc = FileContents(filename, override)
    for blk in got.blocks:
        t = blk.type
        if t == "terraform":
            ts, d = decode_terraform_block(blk)
            diags.extend(d)
            fc.terraform.append(ts)
        elif t == "required_providers":
            diags.append(
                error(
                    "Invalid required_providers block",
                    'A "required_providers" block must be nested inside a "terraform" block.',
                    blk.type_range,
                )
            )
        elif t == "provider":
            pc, d = decode_provider_block(blk)
            diags.extend(d)
            if pc is not None:
                fc.providers.append(pc)
        elif t == "variable":
            v, d = decode_variable_block(blk, override)
            diags.extend(d)
            fc.variables.append(v)
        elif t == "locals":
            ls, d = decode_locals_block(blk)
            diags.extend(d)
            fc.locals.extend(ls)
        elif t == "output":
            o, d = decode_output_block(blk, override)
            diags.extend(d)
            fc.outputs.append(o)
        elif t == "module":
            mc, d = decode_module_block(blk, override)
            diags.extend(d)
            fc.module_calls.append(mc)
        elif t in ("resource", "data", "ephemeral"):
            mode = {"resource": MANAGED, "data": DATA, "ephemeral": EPHEMERAL}[t]
            r, d = decode_resource_block(blk, override, mode)
            diags.extend(d)
            {MANAGED: fc.managed, DATA: fc.data, EPHEMERAL: fc.ephemeral}[mode].append(r)
        elif t == "moved":
            m, d = decode_moved_block(blk)
            diags.extend(d)
            fc.moved.append(m)
        elif t == "import":
            i, d = decode_import_block(blk)
            diags.extend(d)
            fc.imports.append(i)
        elif t == "removed":
            rm, d = decode_removed_block(blk)
            diags.extend(d)
            fc.removed.append(rm)
        else:
            c, d = decode_check_block(blk, override)
            diags.extend(d)
            fc.checks.append(c)
    return fc, diags
