"""`templatestring(template, vars)`: render a template held in a string value (Terraform 1.9+).

Its first argument is taken as an expression, not a value: it must be a reference to a string
defined elsewhere (a traversal, possibly indexed or splatted), never an inline template, and
the messages for the usual mistakes are Terraform's. The string is parsed as a template and
rendered with only the `vars` in scope; filesystem and template functions refuse to run inside.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.hcl import ast as A
from engine.lang.context import EvalContext
from engine.lang.functions.base import Function, FunctionError, Param
from engine.lang.functions.special import Evaluator
from engine.lang.functions.templatefile import diagnostics_error, render_template
from engine.values import DYNAMIC, STRING, UNKNOWN, Type, Value
from engine.values.convert import ConversionError, convert
from engine.values.refinement import refine_not_null

#: terraform refines templatestring's unknown result: it is not null
_UNKNOWN_RESULT = refine_not_null(Value(STRING, UNKNOWN))
_PREFIX = "invalid template expression: "


def _reference_like(expr: A.Expr) -> bool:
    """Terraform's heuristic: a reference, possibly indexed or splatted, and nothing else."""
    if isinstance(expr, A.ScopeTraversalExpr):
        return True
    if isinstance(expr, A.RelativeTraversalExpr | A.SplatExpr):
        return _reference_like(expr.source)
    if isinstance(expr, A.IndexExpr):
        return _reference_like(expr.collection)
    return False


def _check_template_expr(expr: A.Expr) -> None:
    if isinstance(expr, A.TemplateWrapExpr):
        raise FunctionError(
            _PREFIX + "templatestring is only for rendering templates retrieved dynamically "
            "from elsewhere; to treat the inner expression as template syntax, write the "
            "reference expression directly without any template interpolation syntax",
            0,
        )
    if isinstance(expr, A.TemplateExpr | A.LiteralValueExpr):
        literal = isinstance(expr, A.LiteralValueExpr) or (
            len(expr.parts) == 1 and isinstance(expr.parts[0], A.LiteralValueExpr)
        )
        if literal:
            raise FunctionError(
                _PREFIX + "templatestring is only for rendering templates retrieved dynamically "
                "from elsewhere, and so does not support providing a literal template; consider "
                "using a template string expression instead",
                0,
            )
        raise FunctionError(
            _PREFIX + "templatestring is only for rendering templates retrieved dynamically "
            "from elsewhere; to render an inline template, consider using a plain template "
            "string expression",
            0,
        )
    if not _reference_like(expr):
        raise FunctionError(
            _PREFIX + "must be a direct reference to a single string from elsewhere, "
            "containing valid Terraform template syntax",
            0,
        )


def templatestring_lazy(args: Sequence[A.Expr], ctx: EvalContext, evaluate: Evaluator) -> Value:
    """Evaluate a templatestring call; raises FunctionError naming the argument at fault."""
    from engine.hcl import parse_template

    if len(args) != 2:
        raise FunctionError('Function "templatestring" expects 2 arguments.')
    _check_template_expr(args[0])
    template, diags = evaluate(args[0], ctx)
    errors = [d for d in diags if d.is_error]
    if errors:
        raise FunctionError(_PREFIX + diagnostics_error(errors), 0)
    vars_val, vdiags = evaluate(args[1], ctx)
    verrors = [d for d in vdiags if d.is_error]
    if verrors:
        raise FunctionError(diagnostics_error(verrors), 1)
    if not template.is_known:
        return _UNKNOWN_RESULT
    if template.type != STRING or template.is_null:
        raise FunctionError("invalid template value: a string is required", 0)
    template, marks = template.unmark()
    expr, pdiags = parse_template(str(template.v), "<templatestring argument>")
    if pdiags.has_errors:
        raise FunctionError("invalid template: " + diagnostics_error(pdiags), 0)
    if not vars_val.is_wholly_known():
        return _UNKNOWN_RESULT.with_marks(marks)
    vars_plain, var_marks = vars_val.unmark_deep()
    functions = {n: f for n in ctx.function_names() if (f := ctx.lookup_function(n)) is not None}
    result = render_template(expr, vars_plain, functions, allow_fs=False)
    try:
        result = convert(result, STRING)
    except ConversionError as exc:
        raise FunctionError(f"invalid template result: {exc.message}") from None
    return result.with_marks(marks | var_marks | result.marks)


def _ret(args: Sequence[Value]) -> Type:
    return STRING


def _impl(args: Sequence[Value], ret: Type) -> Value:
    raise FunctionError("templatestring must be called with its template as an expression")


TEMPLATESTRING = Function(
    name="templatestring",
    params=(
        Param("template", DYNAMIC, allow_null=True, allow_unknown=True, allow_marked=True),
        Param("vars", DYNAMIC, allow_null=True, allow_unknown=True, allow_marked=True),
    ),
    impl=_impl,
    return_type=_ret,
    description="Renders a template held in a string value with the given variables.",
    extra={"lazy": templatestring_lazy},
)

FUNCTIONS: list[Function] = [TEMPLATESTRING]
