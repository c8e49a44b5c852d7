"""`provisioner` and `connection` blocks inside managed resources."""

from __future__ import annotations

from dataclasses import dataclass

from engine.configs.exprs import expr_as_keyword, shim_traversal_in_string, variables
from engine.configs.syntax import AttrSchema, BlockSchema, BodySchema, merged_body, partial_content
from engine.diags import Diagnostics, error
from engine.hcl.ast import Attribute, Block, Body, Traversal, TraverseAttr, TraverseRoot
from engine.source import Range

PROVISIONER_SCHEMA = BodySchema(
    attributes=(AttrSchema("when"), AttrSchema("on_failure")),
    blocks=(BlockSchema("_"), BlockSchema("connection"), BlockSchema("lifecycle")),
)

WHEN_CREATE = "create"
WHEN_DESTROY = "destroy"
ON_FAILURE_FAIL = "fail"
ON_FAILURE_CONTINUE = "continue"

_REMOVED = ("chef", "habitat", "puppet", "salt-masterless")


@dataclass(slots=True)
class Connection:
    """A `connection` block: its body is evaluated later, with the provisioner's schema."""

    config: Body
    decl_range: Range


@dataclass(slots=True)
class Provisioner:
    """A provisioner: type label, unevaluated config body, when / on_failure and connection."""

    type: str
    config: Body
    decl_range: Range
    type_range: Range
    when: str = WHEN_CREATE
    on_failure: str = ON_FAILURE_FAIL
    connection: Connection | None = None


_SELF_DETAIL = (
    "Destroy-time provisioners and their connection configurations may only reference "
    "attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\n"
    "References to other resources during the destroy phase can cause dependency cycles and "
    "interact poorly with create_before_destroy."
)


def _attr_step(t: Traversal, name: str) -> bool:
    """Whether `t` is exactly `<root>.<name>` (two steps, the second an attribute)."""
    return len(t) == 2 and isinstance(t[1], TraverseAttr) and t[1].name == name


def _allowed_from_destroy(t: Traversal) -> bool:
    """Terraform's onlySelfRefs rule: any `self`, `path` or `terraform` reference, and exactly
    `count.index` and `each.key`."""
    root = t[0]
    name = root.name if isinstance(root, TraverseRoot) else ""
    if name in ("self", "path", "terraform"):
        return True
    if name == "count":
        return _attr_step(t, "index")
    if name == "each":
        return _attr_step(t, "key")
    return False


def only_self_refs(body: Body) -> Diagnostics:
    """Errors for the references a destroy-time provisioner or its connection may not make.

    As terraform, only the body's own arguments are checked (not nested blocks), and each
    reference that is not allowed gives one error whose range is the whole argument value."""
    diags = Diagnostics()
    for attr in body.attributes.values():
        for t in variables(attr.expr):
            if not _allowed_from_destroy(t):
                diags.append(
                    error("Invalid reference from destroy provisioner", _SELF_DETAIL, attr.expr.range)
                )
    return diags


def _keyword(attr: Attribute, allowed: tuple[str, str], diags: Diagnostics) -> str | None:
    kw = expr_as_keyword(shim_traversal_in_string(attr.expr, True, diags))
    if kw in allowed:
        return kw
    diags.append(
        error(
            f'Invalid "{attr.name}" keyword',
            f'The "{attr.name}" argument requires one of the following keywords: '
            f"{allowed[0]} or {allowed[1]}.",
            attr.expr.range,
        )
    )
    return None


def decode_provisioner_block(block: Block) -> tuple[Provisioner | None, Diagnostics]:
    """Decode `provisioner "type" { ... }`; its other arguments stay in `config`."""
    got, remain, diags = partial_content(block.body, PROVISIONER_SCHEMA, block)
    pv = Provisioner(block.labels[0], remain, block.def_range, block.label_ranges[0])
    if pv.type in _REMOVED:
        diags.append(
            error(
                f'The "{pv.type}" provisioner has been removed',
                f'The "{pv.type}" provisioner was deprecated in Terraform 0.13.4 has been removed '
                "from groundplan. Visit https://learn.hashicorp.com/collections/terraform/provision "
                "for alternatives to using provisioners that are a better fit for the groundplan "
                "workflow.",
                block.label_ranges[0],
            )
        )
        return None, diags
    a = got.attributes
    if "when" in a:
        kw = _keyword(a["when"], (WHEN_CREATE, WHEN_DESTROY), diags)
        if kw:
            pv.when = kw
    if "on_failure" in a:
        kw = _keyword(a["on_failure"], (ON_FAILURE_CONTINUE, ON_FAILURE_FAIL), diags)
        if kw:
            pv.on_failure = kw
    seen: Block | None = None
    seen_escape: Block | None = None
    for blk in got.blocks:
        if blk.type == "_":
            if seen_escape is not None:
                diags.append(
                    error(
                        "Duplicate escaping block",
                        'The special block type "_" can be used to force particular arguments to '
                        "be interpreted as provisioner-typpe-specific rather than as "
                        "meta-arguments, but each provisioner block can have only one such block. "
                        f"The first escaping block was at {seen_escape.def_range}.",
                        blk.def_range,
                    )
                )
                continue
            seen_escape = blk
            pv.config = merged_body(pv.config, blk.body)
        elif blk.type == "connection":
            if seen is not None:
                diags.append(
                    error(
                        "Duplicate connection block",
                        f"This provisioner already has a connection block at {seen.def_range}.",
                        blk.def_range,
                    )
                )
                continue
            seen = blk
            pv.connection = Connection(blk.body, blk.def_range)
        else:
            diags.append(
                error(
                    "Reserved block type name in provisioner block",
                    f'The block type name "{blk.type}" is reserved for use by groundplan in a '
                    "future version.",
                    blk.type_range,
                )
            )
    if pv.when == WHEN_DESTROY:
        diags.extend(only_self_refs(remain))
        if pv.connection is not None:
            diags.extend(only_self_refs(pv.connection.config))
    return pv, diags
