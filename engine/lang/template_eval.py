"""String templates (hclsyntax expression_template.go).

A `TemplateExpr` converts each part to a string and joins them: a null part is an error, an
unknown part makes the whole result an unknown string, known not to be null and refined with
the text before the first unknown part as its prefix (as HCL 2.17+), and the marks of every
part mark the result. `TemplateWrapExpr` (`"${x}"`) yields x's value unchanged. The `%{ if }` directive
behaves as HCL's conditional over two templates and `%{ for }` as HCL's TemplateJoinExpr over a
tuple-producing `for` expression.
"""

from __future__ import annotations

from engine.diags import Diagnostic
from engine.hcl import ast as A
from engine.lang.context import EvalContext
from engine.lang.eval_core import DISPATCH, NO_DIAGS, Result, ev, has_errors
from engine.lang.eval_diag import diag
from engine.lang.eval_for import for_collection, iter_elements
from engine.lang.eval_values import ConversionFailed, convert
from engine.values import BOOL, STRING, UNKNOWN, Value
from engine.values.refinement import refine, refine_not_null, value_range

_INVALID = "Invalid template interpolation value"
_UNKNOWN_STRING = Value(STRING, UNKNOWN)


def _template(e: A.TemplateExpr, ctx: EvalContext) -> Result:
    parts = e.parts
    if len(parts) == 1 and isinstance(parts[0], A.LiteralValueExpr):
        lit = parts[0].value
        if lit.type == STRING and not lit.marks:
            return lit, NO_DIAGS
    buf: list[str] = []
    diags: list[Diagnostic] = []
    known = True
    marks: frozenset[str] = frozenset()
    for part in parts:
        val, pd = ev(part, ctx)
        if pd:
            diags.extend(pd)
        if val.v is None:
            diags.append(
                diag(
                    _INVALID,
                    "The expression result is null. Cannot include a null value in a string "
                    "template.",
                    part.range,
                    e.range,
                    part,
                    ctx,
                )
            )
            continue
        if val.marks:
            marks = marks | val.marks
            val = Value(val.type, val.v)
        if val.v is UNKNOWN:
            known = False
            continue
        if val.type is not STRING and val.type != STRING:
            try:
                val = convert(val, STRING)
            except ConversionFailed as exc:
                diags.append(
                    diag(
                        _INVALID,
                        f"Cannot include the given value in a string template: {exc.message}.",
                        part.range,
                        e.range,
                        part,
                        ctx,
                    )
                )
                continue
            if val.marks:
                marks = marks | val.marks
        if known:
            buf.append(val.v)
    if not known:
        if has_errors(diags):
            return Value(STRING, UNKNOWN, marks), diags
        b = refine(_UNKNOWN_STRING).not_null()
        if buf:
            b = b.string_prefix("".join(buf))
        out = b.new_value()
        return (out.with_marks(marks) if marks else out), diags or NO_DIAGS
    return Value(STRING, "".join(buf), marks), diags or NO_DIAGS


def _wrap(e: A.TemplateWrapExpr, ctx: EvalContext) -> Result:
    return ev(e.wrapped, ctx)


def _template_if(e: A.TemplateIfExpr, ctx: EvalContext) -> Result:
    t_val, t_diags = ev(e.true_parts, ctx)
    if e.false_parts is not None:
        f_val, f_diags = ev(e.false_parts, ctx)
    else:
        f_val, f_diags = Value(STRING, ""), NO_DIAGS
    cond, cd = ev(e.cond, ctx)
    diags: list[Diagnostic] = list(cd)
    if cond.v is None:
        diags.append(
            diag(
                "Null condition",
                "The condition value is null. Conditions must either be true or false.",
                e.cond.range,
                e.range,
                e.cond,
                ctx,
            )
        )
        return _UNKNOWN_STRING, diags
    if cond.v is not UNKNOWN:
        try:
            cond = convert(cond, BOOL)
        except ConversionFailed:
            diags.append(
                diag(
                    "Incorrect condition type",
                    "The condition expression must be of type bool.",
                    e.cond.range,
                    e.range,
                    e.cond,
                    ctx,
                )
            )
            return _UNKNOWN_STRING, diags
    if cond.v is UNKNOWN:
        marks = cond.marks | t_val.marks | f_val.marks
        out = _UNKNOWN_STRING
        if value_range(t_val).definitely_not_null() and value_range(f_val).definitely_not_null():
            out = refine_not_null(out)
        return out.with_marks(marks), diags or NO_DIAGS
    result, branch = (t_val, t_diags) if cond.v else (f_val, f_diags)
    diags.extend(branch)
    cond_marks = cond.deep_marks()
    return (result.with_marks(cond_marks) if cond_marks else result), diags or NO_DIAGS


def _template_for(e: A.TemplateForExpr, ctx: EvalContext) -> Result:
    diags: list[Diagnostic] = []
    coll, marks = for_collection(e, ctx, diags)
    if coll is None:
        return _UNKNOWN_STRING, diags or NO_DIAGS
    vals: list[Value] = []
    for k, v in iter_elements(coll):
        names = {e.value_var: v}
        if e.key_var:
            names[e.key_var] = k
        val, bd = ev(e.body, EvalContext(names, None, ctx, ctx.plan_phase))
        diags.extend(bd)
        vals.append(val)
    buf: list[str] = []
    for val in vals:
        if val.v is None:
            diags.append(
                diag(
                    _INVALID,
                    "An iteration result is null. Cannot include a null value in a string "
                    "template.",
                    e.range,
                    None,
                    e,
                    ctx,
                )
            )
            continue
        if val.v is UNKNOWN:
            return Value(STRING, UNKNOWN, marks), diags or NO_DIAGS
        if val.marks:
            marks = marks | val.marks
        buf.append(val.v)
    if has_errors(diags):
        return Value(STRING, "".join(buf), marks), diags
    return Value(STRING, "".join(buf), marks), diags or NO_DIAGS


DISPATCH.update(
    {
        A.TemplateExpr: _template,
        A.TemplateWrapExpr: _wrap,
        A.TemplateIfExpr: _template_if,
        A.TemplateForExpr: _template_for,
    }
)
