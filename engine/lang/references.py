"""The static references an expression makes (HCL's `Expression.Variables()`).

`references(expr)` lists every scope traversal (`var.a`, `aws_instance.web[0].id`, `count.index`)
with the range of the expression it appears in, in source order. Names bound by an enclosing
`for` expression or template `for` directive are local and are left out, as are the items of
splat expressions and bare identifiers used as literal object keys.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.hcl import ast as A
from engine.hcl.ast import Traversal
from engine.source import Range

Reference = tuple[Traversal, Range]


def references(expr: A.Expr) -> list[Reference]:
    """Every static reference `expr` makes, excluding for-expression and splat locals."""
    out: list[Reference] = []
    _walk(expr, frozenset(), out)
    return out


def _walk(e: A.Expr | None, local: frozenset[str], out: list[Reference]) -> None:
    if e is None:
        return
    fn = _WALKERS.get(type(e))
    if fn is not None:
        fn(e, local, out)


def _scope(e: A.ScopeTraversalExpr, local: frozenset[str], out: list[Reference]) -> None:
    root = e.traversal[0]
    if not isinstance(root, A.TraverseRoot) or root.name not in local:
        out.append((e.traversal, e.range))


def _relative(e: A.RelativeTraversalExpr, local: frozenset[str], out: list[Reference]) -> None:
    _walk(e.source, local, out)


def _template(e: A.TemplateExpr, local: frozenset[str], out: list[Reference]) -> None:
    for p in e.parts:
        _walk(p, local, out)


def _wrap(e: A.TemplateWrapExpr | A.ParenthesesExpr, local: frozenset[str], out: list[Reference]) -> None:
    _walk(e.wrapped, local, out)


def _tmpl_if(e: A.TemplateIfExpr, local: frozenset[str], out: list[Reference]) -> None:
    _walk(e.cond, local, out)
    _walk(e.true_parts, local, out)
    _walk(e.false_parts, local, out)


def _tmpl_for(e: A.TemplateForExpr, local: frozenset[str], out: list[Reference]) -> None:
    _walk(e.collection, local, out)
    inner = local | {n for n in (e.key_var, e.value_var) if n}
    _walk(e.body, inner, out)


def _index(e: A.IndexExpr, local: frozenset[str], out: list[Reference]) -> None:
    _walk(e.collection, local, out)
    _walk(e.key, local, out)


def _splat(e: A.SplatExpr, local: frozenset[str], out: list[Reference]) -> None:
    _walk(e.source, local, out)
    _walk(e.each, local, out)


def _call(e: A.FunctionCallExpr, local: frozenset[str], out: list[Reference]) -> None:
    for a in e.args:
        _walk(a, local, out)


def _cond(e: A.ConditionalExpr, local: frozenset[str], out: list[Reference]) -> None:
    _walk(e.condition, local, out)
    _walk(e.true_result, local, out)
    _walk(e.false_result, local, out)


def _binary(e: A.BinaryOpExpr, local: frozenset[str], out: list[Reference]) -> None:
    _walk(e.lhs, local, out)
    _walk(e.rhs, local, out)


def _unary(e: A.UnaryOpExpr, local: frozenset[str], out: list[Reference]) -> None:
    _walk(e.operand, local, out)


def _tuple(e: A.TupleConsExpr, local: frozenset[str], out: list[Reference]) -> None:
    for x in e.exprs:
        _walk(x, local, out)


def _object(e: A.ObjectConsExpr, local: frozenset[str], out: list[Reference]) -> None:
    for item in e.items:
        _walk(item.key, local, out)
        _walk(item.value, local, out)


def _object_key(e: A.ObjectConsKeyExpr, local: frozenset[str], out: list[Reference]) -> None:
    if e.as_literal_name() is None:
        _walk(e.wrapped, local, out)


def _for(e: A.ForExpr, local: frozenset[str], out: list[Reference]) -> None:
    _walk(e.collection, local, out)
    inner = local | {n for n in (e.key_var, e.value_var) if n}
    _walk(e.key_expr, inner, out)
    _walk(e.value_expr, inner, out)
    _walk(e.cond, inner, out)


_WALKERS: dict[type, Callable[..., None]] = {
    A.ScopeTraversalExpr: _scope,
    A.RelativeTraversalExpr: _relative,
    A.TemplateExpr: _template,
    A.TemplateWrapExpr: _wrap,
    A.ParenthesesExpr: _wrap,
    A.TemplateIfExpr: _tmpl_if,
    A.TemplateForExpr: _tmpl_for,
    A.IndexExpr: _index,
    A.SplatExpr: _splat,
    A.FunctionCallExpr: _call,
    A.ConditionalExpr: _cond,
    A.BinaryOpExpr: _binary,
    A.UnaryOpExpr: _unary,
    A.TupleConsExpr: _tuple,
    A.ObjectConsExpr: _object,
    A.ObjectConsKeyExpr: _object_key,
    A.ForExpr: _for,
}
