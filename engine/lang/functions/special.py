"""`try` and `can` (HCL's ext/tryfunc): functions whose arguments are expressions.

The evaluator does not evaluate their arguments first: it calls `call_lazy()` with the argument
expressions and the scope, and these evaluate them in order:

- `try(a, b, ...)` returns the value of the first argument that evaluates without errors. If an
  argument refers to anything not yet wholly known, the result is unknown (it cannot be decided
  yet). If none succeeds the call fails, listing every argument's diagnostics.
- `can(expr)` is true if `expr` evaluates without errors, false otherwise, unknown if it refers
  to anything not yet wholly known.

The `Function` objects (`TRY`, `CAN`, in `FUNCTIONS`) let them live in a function table; called
through the generic `call()` with already evaluated values every argument has succeeded, so
`try` returns its first argument and `can` returns true.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.diags import Diagnostic
from engine.hcl.ast import Expr
from engine.lang.context import EvalContext
from engine.lang.eval_traversal import traverse_abs
from engine.lang.functions.base import Function, FunctionError, Param, static_return
from engine.lang.references import references
from engine.values import BOOL, DYNAMIC, FALSE, TRUE, UNKNOWN, UNKNOWN_DYNAMIC, Type, Value

Evaluator = Callable[[Expr, EvalContext], tuple[Value, Sequence[Diagnostic]]]
LazyImpl = Callable[[Sequence[Expr], EvalContext, Evaluator], Value]


def depends_on_unknowns(expr: Expr, ctx: EvalContext) -> bool:
    """Whether any reference `expr` makes resolves to a value that is not wholly known."""
    for traversal, _rng in references(expr):
        val, d = traverse_abs(traversal, ctx)
        if d is not None:
            continue
        if not val.is_wholly_known():
            return True
    return False


def try_lazy(args: Sequence[Expr], ctx: EvalContext, evaluate: Evaluator) -> Value:
    """HCL's try(); raises FunctionError (no argument index) when no argument succeeds."""
    if not args:
        raise FunctionError("at least one argument is required")
    collected: list[Diagnostic] = []
    for arg in args:
        if depends_on_unknowns(arg, ctx):
            return UNKNOWN_DYNAMIC
        val, diags = evaluate(arg, ctx)
        if any(d.is_error for d in diags):
            collected.extend(diags)
            continue
        return val
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
    if depends_on_unknowns(args[0], ctx):
        return Value(BOOL, UNKNOWN)
    _val, diags = evaluate(args[0], ctx)
    return FALSE if any(d.is_error for d in diags) else TRUE


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
