"""`try` and `can` (HCL's ext/tryfunc): functions whose arguments are expressions.

The evaluator does not evaluate their arguments first: it calls `call_lazy()` with the argument
expressions and the scope, and these evaluate them in order:

- `try(a, b, ...)` returns the value of the first argument that evaluates without errors; when
  that value is not wholly known the result is unknown (a later evaluation might still fail).
  An argument that fails is skipped even if it refers to unknowns, and one that succeeds with
  a known value is the result even if it does (`try(timestamp() != null, false)` is `true`), as
  terraform 1.11 decides. If none succeeds the call fails, listing every argument's
  diagnostics.
- `can(expr)` is false if `expr` fails, true if it gives a wholly known value, else unknown.

The `Function` objects (`TRY`, `CAN`, in `FUNCTIONS`) let them live in a function table; called
through the generic `call()` with already evaluated values every argument has succeeded, so
`try` returns its first argument and `can` returns true.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.diags import Diagnostic
from engine.hcl.ast import Expr
from engine.lang.context import EvalContext
from engine.lang.functions.base import Function, FunctionError, Param, static_return
from engine.values import BOOL, DYNAMIC, FALSE, TRUE, UNKNOWN, UNKNOWN_DYNAMIC, Type, Value

Evaluator = Callable[[Expr, EvalContext], tuple[Value, Sequence[Diagnostic]]]
LazyImpl = Callable[[Sequence[Expr], EvalContext, Evaluator], Value]


def try_lazy(args: Sequence[Expr], ctx: EvalContext, evaluate: Evaluator) -> Value:
    """HCL's try(); raises FunctionError (no argument index) when no argument succeeds."""
    if not args:
        raise FunctionError("at least one argument is required")
    collected: list[Diagnostic] = []
    for arg in args:
        val, diags = evaluate(arg, ctx)
        if any(d.is_error for d in diags):
            collected.extend(diags)
            continue
        return val if val.is_wholly_known() else UNKNOWN_DYNAMIC
    lines = ["no expression succeeded:\n"]
    for d in collected:
        if d.subject is not None:
            lines.append(f"- {d.summary} (at {d.subject})\n  {d.detail}\n")
        else:
            lines.append(f"- {d.summary}\n  {d.detail}\n")
    lines.append("\nAt least one expression must produce a successful result")
    raise FunctionError("".join(lines))


def can_lazy(args: Sequence[Expr], ctx: EvalContext, evaluate: Evaluator) -> Value:
    """HCL's can(): whether its single argument evaluates without errors."""
    val, diags = evaluate(args[0], ctx)
    if any(d.is_error for d in diags):
        return FALSE
    return TRUE if val.is_wholly_known() else Value(BOOL, UNKNOWN)


def _try_values(args: Sequence[Value], ret: Type) -> Value:
    if not args:
        raise FunctionError("at least one argument is required")
    first = args[0]
    return first if first.is_wholly_known() else UNKNOWN_DYNAMIC


def _try_type(args: Sequence[Value]) -> Type:
    if not args:
        raise FunctionError("at least one argument is required")
    return args[0].type if args[0].is_wholly_known() else DYNAMIC


def _can_values(args: Sequence[Value], ret: Type) -> Value:
    return TRUE if args[0].is_wholly_known() else Value(BOOL, UNKNOWN)


_EXPR_PARAM = Param(
    "expression", DYNAMIC, allow_null=True, allow_unknown=True, allow_dynamic=True, allow_marked=True
)

TRY = Function(
    name="try",
    params=(),
    var_param=Param(
        "expressions",
        DYNAMIC,
        allow_null=True,
        allow_unknown=True,
        allow_dynamic=True,
        allow_marked=True,
    ),
    impl=_try_values,
    return_type=_try_type,
    description="Evaluates its arguments in turn and returns the first that succeeds.",
    extra={"lazy": try_lazy},
)

CAN = Function(
    name="can",
    params=(_EXPR_PARAM,),
    impl=_can_values,
    return_type=static_return(BOOL),
    description="Whether its argument expression evaluates without errors.",
    extra={"lazy": can_lazy},
)

FUNCTIONS: list[Function] = [TRY, CAN]
SPECIAL: dict[str, Function] = {f.name: f for f in FUNCTIONS}
