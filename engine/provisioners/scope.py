"""The names a provisioner's arguments may use, for create-time and destroy-time provisioners.

- Create-time (`create_scope`): everything the resource's own arguments can see (the module's
  variables, locals, resources, `count`, `each`, `path`, `terraform`, functions), plus `self`
  bound to the instance's new object.
- Destroy-time (`destroy_scope`), as Terraform's EvalSelfBlock: only `self` (the object being
  destroyed, as last recorded), `count.index`, `each.key`, `path.*` and `terraform.*`, with the
  functions. Any other reference is the error "Invalid reference" (`The reference to "local.x"
  is not valid in this context`) at the reference; configuration loading normally reports such
  references first, as "Invalid reference from destroy provisioner".
"""

from __future__ import annotations

from engine.configs.exprs import variables
from engine.diags import Diagnostics, error
from engine.hcl.ast import Body, Expr, Traversal, TraverseAttr, TraverseRoot
from engine.lang import EvalContext
from engine.source import Range
from engine.values import Value, object_

_DESTROY_ROOTS = ("self", "count", "each", "path", "terraform")
# How many leading names identify what a reference refers to, by root name (default 2).
_SUBJECT_PARTS = {"self": 1, "data": 3, "ephemeral": 3}


def create_scope(eval_ctx: EvalContext, self_value: Value) -> EvalContext:
    """`eval_ctx` with `self` bound to `self_value`."""
    return EvalContext({"self": self_value}, None, eval_ctx, eval_ctx.plan_phase)


def _body_exprs(body: Body) -> list[Expr]:
    out: list[Expr] = [a.expr for a in body.attributes.values()]
    for blk in body.blocks:
        out.extend(_body_exprs(blk.body))
    return out


def _subject(trav: Traversal) -> tuple[str, Range]:
    """What a traversal refers to (`local.x`, `aws_instance.a`), and the range naming it."""
    root = trav[0]
    assert isinstance(root, TraverseRoot)
    parts = [root.name]
    rng = root.range
    for step in trav[1 : _SUBJECT_PARTS.get(root.name, 2)]:
        if not isinstance(step, TraverseAttr):
            break
        parts.append(step.name)
        rng = rng.to(step.range)
    return ".".join(parts), rng


def _only(value: Value | None, name: str) -> Value | None:
    """The object {name = value.name} when `value` is a known object with that attribute."""
    if value is None or not isinstance(value.v, dict) or name not in value.v:
        return None
    return object_({name: value.v[name]})


def destroy_scope(
    eval_ctx: EvalContext, self_value: Value, body: Body
) -> tuple[EvalContext, Diagnostics]:
    """The restricted scope for evaluating `body` of a destroy-time provisioner, and errors
    for the references in it that scope does not allow."""
    diags = Diagnostics()
    for expr in _body_exprs(body):
        for trav in variables(expr):
            root = trav[0]
            assert isinstance(root, TraverseRoot)
            if root.name in _DESTROY_ROOTS:
                continue
            subject, rng = _subject(trav)
            diags.append(
                error(
                    "Invalid reference",
                    f'The reference to "{subject}" is not valid in this context',
                    rng,
                )
            )
    names: dict[str, Value] = {"self": self_value}
    count = _only(eval_ctx.lookup("count"), "index")
    if count is not None:
        names["count"] = count
    each = _only(eval_ctx.lookup("each"), "key")
    if each is not None:
        names["each"] = each
    for static in ("path", "terraform"):
        val = eval_ctx.lookup(static)
        if val is not None:
            names[static] = val
    functions_ctx: EvalContext | None = eval_ctx
    while functions_ctx is not None and functions_ctx.functions is None:
        functions_ctx = functions_ctx.parent
    functions = functions_ctx.functions if functions_ctx is not None else {}
    return EvalContext(names, functions, plan_phase=eval_ctx.plan_phase), diags
