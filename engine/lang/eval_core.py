"""The evaluator's dispatch table, shared by the modules that evaluate each kind of node.

Every node class in `engine.hcl.ast` has one handler `(expr, ctx) -> (value, diagnostics)`,
registered in `DISPATCH` by the module that owns that concept (eval, eval_for, eval_call,
template_eval). `ev()` is the internal entry point: one dict lookup per node, and handlers return
the shared empty tuple `NO_DIAGS` when they have nothing to report, so that evaluating literals
and references allocates nothing beyond the result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.diags import Diagnostic
from engine.lang.context import EvalContext
from engine.values import Value

DiagSeq = Sequence[Diagnostic]
Result = tuple[Value, DiagSeq]
Handler = Callable[[Any, EvalContext], Result]

NO_DIAGS: tuple[Diagnostic, ...] = ()
DISPATCH: dict[type, Handler] = {}


def ev(expr: Any, ctx: EvalContext) -> Result:
    """Evaluate one node with the handler registered for its class."""
    return DISPATCH[type(expr)](expr, ctx)


def has_errors(diags: DiagSeq) -> bool:
    """Whether any of `diags` is an error."""
    return any(d.is_error for d in diags)


def join(*parts: DiagSeq) -> DiagSeq:
    """The concatenation of several diagnostic sequences, avoiding copies when possible."""
    nonempty = [p for p in parts if p]
    if not nonempty:
        return NO_DIAGS
    if len(nonempty) == 1:
        return nonempty[0]
    out: list[Diagnostic] = []
    for p in nonempty:
        out.extend(p)
    return out
