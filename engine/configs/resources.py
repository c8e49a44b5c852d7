"""`resource`, `data` and `ephemeral` blocks: the Resource model and its decoding."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.configs.checks import CheckRule, decode_check_rule, self_reference_errors
from engine.configs.exprs import (
    abs_traversal,
    decode_bool,
    expr_as_keyword,
    expr_list,
    literal_string,
    unwrap_json_ref_expr,
    valid_identifier,
    variables,
)
from engine.configs.meta import ProviderConfigRef, decode_depends_on, decode_provider_config_ref
from engine.configs.provisioners import (
    Connection,
    Provisioner,
    decode_provisioner_block,
    only_self_refs,
)
from engine.configs.refs import parse_ref
from engine.configs.syntax import (
    AttrSchema,
    BlockSchema,
    BodySchema,
    content,
    find_blocks,
    merged_body,
    partial_content,
)
from engine.configs.variables import BAD_IDENTIFIER_DETAIL
from engine.diags import Diagnostic, Diagnostics, error
from engine.hcl.ast import Attribute, Block, Body, Expr, Traversal
from engine.source import Range

MANAGED = "managed"
DATA = "data"
EPHEMERAL = "ephemeral"

_COMMON_ATTRS = (AttrSchema("count"), AttrSchema("for_each"), AttrSchema("provider"), AttrSchema("depends_on"))
RESOURCE_SCHEMA = BodySchema(
    _COMMON_ATTRS,
    (
        BlockSchema("locals"),
        BlockSchema("lifecycle"),
        BlockSchema("connection"),
        BlockSchema("provisioner", ("type",)),
        BlockSchema("_"),
    ),
)
DATA_SCHEMA = BodySchema(_COMMON_ATTRS, (BlockSchema("lifecycle"), BlockSchema("locals"), BlockSchema("_")))
LIFECYCLE_SCHEMA = BodySchema(
    (
        AttrSchema("create_before_destroy"),
        AttrSchema("prevent_destroy"),
        AttrSchema("ignore_changes"),
        AttrSchema("replace_triggered_by"),
    ),
    (BlockSchema("precondition"), BlockSchema("postcondition")),
)


@dataclass(slots=True)
class Lifecycle:
    """A managed resource's `lifecycle` settings (each `*_set` says it was written)."""

    create_before_destroy: bool = False
    create_before_destroy_set: bool = False
    prevent_destroy: bool = False
    prevent_destroy_set: bool = False
    ignore_changes: list[Traversal] = field(default_factory=list)
    ignore_all_changes: bool = False
    replace_triggered_by: list[Expr] = field(default_factory=list)
    decl_range: Range | None = None


@dataclass(slots=True)
class Resource:
    """A resource block. `config` is the rest of the body, unevaluated (it is decoded later
    with the provider's schema); `key` is `type.name` (`data.type.name` for data)."""

    mode: str
    type: str
    name: str
    decl_range: Range
    type_range: Range
    config: Body
    count: Expr | None = None
    for_each: Expr | None = None
    provider: ProviderConfigRef | None = None
    depends_on: list[Traversal] = field(default_factory=list)
    lifecycle: Lifecycle = field(default_factory=Lifecycle)
    preconditions: list[CheckRule] = field(default_factory=list)
    postconditions: list[CheckRule] = field(default_factory=list)
    provisioners: list[Provisioner] = field(default_factory=list)
    connection: Connection | None = None
    # set by the module for resources inside a `check` block
    container: str | None = None

    @property
    def key(self) -> str:
        if self.mode == DATA:
            return f"data.{self.type}.{self.name}"
        if self.mode == EPHEMERAL:
            return f"ephemeral.{self.type}.{self.name}"
        return f"{self.type}.{self.name}"

    @property
    def implied_provider(self) -> str:
        """The provider local name a resource type implies (`aws_instance` → `aws`)."""
        return self.type.split("_", 1)[0]

    @property
    def provider_local_name(self) -> str:
        return self.provider.name if self.provider is not None else self.implied_provider

    def dynamic_blocks(self) -> list[Block]:
        """The `dynamic` blocks at the top level of the resource's config body."""
        return find_blocks(self.config, "dynamic")


def _names(block: Block, kind: str, diags: Diagnostics) -> None:
    type_summary = {MANAGED: "Invalid resource type name", DATA: "Invalid data source name",
                    EPHEMERAL: "Invalid ephemeral resource type name"}[kind]
    name_summary = {MANAGED: "Invalid resource name", DATA: "Invalid data resource name",
                    EPHEMERAL: "Invalid ephemeral resource name"}[kind]
    if not valid_identifier(block.labels[0]):
        diags.append(error(type_summary, BAD_IDENTIFIER_DETAIL, block.label_ranges[0]))
    if not valid_identifier(block.labels[1]):
        diags.append(error(name_summary, BAD_IDENTIFIER_DETAIL, block.label_ranges[1]))


def _meta_args(r: Resource, attrs: dict[str, Attribute], diags: Diagnostics) -> None:
    if "count" in attrs:
        r.count = attrs["count"].expr
    if "for_each" in attrs:
        r.for_each = attrs["for_each"].expr
        if r.count is not None:
            diags.append(
                error(
                    'Invalid combination of "count" and "for_each"',
                    'The "count" and "for_each" meta-arguments are mutually-exclusive, only one '
                    "should be used to be explicit about the number of resources to be created.",
                    attrs["for_each"].name_range,
                )
            )
    if "provider" in attrs:
        ref, d = decode_provider_config_ref(attrs["provider"].expr, "provider")
        diags.extend(d)
        r.provider = ref
    if "depends_on" in attrs:
        deps, d = decode_depends_on(attrs["depends_on"])
        diags.extend(d)
        r.depends_on.extend(deps)


def decode_ignore_changes(attr: Attribute, lc: Lifecycle, diags: Diagnostics) -> None:
    """`ignore_changes = all` or a list of attribute paths (legacy `["*"]` is an error)."""
    if expr_as_keyword(attr.expr) == "all":
        lc.ignore_all_changes = True
        return
    exprs, d = expr_list(attr.expr)
    diags.extend(d)
    star: Range | None = None
    for e in exprs:
        if literal_string(e) == "*":
            lc.ignore_all_changes = True
            star = e.range
            diags.append(
                error(
                    "Invalid ignore_changes wildcard",
                    'The ["*"] form of ignore_changes wildcard is was deprecated and is now '
                    'invalid. Use "ignore_changes = all" to ignore changes to all attributes.',
                    attr.expr.range,
                )
            )
            continue
        t, td = abs_traversal(e)
        diags.extend(td)
        if t:
            lc.ignore_changes.append(t)
    if lc.ignore_all_changes and lc.ignore_changes and star is not None:
        diags.append(
            error(
                "Invalid ignore_changes ruleset",
                'Cannot mix wildcard string "*" with non-wildcard references.',
                star,
                attr.expr.range,
            )
        )


def decode_replace_triggered_by(attr: Attribute, diags: Diagnostics) -> list[Expr]:
    """The expressions of `replace_triggered_by`, each naming exactly one resource (in JSON
    syntax each a string holding the reference). As terraform, an element whose references
    are malformed gets only those errors (with the element's range), and once an element had
    an error the ones after it are not checked."""
    exprs, d = expr_list(attr.expr)
    diags.extend(d)
    if d.has_errors:
        return []
    for i, e in enumerate(exprs):
        unwrapped, jd = unwrap_json_ref_expr(e)
        diags.extend(jd)
        if diags.has_errors or unwrapped is None:
            continue
        e = exprs[i] = unwrapped
        refs = []
        ref_errors = False
        for t in variables(e):
            ref, rd = parse_ref(t)
            for diag in rd:
                ref_errors = ref_errors or diag.is_error
                diags.append(Diagnostic(diag.severity, diag.summary, diag.detail, e.range))
            if ref is not None:
                refs.append(ref)
        if ref_errors:
            continue
        resources = 0
        for ref in refs:
            if ref.kind in ("resource", "data", "ephemeral"):
                resources += 1
            elif ref.kind == "each":
                if ref.name != "key":
                    diags.append(
                        error(
                            "Invalid each reference in replace_triggered_by expression",
                            "Only each.key may be used in replace_triggered_by.",
                            e.range,
                        )
                    )
            elif ref.kind == "count":
                if ref.name != "index":
                    diags.append(
                        error(
                            "Invalid count reference in replace_triggered_by expression",
                            "Only count.index may be used in replace_triggered_by.",
                            e.range,
                        )
                    )
            else:
                diags.append(
                    error(
                        "Invalid reference in replace_triggered_by expression",
                        "Only resources, count.index, and each.key may be used in "
                        "replace_triggered_by.",
                        e.range,
                    )
                )
        if resources == 0:
            diags.append(
                error(
                    "Invalid replace_triggered_by expression",
                    "Missing resource reference in replace_triggered_by expression.",
                    e.range,
                )
            )
        elif resources > 1:
            diags.append(
                error(
                    "Invalid replace_triggered_by expression",
                    "Multiple resource references in replace_triggered_by expression.",
                    e.range,
                )
            )
    return exprs


def _lifecycle(r: Resource, block: Block, override: bool, diags: Diagnostics) -> None:
    got, d = content(block.body, LIFECYCLE_SCHEMA, block)
    diags.extend(d)
    lc = r.lifecycle
    lc.decl_range = block.def_range
    a = got.attributes
    if r.mode != MANAGED:
        for name, attr in a.items():
            diags.append(
                error(
                    "Invalid data resource lifecycle argument",
                    f'The lifecycle argument "{name}" is defined only for managed resources '
                    '("resource" blocks), and is not valid for data resources.',
                    attr.name_range,
                )
            )
    else:
        if "create_before_destroy" in a:
            b, bd = decode_bool(a["create_before_destroy"])
            diags.extend(bd)
            lc.create_before_destroy, lc.create_before_destroy_set = bool(b), True
        if "prevent_destroy" in a:
            b, bd = decode_bool(a["prevent_destroy"])
            diags.extend(bd)
            lc.prevent_destroy, lc.prevent_destroy_set = bool(b), True
        if "replace_triggered_by" in a:
            lc.replace_triggered_by = decode_replace_triggered_by(a["replace_triggered_by"], diags)
        if "ignore_changes" in a:
            decode_ignore_changes(a["ignore_changes"], lc, diags)
    for blk in got.blocks:
        rule, rd = decode_check_rule(blk, override)
        diags.extend(rd)
        diags.extend(self_reference_errors(rule, r.mode, r.type, r.name))
        (r.preconditions if blk.type == "precondition" else r.postconditions).append(rule)


def decode_resource_block(block: Block, override: bool, mode: str = MANAGED) -> tuple[Resource, Diagnostics]:
    """Decode a `resource`, `data` or `ephemeral` block with Terraform's checks."""
    schema = RESOURCE_SCHEMA if mode == MANAGED else DATA_SCHEMA
    got, remain, diags = partial_content(block.body, schema, block)
    r = Resource(mode, block.labels[0], block.labels[1], block.def_range, block.label_ranges[0], remain)
    _names(block, mode, diags)
    _meta_args(r, got.attributes, diags)
    what = {MANAGED: "resource", DATA: "data", EPHEMERAL: "ephemeral"}[mode]
    seen_lc: Block | None = None
    seen_conn: Block | None = None
    seen_escape: Block | None = None
    for blk in got.blocks:
        if blk.type == "lifecycle":
            if seen_lc is not None:
                diags.append(
                    error(
                        "Duplicate lifecycle block",
                        f"This resource already has a lifecycle block at {seen_lc.def_range}.",
                        blk.def_range,
                    )
                )
                continue
            seen_lc = blk
            _lifecycle(r, blk, override, diags)
        elif blk.type == "connection":
            if seen_conn is not None:
                diags.append(
                    error(
                        "Duplicate connection block",
                        f"This resource already has a connection block at {seen_conn.def_range}.",
                        blk.def_range,
                    )
                )
                continue
            seen_conn = blk
            r.connection = Connection(blk.body, blk.def_range)
        elif blk.type == "provisioner":
            pv, pd = decode_provisioner_block(blk)
            diags.extend(pd)
            if pv is not None:
                r.provisioners.append(pv)
        elif blk.type == "_":
            if seen_escape is not None:
                diags.append(
                    error(
                        "Duplicate escaping block",
                        'The special block type "_" can be used to force particular arguments to '
                        "be interpreted as resource-type-specific rather than as meta-arguments, "
                        f"but each {what} block can have only one such block. The first escaping "
                        f"block was at {seen_escape.def_range}.",
                        blk.def_range,
                    )
                )
                continue
            seen_escape = blk
            r.config = merged_body(r.config, blk.body)
        else:
            diags.append(
                error(
                    f"Reserved block type name in {what} block",
                    f'The block type name "{blk.type}" is reserved for use by groundplan in a '
                    "future version.",
                    blk.type_range,
                )
            )
    if r.connection is not None and any(p.when == "destroy" for p in r.provisioners):
        diags.extend(only_self_refs(r.connection.config))
    return r, diags
