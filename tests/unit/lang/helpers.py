"""Shared helpers for the evaluator tests: parse one expression and evaluate it.

Expected values in these tests were produced by the real terraform v1.11.4 (`terraform
console`, or `terraform plan` for unknown values); `show()` renders a value the way the console
prints it so the expectations can be compared with terraform's output verbatim.
"""

from __future__ import annotations

from engine.diags import Diagnostic, Diagnostics
from engine.hcl import parse_expression
from engine.hcl.ast import Expr
from engine.lang import EvalContext, evaluate
from engine.lang.functions import collections, conversion, encoding, numeric, strings
from engine.lang.functions.base import Function
from engine.values import NUMBER, STRING, ListType, Value, number, object_, string, unknown
from engine.values.format import format_value

# The module-independent built-ins (the filesystem ones need a module directory).
_FUNCS: dict[str, Function] = {
    fn.name: fn
    for mod in (strings, collections, numeric, encoding, conversion)
    for fn in mod.FUNCTIONS
}


def parse(src: str) -> Expr:
    expr, diags = parse_expression(src, "test.tf")
    assert not diags.has_errors, [d.summary for d in diags]
    return expr


def default_vars() -> dict[str, Value]:
    return {
        "var": object_(
            {
                "n": number(1),
                "s": string("a"),
                "l": Value(ListType(NUMBER), [number(1), number(2)]),
                "un": unknown(NUMBER),
                "us": unknown(STRING),
                "secret": string("hunter2").mark("sensitive"),
                "sn": number(5).mark("sensitive"),
            }
        )
    }


def ctx(variables: dict[str, Value] | None = None, *, functions: bool = True, plan: bool = False) -> EvalContext:
    return EvalContext(
        default_vars() if variables is None else variables,
        _FUNCS if functions else None,
        plan_phase=plan,
    )


def run(src: str, c: EvalContext | None = None) -> tuple[Value, Diagnostics]:
    return evaluate(parse(src), c if c is not None else ctx())


def value(src: str, c: EvalContext | None = None) -> Value:
    """The value of `src`, asserting that evaluation produced no diagnostics."""
    val, diags = run(src, c)
    assert not diags, [(d.summary, d.detail) for d in diags]
    return val


def show(src: str, c: EvalContext | None = None) -> str:
    """The value of `src` rendered as `terraform console` prints it."""
    return format_value(value(src, c))


def only_error(src: str, c: EvalContext | None = None) -> Diagnostic:
    """The single error evaluating `src` produces."""
    _val, diags = run(src, c)
    errs = diags.errors
    assert len(errs) == 1, [(d.summary, d.detail) for d in diags]
    return errs[0]


def subject_text(d: Diagnostic) -> str:
    assert d.subject is not None
    return d.subject.text()
