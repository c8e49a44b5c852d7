"""Function calls (hclsyntax FunctionCallExpr.Value).

Looks the function up through the scope chain, expands a final `xs...` argument, checks the
argument count, evaluates and converts each argument to its parameter type, then calls the
function through `engine.lang.functions.base.call`. Every failure becomes HCL's diagnostic:
"Call to unknown function" (with did-you-mean), "Not enough/Too many function arguments",
"Invalid expanding argument value", "Invalid function argument" (pointing at the argument) and
"Error in function call". `try` and `can` receive their argument expressions unevaluated.
"""

from __future__ import annotations

from engine.diags import Diagnostic, ExpressionValue
from engine.gocompat.levenshtein import name_suggestion
from engine.hcl import ast as A
from engine.lang.context import EvalContext
from engine.lang.eval_core import DISPATCH, NO_DIAGS, Result, ev, has_errors
from engine.lang.eval_diag import diag, start_range
from engine.lang.eval_values import ConversionFailed, convert
from engine.lang.functions.base import Function, FunctionError, Param, call
from engine.lang.functions.special import SPECIAL, LazyImpl
from engine.values import DYNAMIC, UNKNOWN, UNKNOWN_DYNAMIC, ListType, SetType, TupleType, Value


def _lookup(e: A.FunctionCallExpr, ctx: EvalContext) -> tuple[Function | None, Diagnostic | None]:
    fn = ctx.lookup_function(e.name)
    if fn is not None:
        return fn, None
    if not ctx.has_functions():
        return None, diag(
            "Function calls not allowed", "Functions may not be called here.", e.range, None, e, ctx
        )
    special = SPECIAL.get(e.name)
    if special is not None:
        return special, None
    avail = sorted(ctx.functions) if ctx.functions else []
    suggestion = name_suggestion(e.name, avail)
    extra = f' Did you mean "{suggestion}"?' if suggestion else ""
    return None, diag(
        "Call to unknown function",
        f'There is no function named "{e.name}".{extra}',
        e.name_range,
        e.range,
        e,
        ctx,
    )


def _call(e: A.FunctionCallExpr, ctx: EvalContext) -> Result:
    fn, d = _lookup(e, ctx)
    if fn is None:
        assert d is not None
        return UNKNOWN_DYNAMIC, (d,)
    own: list[Diagnostic] = []
    val, diags = _call_function(e, ctx, fn, own)
    if not own:
        return val, diags
    marked = {id(x) for x in own}
    return val, [_with_call(x, fn) if id(x) in marked else x for x in diags]


def _call_function(
    e: A.FunctionCallExpr, ctx: EvalContext, fn: Function, own: list[Diagnostic]
) -> Result:
    """Call `fn`; diagnostics about the call itself are also recorded in `own`."""
    params = fn.params
    var_param = fn.var_param
    lazy: LazyImpl | None = fn.extra.get("lazy")  # type: ignore[assignment]
    diags: list[Diagnostic] = []

    exprs: list[A.Expr] = list(e.args)
    if e.expand_final and exprs:
        expand_expr = exprs[-1]
        ev_val, ed = ev(expand_expr, ctx)
        diags.extend(ed)
        if has_errors(ed):
            return UNKNOWN_DYNAMIC, diags
        t = ev_val.type
        if t == DYNAMIC or isinstance(t, (TupleType, ListType, SetType)):
            if ev_val.v is None:
                _own(
                    diags,
                    own,
                    diag(
                        "Invalid expanding argument value",
                        "The expanding argument (indicated by ...) must not be null.",
                        expand_expr.range,
                        e.range,
                        expand_expr,
                        ctx,
                    ),
                )
                return UNKNOWN_DYNAMIC, diags
            if t == DYNAMIC or ev_val.v is UNKNOWN:
                return UNKNOWN_DYNAMIC, diags or NO_DIAGS
            marks = ev_val.marks
            elems = [x.with_marks(marks) if marks else x for x in ev_val.v]
            # As HCL does, each element becomes a literal argument spanning the expansion.
            rng = expand_expr.range
            exprs = exprs[:-1] + [A.LiteralValueExpr(x, rng) for x in elems]
            lazy = None
        else:
            _own(
                diags,
                own,
                diag(
                    "Invalid expanding argument value",
                    "The expanding argument (indicated by ...) must be of a tuple, list, or set "
                    "type.",
                    expand_expr.range,
                    e.range,
                    expand_expr,
                    ctx,
                ),
            )
            return UNKNOWN_DYNAMIC, diags

    if len(exprs) < len(params):
        qual = " at least" if var_param is not None else ""
        missing = params[len(exprs)].name
        _own(
            diags,
            own,
            diag(
                "Not enough function arguments",
                f'Function "{e.name}" expects{qual} {len(params)} argument(s). Missing value for '
                f'"{missing}".',
                e.close_paren_range,
                e.range,
                e,
                ctx,
            ),
        )
        return UNKNOWN_DYNAMIC, diags
    if var_param is None and len(exprs) > len(params):
        _own(
            diags,
            own,
            diag(
                "Too many function arguments",
                f'Function "{e.name}" expects only {len(params)} argument(s).',
                start_range(exprs[len(params)]),
                e.range,
                e,
                ctx,
            ),
        )
        return UNKNOWN_DYNAMIC, diags

    if lazy is not None:
        try:
            return lazy(exprs, ctx, ev), diags or NO_DIAGS
        except FunctionError as exc:
            _report_function_error(e, ctx, fn, exprs, exc, diags, own)
            return UNKNOWN_DYNAMIC, diags

    args: list[Value] = []
    for i, arg_expr in enumerate(exprs):
        param = params[i] if i < len(params) else var_param
        assert param is not None
        val, ad = ev(arg_expr, ctx)
        if ad:
            diags.extend(ad)
        if param.type != DYNAMIC:
            try:
                val = convert(val, param.type)
            except ConversionFailed as exc:
                _own(diags, own, _invalid_arg(e, ctx, arg_expr, param, exc.message))
        args.append(val)
    if has_errors(diags):
        return UNKNOWN_DYNAMIC, diags

    try:
        result = call(fn, args, plan_phase=ctx.plan_phase)
    except FunctionError as exc:
        _report_function_error(e, ctx, fn, exprs, exc, diags, own)
        return UNKNOWN_DYNAMIC, diags
    except (ArithmeticError, ValueError, TypeError, KeyError, IndexError) as exc:
        # A defect inside a function implementation still reaches the user as a diagnostic.
        _own(diags, own, _call_failed(e, ctx, f"internal error: {exc}"))
        return UNKNOWN_DYNAMIC, diags
    return result, diags or NO_DIAGS


def _own(diags: list[Diagnostic], own: list[Diagnostic], d: Diagnostic) -> None:
    diags.append(d)
    own.append(d)


def signature(fn: Function) -> str:
    """The call signature Terraform shows after "while calling": `join(separator, lists...)`."""
    names = [p.name for p in fn.params]
    if fn.var_param is not None:
        names.append(fn.var_param.name + "...")
    return f"{fn.name}({', '.join(names)})"


def _with_call(d: Diagnostic, fn: Function) -> Diagnostic:
    """`d` with Terraform's "while calling f(params)" line ahead of its value lines."""
    line = ExpressionValue("while calling", signature(fn))
    return Diagnostic(
        d.severity, d.summary, d.detail, d.subject, d.context, (line, *d.values), d.extra
    )


def _invalid_arg(
    e: A.FunctionCallExpr, ctx: EvalContext, arg_expr: A.Expr, param: Param, message: str
) -> Diagnostic:
    return diag(
        "Invalid function argument",
        f'Invalid value for "{param.name}" parameter: {message}.',
        start_range(arg_expr),
        e.range,
        arg_expr,
        ctx,
    )


def _call_failed(e: A.FunctionCallExpr, ctx: EvalContext, message: str) -> Diagnostic:
    return diag(
        "Error in function call",
        f'Call to function "{e.name}" failed: {message}.',
        e.name_range.to(e.open_paren_range),
        e.range,
        e,
        ctx,
    )


DISPATCH[A.FunctionCallExpr] = _call


def _report_function_error(
    e: A.FunctionCallExpr,
    ctx: EvalContext,
    fn: Function,
    exprs: list[A.Expr],
    exc: FunctionError,
    diags: list[Diagnostic],
    own: list[Diagnostic],
) -> None:
    """HCL's reporting of a failed call: an argument error points at that argument."""
    i = exc.arg_index
    if i is None:
        _own(diags, own, _call_failed(e, ctx, exc.message))
        return
    param = fn.params[i] if i < len(fn.params) else fn.var_param
    if param is not None and i < len(exprs):
        _own(diags, own, _invalid_arg(e, ctx, exprs[i], param, exc.message))
    elif param is not None:
        _own(
            diags,
            own,
            diag(
                "Invalid function argument",
                f'Invalid value for "{param.name}" parameter: {exc.message}.',
                e.range,
                None,
                e,
                ctx,
            ),
        )
    else:
        _own(diags, own, _call_failed(e, ctx, exc.message))
