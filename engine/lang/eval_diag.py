"""Building evaluation diagnostics the way HCL and Terraform present them.

`diag()` makes an error whose `values` hold Terraform's "│ var.x is 1" lines: for every
reference the offending expression makes (with at least one step after its root), the value
it has in the evaluation context, as Terraform's diagnostic renderer describes it (known
values compactly; unknown and sensitive values only when the error is caused by them).
`start_range()` gives HCL's `StartRange()` of an expression, used as some diagnostics' subject.
"""

from __future__ import annotations

from engine.diags import Diagnostic, ExpressionValue, error
from engine.gocompat.strconv import quote as go_quote
from engine.hcl import ast as A
from engine.hcl.ast import Traversal, TraverseAttr, TraverseIndex, TraverseRoot
from engine.lang.context import EvalContext
from engine.lang.eval_traversal import traverse_abs
from engine.lang.references import references
from engine.source import Range
from engine.values import BOOL, DYNAMIC, NUMBER, STRING, UNKNOWN, Value
from engine.values.numbers import format_g10


def diag(
    summary: str,
    detail: str,
    subject: Range | None,
    context: Range | None,
    expr: A.Expr | None,
    ctx: EvalContext | None,
    *,
    caused_by_unknown: bool = False,
    caused_by_sensitive: bool = False,
) -> Diagnostic:
    """An error diagnostic with Terraform's expression-value lines for `expr` in `ctx`."""
    values: tuple[ExpressionValue, ...] = ()
    if expr is not None and ctx is not None:
        values = expression_values(expr, ctx, caused_by_unknown, caused_by_sensitive)
    return error(summary, detail, subject, context, values)


def attach_values(d: Diagnostic, expr: A.Expr, ctx: EvalContext | None) -> Diagnostic:
    """`d` with the expression-value lines of `expr` (HCL's setDiagEvalContext)."""
    if ctx is None or d.values:
        return d
    values = expression_values(expr, ctx, False, False)
    if not values:
        return d
    return Diagnostic(d.severity, d.summary, d.detail, d.subject, d.context, values, d.extra)


def expression_values(
    expr: A.Expr, ctx: EvalContext, include_unknown: bool, include_sensitive: bool
) -> tuple[ExpressionValue, ...]:
    """Terraform's `DiagnosticExpressionValue` lines, sorted by traversal text."""
    out: dict[str, str] = {}
    for traversal, _rng in references(expr):
        steps = traversal
        while len(steps) > 1:
            val, d = traverse_abs(steps, ctx)
            if d is not None:
                steps = steps[:-1]
                continue
            text = traversal_text(steps)
            if text in out:
                break
            statement = _statement(val, include_unknown, include_sensitive)
            if statement is not None:
                out[text] = statement
            break
    return tuple(ExpressionValue(k, out[k]) for k in sorted(out))


def _statement(val: Value, include_unknown: bool, include_sensitive: bool) -> str | None:
    if val.is_sensitive:
        return "has a sensitive value" if include_sensitive else None
    if val.v is UNKNOWN:
        if val.type == DYNAMIC:
            return "will be known only after apply" if include_unknown else None
        name = val.type.friendly_name()
        return f"is a {name}, known only after apply" if include_unknown else f"is a {name}"
    return "is " + compact_value(val)


def compact_value(val: Value) -> str:
    """Terraform's compactValueStr: a short description safe to show in diagnostics."""
    if val.is_sensitive:
        return "(sensitive value)"
    t = val.type
    v = val.v
    if v is None:
        return "null"
    if v is UNKNOWN:
        return "(not yet known)"
    if t == BOOL:
        return "true" if v else "false"
    if t == NUMBER:
        return format_g10(v)
    if t == STRING:
        return go_quote(v)
    if isinstance(v, list):
        name = t.friendly_name()
        if not v:
            return "empty " + name
        if len(v) == 1:
            return name + " with 1 element"
        return f"{name} with {len(v)} elements"
    if isinstance(v, dict):
        if t.is_collection:
            name = t.friendly_name()
            if not v:
                return "empty " + name
            return name + (" with 1 element" if len(v) == 1 else f" with {len(v)} elements")
        if not v:
            return "object with no attributes"
        if len(v) == 1:
            return f'object with 1 attribute "{next(iter(v))}"'
        return f"object with {len(v)} attributes"
    return t.friendly_name()


def traversal_text(traversal: Traversal) -> str:
    """Terraform's traversalStr: `var.a["k"][0]`, `[...]` for non-primitive keys."""
    parts: list[str] = []
    for step in traversal:
        if isinstance(step, TraverseRoot):
            parts.append(step.name)
        elif isinstance(step, TraverseAttr):
            parts.append("." + step.name)
        elif isinstance(step, TraverseIndex):
            key = step.key
            if isinstance(key, Value) and key.type.is_primitive:
                parts.append("[" + compact_value(key) + "]")
            else:
                parts.append("[...]")
    return "".join(parts)


def start_range(e: A.Expr) -> Range:
    """HCL's StartRange(): the part of an expression a diagnostic about it begins at."""
    while True:
        t = type(e)
        if t is A.FunctionCallExpr:
            assert isinstance(e, A.FunctionCallExpr)
            return e.name_range.to(e.open_paren_range)
        if t is A.ConditionalExpr:
            assert isinstance(e, A.ConditionalExpr)
            e = e.condition
        elif t is A.BinaryOpExpr:
            assert isinstance(e, A.BinaryOpExpr)
            e = e.lhs
        elif t is A.ParenthesesExpr:
            assert isinstance(e, A.ParenthesesExpr)
            e = e.wrapped
        elif t is A.UnaryOpExpr:
            assert isinstance(e, A.UnaryOpExpr)
            return e.op_range
        elif t is A.TupleConsExpr or t is A.ObjectConsExpr:
            assert isinstance(e, (A.TupleConsExpr, A.ObjectConsExpr))
            return e.open_range
        elif t is A.ForExpr:
            assert isinstance(e, A.ForExpr)
            return e.open_range
        elif t is A.SplatExpr:
            assert isinstance(e, A.SplatExpr)
            return e.marker_range
        elif t is A.IndexExpr:
            assert isinstance(e, A.IndexExpr)
            return e.bracket_range
        elif t is A.TemplateExpr:
            assert isinstance(e, A.TemplateExpr)
            if not e.parts:
                return e.range
            e = e.parts[0]
        else:
            return e.range
