"""`module` blocks: calls to child modules."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from typing import Protocol

from engine.configs.exprs import decode_string, unwrap, valid_identifier
from engine.configs.meta import ProviderConfigRef, decode_depends_on, decode_provider_config_ref
from engine.configs.registry_addrs import parse_module_registry_source
from engine.configs.syntax import AttrSchema, BlockSchema, BodySchema, merged_body, partial_content
from engine.configs.variables import BAD_IDENTIFIER_DETAIL
from engine.configs.versions import VersionConstraint, decode_version_constraint
from engine.diags import Diagnostics, error
from engine.gocompat.strconv import quote
from engine.hcl import ast
from engine.hcl.ast import Block, Body, Expr, Traversal
from engine.source import Range

MODULE_SCHEMA = BodySchema(
    (
        AttrSchema("source", required=True),
        AttrSchema("version"),
        AttrSchema("count"),
        AttrSchema("for_each"),
        AttrSchema("depends_on"),
        AttrSchema("providers"),
    ),
    (BlockSchema("_"), BlockSchema("lifecycle"), BlockSchema("locals"), BlockSchema("provider", ("type",))),
)


@dataclass(slots=True)
class PassedProvider:
    """One `providers = { child = parent }` entry."""

    in_child: ProviderConfigRef
    in_parent: ProviderConfigRef


@dataclass(slots=True)
class ModuleCall:
    """A module call; `config` holds the remaining arguments: the child's input variables."""

    name: str
    decl_range: Range
    name_range: Range
    config: Body
    source: str = ""
    source_range: Range | None = None
    # False when the source address could not be parsed (the call is then not followed)
    source_ok: bool = False
    version: VersionConstraint | None = None
    count: Expr | None = None
    for_each: Expr | None = None
    providers: list[PassedProvider] = field(default_factory=list)
    depends_on: list[Traversal] = field(default_factory=list)

    @property
    def is_local(self) -> bool:
        return is_local_source(self.source)


class SourcedCall(Protocol):
    """What installing a module needs of what names it: a module call, or a test file's run
    block's `module` (engine.configs.loader.ModuleRequest)."""

    @property
    def source(self) -> str: ...

    @property
    def version(self) -> VersionConstraint | None: ...

    @property
    def decl_range(self) -> Range: ...

    @property
    def source_range(self) -> Range | None: ...


def clean_local_source(source: str) -> str:
    """A local module source as terraform's parseModuleSourceLocal normalises it, the form
    modules.json records (`./a/../b/` -> `./b`, `./` -> `./.`, `..` -> `./..`)."""
    clean = posixpath.normpath(source.replace("\\", "/"))
    if not clean.startswith("../"):
        clean = "./" + clean
    return clean


def is_local_source(source: str) -> bool:
    """Whether a module source is a relative local path (`./x`, `../x`)."""
    return source.startswith(("./", "../", ".\\", "..\\")) or source in (".", "..")


_REGISTRY = re.compile(r"^([a-zA-Z0-9.-]+\.[a-zA-Z]+(:\d+)?/)?[0-9A-Za-z_-]+/[0-9A-Za-z_-]+/[0-9a-z]+(//.*)?$")
_REMOTE = re.compile(
    r"^([a-z0-9]+::|[a-z][a-z0-9+.-]*://|git@|github\.com/|bitbucket\.org/|/)"
)


def is_registry_source(source: str) -> bool:
    """Whether a module source is a module registry address (`ns/name/system`, with an
    optional registry host and `//subdir`), as terraform's ParseModuleSource tells them from
    remote package addresses (go-getter's shorthand hosts are not registries)."""
    if is_local_source(source) or "::" in source or _REGISTRY.match(source) is None:
        return False
    return not source.startswith(("github.com/", "bitbucket.org/"))


_ASSUMED_REGISTRY = (
    "groundplan assumed that you intended a module registry source address because you also "
    'set the argument "version", which applies only to registry modules.'
)


def source_problem(source: str, have_version: bool) -> tuple[str, str] | None:
    """(summary, detail) if a module source address cannot be parsed at load time. With a
    `version` argument the source must be a module registry address (terraform's
    ParseModuleSourceRegistry)."""
    if have_version:
        if source.startswith(("./", "../", ".\\", "..\\")):
            why = f"can't use local directory {quote(source)} as a module registry address"
        else:
            try:
                parse_module_registry_source(source)
                return None
            except ValueError as exc:
                why = str(exc)
        return (
            "Invalid registry module source address",
            f"Failed to parse module registry address: {why}.\n\n{_ASSUMED_REGISTRY}",
        )
    if is_local_source(source):
        return None
    try:
        parse_module_registry_source(source)
        return None
    except ValueError:
        pass
    if _REGISTRY.match(source) or _REMOTE.match(source) or re.match(r"^[a-zA-Z0-9.-]+\.[a-z]+/", source):
        return None
    return (
        "Invalid module source address",
        f'groundplan failed to determine your intended installation method for remote module '
        f'package "{source}".\n\nIf you intended this as a path relative to the current module, '
        f'use "./{source}" instead. The "./" prefix indicates that the address is a relative '
        "filesystem path.",
    )


def _providers_map(attr: ast.Attribute, diags: Diagnostics) -> list[PassedProvider]:
    expr = unwrap(attr.expr)
    if not isinstance(expr, ast.ObjectConsExpr):
        diags.append(error("Invalid expression", "A static map expression is required.", attr.expr.range))
        return []
    out: list[PassedProvider] = []
    for item in expr.items:
        key = item.key.wrapped
        child, d1 = decode_provider_config_ref(key, "providers")
        diags.extend(d1)
        parent, d2 = decode_provider_config_ref(item.value, "providers")
        diags.extend(d2)
        if child is not None and parent is not None:
            out.append(PassedProvider(child, parent))
    return out


def decode_module_block(block: Block, override: bool) -> tuple[ModuleCall, Diagnostics]:
    """Decode `module "name" { source = ... }`; other arguments stay in `config`."""
    schema = MODULE_SCHEMA.without_required() if override else MODULE_SCHEMA
    got, remain, diags = partial_content(block.body, schema, block)
    mc = ModuleCall(block.labels[0], block.def_range, block.label_ranges[0], remain)
    if not valid_identifier(mc.name):
        diags.append(error("Invalid module instance name", BAD_IDENTIFIER_DETAIL, block.label_ranges[0]))
    a = got.attributes
    if "version" in a:
        vc, d = decode_version_constraint(a["version"])
        diags.extend(d)
        mc.version = vc
    if "source" in a:
        mc.source_range = a["source"].expr.range
        src, d = decode_string(a["source"])
        diags.extend(d)
        if src is not None:
            mc.source = src
            problem = source_problem(src, "version" in a)
            if problem:
                diags.append(error(problem[0], problem[1], mc.source_range))
            else:
                mc.source_ok = True
    if "count" in a:
        mc.count = a["count"].expr
    if "for_each" in a:
        mc.for_each = a["for_each"].expr
        if mc.count is not None:
            diags.append(
                error(
                    'Invalid combination of "count" and "for_each"',
                    'The "count" and "for_each" meta-arguments are mutually-exclusive, only one '
                    "should be used to be explicit about the number of resources to be created.",
                    a["for_each"].name_range,
                )
            )
    if "depends_on" in a:
        deps, d = decode_depends_on(a["depends_on"])
        diags.extend(d)
        mc.depends_on.extend(deps)
    if "providers" in a:
        mc.providers = _providers_map(a["providers"], diags)
    seen_escape: Block | None = None
    for blk in got.blocks:
        if blk.type == "_":
            if seen_escape is not None:
                diags.append(
                    error(
                        "Duplicate escaping block",
                        'The special block type "_" can be used to force particular arguments to '
                        "be interpreted as module input variables rather than as meta-arguments, "
                        "but each module block can have only one such block. The first escaping "
                        f"block was at {seen_escape.def_range}.",
                        blk.def_range,
                    )
                )
                continue
            seen_escape = blk
            mc.config = merged_body(mc.config, blk.body)
        else:
            diags.append(
                error(
                    "Reserved block type name in module block",
                    f'The block type name "{blk.type}" is reserved for use by groundplan in a '
                    "future version.",
                    blk.type_range,
                )
            )
    return mc, diags
