"""Checking provisioner blocks before anything runs (`validate`, `plan`), as terraform's
validate walk does.

- `validate_provisioners(provisioners, eval_ctx, base_connection)`: one resource's blocks, in
  order: the arguments decoded against the type's schema (unsupported, missing required, wrong
  type; `self` unknown, destroy-time ones in the same scope as terraform's validate), the type's
  own checks (`file`: source/content; `remote-exec`: inline/script/scripts), then the
  connection (the provisioner's merged over the resource's) against the superset connection
  schema. It stops after the first provisioner that has errors. A type that is not available
  is "Missing required provisioner plugin".
- `validate_config_provisioners(config)`: every managed resource of every module. As terraform,
  a provisioner type that is not available anywhere in the configuration is reported first and
  alone (once per type); otherwise each resource's blocks are checked with every reference
  unknown. The result is in terraform's display order (those without a place first).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from engine.configs.exprs import variables
from engine.configs.provisioners import Connection
from engine.configs.provisioners import Provisioner as ProvisionerConfig
from engine.diags import Diagnostic, Diagnostics
from engine.hcl.ast import Body, Expr, TraverseRoot
from engine.lang import EvalContext
from engine.values import UNKNOWN_DYNAMIC


def validate_provisioners(
    provisioners: Sequence[ProvisionerConfig],
    eval_ctx: EvalContext,
    base_connection: Connection | None = None,
) -> Diagnostics:
    """Diagnostics for the provisioner blocks of one resource; see the module docstring."""
    from engine.provisioners.connection import CONNECTION_SCHEMA
    from engine.provisioners.registry import lookup, missing_plugin
    from engine.provisioners.runner import connection_body
    from engine.provisioners.schema import decode_config
    from engine.provisioners.scope import create_scope

    diags = Diagnostics()
    for pc in provisioners:
        impl = lookup(pc.type)
        if impl is None:
            diags.append(missing_plugin(pc.type))
            return diags
        ctx = create_scope(eval_ctx, UNKNOWN_DYNAMIC)
        config, config_diags = decode_config(pc.config, impl.schema, ctx)
        diags.extend(config_diags)
        diags.extend(impl.validate(config.unmark_deep()[0]))
        conn = connection_body(pc, base_connection)
        if conn is not None:
            diags.extend(decode_config(conn, CONNECTION_SCHEMA, ctx)[1])
        if diags.has_errors:
            return diags
    return diags


def _exprs(body: Body) -> Iterator[Expr]:
    for attr in body.attributes.values():
        yield attr.expr
    for blk in body.blocks:
        yield from _exprs(blk.body)


def _unknown_roots(bodies: Sequence[Body]) -> dict[str, Any]:
    """Every root name the bodies refer to, bound to an unknown value."""
    names: dict[str, Any] = {}
    for body in bodies:
        for expr in _exprs(body):
            for t in variables(expr):
                root = t[0]
                if isinstance(root, TraverseRoot):
                    names[root.name] = UNKNOWN_DYNAMIC
    return names


def validate_config_provisioners(config: Any) -> Diagnostics:
    """Provisioner problems in the whole configuration tree; see the module docstring."""
    resources = [
        (node, res)
        for node in config.walk()
        for res in node.module.all_resources()
        if res.mode == "managed" and res.provisioners
    ]
    if not resources:
        return Diagnostics()
    from engine.lang.functions import function_table
    from engine.provisioners.registry import lookup, missing_plugin
    from engine.provisioners.runner import connection_body

    missing: list[str] = []
    for _, res in resources:
        for pc in res.provisioners:
            if lookup(pc.type) is None and pc.type not in missing:
                missing.append(pc.type)
    if missing:
        return Diagnostics([missing_plugin(t) for t in missing])
    diags = Diagnostics()
    tables: dict[str, Any] = {}
    for node, res in resources:
        base_dir = node.source_dir or "."
        if base_dir not in tables:
            tables[base_dir] = function_table(base_dir)
        bodies: list[Body] = []
        for pc in res.provisioners:
            bodies.append(pc.config)
            conn = connection_body(pc, res.connection)
            if conn is not None:
                bodies.append(conn)
        ctx = EvalContext(_unknown_roots(bodies), tables[base_dir], plan_phase=True)
        diags.extend(validate_provisioners(res.provisioners, ctx, res.connection))
    diags.items.sort(key=_order)
    return diags


def _order(d: Diagnostic) -> tuple[bool, str, int]:
    """terraform's display order: diagnostics without a place first, then by position."""
    if d.subject is None:
        return (False, "", 0)
    return (True, d.subject.filename, d.subject.start_offset)
