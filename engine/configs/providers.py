"""Providers in configuration: `provider` blocks, `required_providers` entries, and provider
source addresses (`hashicorp/aws` → `registry.terraform.io/hashicorp/aws`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.configs import registry_addrs as registry
from engine.configs.exprs import (
    abs_traversal,
    decode_string,
    expr_list,
    literal_string,
    unwrap,
    valid_identifier,
)
from engine.configs.meta import check_provider_name_normalized
from engine.configs.registry_addrs import ParserError
from engine.configs.syntax import (
    AttrSchema,
    BlockSchema,
    BodySchema,
    just_attributes,
    partial_content,
)
from engine.configs.variables import BAD_IDENTIFIER_DETAIL
from engine.configs.versions import VersionConstraint, parse_constraint
from engine.diags import Diagnostics, error, warning
from engine.hcl import ast
from engine.hcl.ast import Block, Body
from engine.source import Range

DEFAULT_REGISTRY = "registry.terraform.io"
BUILTIN_HOST = "terraform.io"


@dataclass(frozen=True, slots=True)
class ProviderAddr:
    """A fully-qualified provider: hostname, namespace and type."""

    hostname: str
    namespace: str
    type: str

    def __str__(self) -> str:
        return f"{self.hostname}/{self.namespace}/{self.type}"

    def for_display(self) -> str:
        if self.hostname == DEFAULT_REGISTRY:
            return f"{self.namespace}/{self.type}"
        return str(self)


def default_provider(local_name: str) -> ProviderAddr:
    """The provider a local name implies with no `source`: hashicorp/<name>, and the built-in
    terraform provider for `terraform`."""
    if local_name == "terraform":
        return ProviderAddr(BUILTIN_HOST, "builtin", "terraform")
    return ProviderAddr(DEFAULT_REGISTRY, "hashicorp", local_name)


def parse_provider_source(source: str) -> tuple[ProviderAddr | None, ParserError | None]:
    """A provider source string as a fully-qualified address (namespace `hashicorp` when none
    is given), or why not: terraform's ParseProviderSourceString, its summary and detail."""
    try:
        got = registry.parse_provider_source_string(source)
    except ParserError as exc:
        return None, exc
    return ProviderAddr(got.hostname, got.namespace, got.type), None


@dataclass(slots=True)
class RequiredProvider:
    """One `required_providers` entry."""

    name: str
    source: str
    addr: ProviderAddr
    decl_range: Range
    requirement: VersionConstraint | None = None
    configuration_aliases: list[tuple[str, Range]] = field(default_factory=list)


@dataclass(slots=True)
class ProviderConfig:
    """A `provider "name" { ... }` block; `config` holds the provider's own arguments."""

    name: str
    name_range: Range
    decl_range: Range
    config: Body
    alias: str = ""
    alias_range: Range | None = None
    version: VersionConstraint | None = None

    @property
    def key(self) -> str:
        """`name` or `name.alias`, as module-level maps key provider configurations."""
        return f"{self.name}.{self.alias}" if self.alias else self.name


_RESERVED_PROVIDER_ARGS = ("count", "depends_on", "for_each", "source")
PROVIDER_SCHEMA = BodySchema(
    (AttrSchema("alias"), AttrSchema("version"), *(AttrSchema(n) for n in _RESERVED_PROVIDER_ARGS)),
    (BlockSchema("_"), BlockSchema("lifecycle"), BlockSchema("locals")),
)


def decode_provider_block(block: Block) -> tuple[ProviderConfig | None, Diagnostics]:
    """Decode `provider "aws" { alias = "west" ... }`."""
    got, remain, diags = partial_content(block.body, PROVIDER_SCHEMA, block)
    name = block.labels[0]
    nd = check_provider_name_normalized(name, block.def_range)
    diags.extend(nd)
    if nd.has_errors:
        return None, diags
    pc = ProviderConfig(name, block.label_ranges[0], block.def_range, remain)
    a = got.attributes
    if "alias" in a:
        alias, d = decode_string(a["alias"])
        diags.extend(d)
        pc.alias, pc.alias_range = alias or "", a["alias"].expr.range
        if alias is not None and not valid_identifier(alias):
            diags.append(
                error(
                    "Invalid provider configuration alias",
                    f"An alias must be a valid name. {BAD_IDENTIFIER_DETAIL}",
                )
            )
    if "version" in a:
        diags.append(
            warning(
                "Version constraints inside provider configuration blocks are deprecated",
                "Terraform 0.13 and earlier allowed provider version constraints inside the "
                "provider configuration block, but that is now deprecated and will be removed in "
                "a future version of Terraform. To silence this warning, move the provider "
                "version constraint into the required_providers block.",
                a["version"].expr.range,
            )
        )
        text, d = decode_string(a["version"])
        diags.extend(d)
        if text is not None:
            clauses = parse_constraint(text)
            if clauses is None:
                diags.append(
                    error(
                        "Invalid version constraint",
                        "This string does not use correct version constraint syntax.",
                        a["version"].expr.range,
                    )
                )
            else:
                pc.version = VersionConstraint(text, a["version"].range, clauses)
    for name in _RESERVED_PROVIDER_ARGS:
        if name in a:
            diags.append(
                error(
                    "Reserved argument name in provider block",
                    f'The provider argument name "{name}" is reserved for use by groundplan in a '
                    "future version.",
                    a[name].name_range,
                )
            )
    for blk in got.blocks:
        if blk.type == "_":
            from engine.configs.syntax import merged_body

            pc.config = merged_body(pc.config, blk.body)
        else:
            diags.append(
                error(
                    "Reserved block type name in provider block",
                    f'The block type name "{blk.type}" is reserved for use by groundplan in a '
                    "future version.",
                    blk.type_range,
                )
            )
    return pc, diags


def _version_of(expr: ast.Expr, diags: Diagnostics, rng: Range) -> VersionConstraint | None:
    text = literal_string(expr)
    if text is None:
        diags.append(error("Invalid version constraint", "Version must be specified as a string.", expr.range))
        return None
    clauses = parse_constraint(text)
    if clauses is None:
        diags.append(
            error("Invalid version constraint", "This string does not use correct version constraint syntax.", expr.range)
        )
        return None
    return VersionConstraint(text, rng, clauses)


def decode_required_providers_block(block: Block) -> tuple[list[RequiredProvider] | None, Diagnostics]:
    """The entries of `required_providers { name = { source, version, configuration_aliases } }`;
    None when the block holds more than arguments (as terraform, it then counts as absent)."""
    attrs, diags = just_attributes(block.body)
    if diags.has_errors:
        return None, diags
    out: list[RequiredProvider] = []
    for name, attr in attrs.items():
        nd = check_provider_name_normalized(name, attr.range)
        diags.extend(nd)
        if nd.has_errors:
            continue
        rp = RequiredProvider(name, "", default_provider(name), attr.expr.range)
        expr = unwrap(attr.expr)
        if literal_string(expr) is not None:
            rp.requirement = _version_of(expr, diags, attr.range)
            out.append(rp)
            continue
        if not isinstance(expr, ast.ObjectConsExpr):
            diags.append(
                error(
                    "Invalid required_providers object",
                    "required_providers entries must be strings or objects.",
                    attr.expr.range,
                )
            )
            continue
        for item in expr.items:
            key = item.key.as_literal_name() or literal_string(item.key.wrapped)
            if key == "version":
                rp.requirement = _version_of(item.value, diags, item.value.range)
            elif key == "source":
                src = literal_string(item.value)
                if src is None:
                    diags.append(error("Invalid source", "Source must be specified as a string.", item.value.range))
                    continue
                addr, problem = parse_provider_source(src)
                if addr is None:
                    assert problem is not None
                    diags.append(error(problem.summary, problem.detail, item.value.range))
                    continue
                rp.source, rp.addr = src, addr
            elif key == "configuration_aliases":
                exprs, d = expr_list(item.value)
                diags.extend(d)
                for e in exprs:
                    t, td = abs_traversal(e)
                    diags.extend(td)
                    if t is None:
                        continue
                    if len(t) != 2 or t[0].name != name:  # type: ignore[union-attr]
                        diags.append(
                            error(
                                "Invalid configuration_aliases value",
                                f'Configuration aliases can only contain references to local '
                                f'provider configuration names within "{name}".',
                                e.range,
                            )
                        )
                        continue
                    rp.configuration_aliases.append((t[1].name, e.range))  # type: ignore[union-attr]
            else:
                diags.append(
                    error(
                        "Invalid required_providers object",
                        'required_providers objects can only contain "version", "source" and '
                        '"configuration_aliases" attributes. To configure a provider, use a '
                        '"provider" block.',
                        item.key.range,
                    )
                )
        out.append(rp)
    return out, diags
