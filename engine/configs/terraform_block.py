"""The `terraform { ... }` block: required_version, required_providers, backend, cloud,
provider_meta, experiments, and OpenTofu-style `encryption` (kept as a raw body)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.configs.exprs import expr_as_keyword, static_value
from engine.configs.meta import check_provider_name_normalized
from engine.configs.providers import RequiredProvider, decode_required_providers_block
from engine.configs.syntax import AttrSchema, BlockSchema, BodySchema, content, just_attributes
from engine.configs.versions import VersionConstraint, decode_version_constraint
from engine.diags import Diagnostics, error
from engine.hcl.ast import Block, Body
from engine.source import Range
from engine.version import TERRAFORM_VERSION

TERRAFORM_SCHEMA = BodySchema(
    (AttrSchema("required_version"), AttrSchema("experiments"), AttrSchema("language")),
    (
        BlockSchema("backend", ("type",)),
        BlockSchema("cloud"),
        BlockSchema("required_providers"),
        BlockSchema("provider_meta", ("provider",)),
        BlockSchema("encryption"),
    ),
)


@dataclass(slots=True)
class Backend:
    """A `backend "type" { ... }` (or `cloud { ... }`, type "cloud") with its raw config."""

    type: str
    config: Body
    decl_range: Range
    type_range: Range


@dataclass(slots=True)
class RawBlock:
    """A block kept unevaluated for a later stage (encryption, provider_meta)."""

    body: Body
    decl_range: Range
    label: str = ""


@dataclass(slots=True)
class TerraformSettings:
    """What one `terraform` block contributed."""

    required_versions: list[VersionConstraint] = field(default_factory=list)
    required_providers: list[tuple[list[RequiredProvider], Range]] = field(default_factory=list)
    backends: list[Backend] = field(default_factory=list)
    clouds: list[Backend] = field(default_factory=list)
    provider_metas: list[RawBlock] = field(default_factory=list)
    encryptions: list[RawBlock] = field(default_factory=list)


def decode_provider_meta_block(block: Block) -> tuple[RawBlock | None, Diagnostics]:
    """Terraform's decodeProviderMetaBlock: only arguments, each a static value (no
    variables, no function calls), under a normalized provider local name."""
    attrs, diags = just_attributes(block.body)
    if diags.has_errors:
        return None, diags
    for attr in attrs.values():
        diags.extend(static_value(attr.expr)[1])
    name_diags = check_provider_name_normalized(block.labels[0], block.def_range)
    diags.extend(name_diags)
    if name_diags.has_errors:
        return None, diags
    return RawBlock(block.body, block.def_range, block.labels[0]), diags


def decode_terraform_block(block: Block) -> tuple[TerraformSettings, Diagnostics]:
    got, diags = content(block.body, TERRAFORM_SCHEMA, block)
    out = TerraformSettings()
    a = got.attributes
    if "required_version" in a:
        vc, d = decode_version_constraint(a["required_version"])
        diags.extend(d)
        if vc is not None:
            out.required_versions.append(vc)
    if "experiments" in a:
        # release builds refuse experiments outright
        diags.append(
            error(
                "Module uses experimental features",
                "Experimental features are intended only for gathering early feedback on new "
                "language designs, and so are available only in alpha releases of groundplan.",
                a["experiments"].range,
            )
        )
    if "language" in a:
        kw = expr_as_keyword(a["language"].expr)
        if kw != "TF2021":
            diags.append(
                error(
                    "Unsupported language edition",
                    f"Terraform v{TERRAFORM_VERSION} only supports language edition TF2021. This "
                    "module requires a newer version of Terraform CLI.",
                    a["language"].expr.range,
                )
            )
    for blk in got.blocks:
        if blk.type == "backend":
            out.backends.append(Backend(blk.labels[0], blk.body, blk.def_range, blk.label_ranges[0]))
        elif blk.type == "cloud":
            out.clouds.append(Backend("cloud", blk.body, blk.def_range, blk.type_range))
        elif blk.type == "required_providers":
            reqs, d = decode_required_providers_block(blk)
            diags.extend(d)
            if reqs is not None:
                out.required_providers.append((reqs, blk.def_range))
        elif blk.type == "provider_meta":
            pm, d = decode_provider_meta_block(blk)
            diags.extend(d)
            if pm is not None:
                out.provider_metas.append(pm)
        else:
            from engine.configs.encryption_block import decode_encryption

            diags.extend(decode_encryption(blk.body, blk.def_range)[1])  # structure, with lines
            out.encryptions.append(RawBlock(blk.body, blk.def_range))
    return out, diags
