"""Blocks that act on state rather than declare objects: `moved`, `removed` and `import`."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.configs.exprs import abs_traversal, decode_bool, unwrap
from engine.configs.meta import ProviderConfigRef, decode_provider_config_ref
from engine.configs.provisioners import Connection, Provisioner, decode_provisioner_block
from engine.configs.syntax import AttrSchema, BlockSchema, BodySchema, content
from engine.diags import Diagnostics, error
from engine.hcl import ast
from engine.hcl.ast import Block, Expr, Traversal, TraverseAttr, TraverseIndex, traversal_str
from engine.source import Range

MOVED_SCHEMA = BodySchema((AttrSchema("from", required=True), AttrSchema("to", required=True)))
REMOVED_SCHEMA = BodySchema(
    (AttrSchema("from", required=True),),
    (BlockSchema("lifecycle"), BlockSchema("connection"), BlockSchema("provisioner", ("type",))),
)
REMOVED_LIFECYCLE_SCHEMA = BodySchema((AttrSchema("destroy"),))
IMPORT_SCHEMA = BodySchema(
    (
        AttrSchema("provider"),
        AttrSchema("id", required=True),
        AttrSchema("to", required=True),
        AttrSchema("for_each"),
    )
)


@dataclass(frozen=True, slots=True)
class Endpoint:
    """A `moved`/`removed` address: `kind` is "module" or "resource"; `text` as written."""

    traversal: Traversal
    kind: str
    text: str
    range: Range
    has_instance_key: bool
    key_range: Range | None = None


def parse_endpoint(t: Traversal, what: str) -> tuple[Endpoint | None, Diagnostics]:
    """A relative module or resource address, e.g. `module.a["x"].aws_instance.b[0]`."""
    diags = Diagnostics()
    rng = t[0].range.to(t[-1].range)
    i = 0
    kind = "module"
    keyed = False
    key_range: Range | None = None
    steps = list(t)

    def name_at(j: int) -> str | None:
        s = steps[j]
        return s.name if not isinstance(s, TraverseIndex) else None

    while i < len(steps) and name_at(i) == "module":
        if i + 1 >= len(steps) or isinstance(steps[i + 1], TraverseIndex):
            diags.append(error("Invalid address", "Prefix \"module.\" must be followed by a module name.", steps[i].range))
            return None, diags
        i += 2
        if i < len(steps) and isinstance(steps[i], TraverseIndex):
            keyed, key_range = True, steps[i].range
            i += 1
    if i < len(steps):
        kind = "resource"
        if name_at(i) == "data":
            i += 1
        if i + 1 >= len(steps) or not isinstance(steps[i + 1], TraverseAttr):
            diags.append(
                error("Invalid address", "Resource specification must include a resource type and name.", rng)
            )
            return None, diags
        i += 2
        if i < len(steps) and isinstance(steps[i], TraverseIndex):
            keyed, key_range = True, steps[i].range
            i += 1
        if i < len(steps):
            diags.append(error("Invalid address", "Unexpected extra operators after address.", steps[i].range))
            return None, diags
    return Endpoint(t, kind, traversal_str(t), rng, keyed, key_range), diags


@dataclass(slots=True)
class Moved:
    """A `moved` block: the endpoints it moves from and to, and where it is declared."""

    from_: Endpoint | None
    to: Endpoint | None
    decl_range: Range


@dataclass(slots=True)
class Removed:
    """A `removed` block: what it removes, whether the object is destroyed, and its provisioners."""

    from_: Endpoint | None
    decl_range: Range
    destroy: bool = True
    destroy_set: bool = False
    provisioners: list[Provisioner] = field(default_factory=list)
    connection: Connection | None = None


@dataclass(slots=True)
class Import:
    """An import block: `to` is the target expression (may index with each.key), `to_key` the
    static resource address part (`module.m.aws_instance.a`)."""

    to: Expr | None
    id: Expr | None
    decl_range: Range
    to_key: str = ""
    for_each: Expr | None = None
    provider: ProviderConfigRef | None = None
    #: the whole `provider = ...` argument (where terraform points its provider errors)
    provider_range: Range | None = None


def _endpoint(attr: ast.Attribute | None, what: str, diags: Diagnostics) -> Endpoint | None:
    if attr is None:
        return None
    t, d = abs_traversal(attr.expr, shim=False)
    diags.extend(d)
    if t is None:
        return None
    ep, ed = parse_endpoint(t, what)
    diags.extend(ed)
    return ep


def decode_moved_block(block: Block) -> tuple[Moved, Diagnostics]:
    got, diags = content(block.body, MOVED_SCHEMA, block)
    m = Moved(_endpoint(got.attributes.get("from"), "Moved", diags), None, block.def_range)
    m.to = _endpoint(got.attributes.get("to"), "Moved", diags)
    if not diags.has_errors and m.from_ is not None and m.to is not None and m.from_.kind != m.to.kind:
        diags.append(
            error(
                'Invalid "moved" addresses',
                'The "from" and "to" addresses must either both refer to resources or both refer '
                "to modules.",
                block.def_range,
            )
        )
    return m, diags


def decode_removed_block(block: Block) -> tuple[Removed, Diagnostics]:
    got, diags = content(block.body, REMOVED_SCHEMA, block)
    r = Removed(_endpoint(got.attributes.get("from"), "Removed", diags), block.def_range)
    if r.from_ is not None and r.from_.has_instance_key:
        diags.append(
            error(
                "Resource instance keys not allowed",
                "Resource address must be a resource (e.g. \"test_instance.foo\"), not a resource "
                'instance (e.g. "test_instance.foo[1]").',
                r.from_.key_range or r.from_.range,
            )
        )
    for blk in got.blocks:
        if blk.type == "lifecycle":
            lc, d = content(blk.body, REMOVED_LIFECYCLE_SCHEMA, blk)
            diags.extend(d)
            if "destroy" in lc.attributes:
                b, bd = decode_bool(lc.attributes["destroy"])
                diags.extend(bd)
                r.destroy, r.destroy_set = bool(b), True
        elif blk.type == "connection":
            r.connection = Connection(blk.body, blk.def_range)
        else:
            pv, pd = decode_provisioner_block(blk)
            diags.extend(pd)
            if pv is not None:
                r.provisioners.append(pv)
    return r, diags


def _static_prefix(expr: Expr) -> str | None:
    """The address text of an import `to`, with any dynamic index left as `[...]`."""
    expr = unwrap(expr)
    if isinstance(expr, ast.ScopeTraversalExpr):
        return traversal_str(expr.traversal)
    if isinstance(expr, ast.IndexExpr):
        inner = _static_prefix(expr.collection)
        return None if inner is None else inner + "[...]"
    if isinstance(expr, ast.RelativeTraversalExpr):
        inner = _static_prefix(expr.source)
        return None if inner is None else inner + traversal_str(expr.traversal)
    return None


def decode_import_block(block: Block) -> tuple[Import, Diagnostics]:
    got, diags = content(block.body, IMPORT_SCHEMA, block)
    a = got.attributes
    imp = Import(None, None, block.def_range)
    if "id" in a:
        imp.id = a["id"].expr
    if "to" in a:
        expr = a["to"].expr
        t, _ = abs_traversal(expr, shim=False)
        if t is not None:
            expr = ast.ScopeTraversalExpr(t, expr.range)
        imp.to = expr
        text = _static_prefix(expr)
        if text is None:
            _, td = abs_traversal(expr, shim=False)
            diags.extend(td)
            diags.append(
                error("Invalid import address", "Only managed resources can be imported.", a["to"].range)
            )
        else:
            imp.to_key = text
            parts = [p for p in text.split(".")]
            mods = 0
            while len(parts) > mods and parts[mods] == "module":
                mods += 2
            if len(parts) > mods and parts[mods] == "data":
                diags.append(
                    error("Invalid import address", "Only managed resources can be imported.", a["to"].range)
                )
    if "for_each" in a:
        imp.for_each = a["for_each"].expr
    if "provider" in a:
        if imp.to_key.startswith("module."):
            diags.append(
                error(
                    "Invalid import provider argument",
                    "The provider argument can only be specified in import blocks that will "
                    "generate configuration.\n\nUse the providers argument within the module block "
                    "to configure providers for all resources within a module, including imported "
                    "resources.",
                    a["provider"].range,
                )
            )
        ref, d = decode_provider_config_ref(a["provider"].expr, "provider")
        diags.extend(d)
        imp.provider = ref
        imp.provider_range = a["provider"].range
    return imp, diags
