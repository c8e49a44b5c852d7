"""Evaluating expressions: `evaluate(expr, ctx)`, `EvalContext`, `references(expr)`.

The function library lives in `engine.lang.functions`; `try` and `can` are in
`engine.lang.functions.special` because they take their arguments unevaluated.
"""

from __future__ import annotations

from engine.lang.context import EvalContext
from engine.lang.eval import evaluate
from engine.lang.references import Reference, references

__all__ = ["EvalContext", "Reference", "evaluate", "references"]
