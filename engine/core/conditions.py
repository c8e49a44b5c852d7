"""Custom conditions: variable `validation` rules and output `precondition` blocks.

A condition must evaluate to a bool; false is reported with the rule's error message and the
values of the references in the condition (`var.n is 5`), as Terraform reports it. A
condition or message that is unknown is not checked (plan time), never an error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.checks.state import Reporter
from engine.configs.exprs import variables as expr_traversals
from engine.diags import Diagnostic, Diagnostics, ExpressionValue, error
from engine.hcl.ast import Expr, traversal_str
from engine.source import Range
from engine.values import BOOL, STRING, Value
from engine.values.convert import ConversionError, convert

PASS, FAIL, UNKNOWN, ERROR = "pass", "fail", "unknown", "error"

Evaluator = Callable[[Expr], tuple[Value, Diagnostics]]
FALLBACK_MESSAGE = "Failed to evaluate condition error message."


def _describe(val: Value) -> str:
    from engine.core.describe import describe_value

    return describe_value(val)


def expression_values(expr: Expr, evaluate: Evaluator) -> tuple[ExpressionValue, ...]:
    """`│ var.n is 5` lines for the references in `expr`, in order, without duplicates."""
    seen: set[str] = set()
    out: list[ExpressionValue] = []
    for trav in expr_traversals(expr):
        text = traversal_str(trav)
        if text in seen:
            continue
        seen.add(text)
        from engine.hcl.ast import ScopeTraversalExpr

        probe = ScopeTraversalExpr(trav, trav[0].range.to(trav[-1].range))
        val, diags = evaluate(probe)
        if diags.has_errors:
            continue
        out.append(ExpressionValue(text, _describe(val)))
    return tuple(sorted(out, key=lambda ev: ev.traversal))


def check_rule(
    rule: Any,
    evaluate: Evaluator,
    summary: str,
    subject: Range,
    detail_suffix: str = "",
) -> tuple[str, Diagnostics]:
    """Evaluate one rule (`condition`, `error_message`): its status (PASS, FAIL, UNKNOWN or
    ERROR) and, unless it passed or is unknown, an error diagnostic pointing at `subject`."""
    status, _message, diags = evaluate_rule(rule, evaluate, summary, subject, detail_suffix)
    return status, diags


def check_rules(
    rules: list[Any],
    evaluate: Evaluator,
    summary: str,
    report: Reporter | None = None,
    subject: Range | None = None,
    detail_suffix: Callable[[Any], str] | None = None,
) -> tuple[list[str], Diagnostics]:
    """`check_rule` for each of `rules` in order (pointing at each condition, or at `subject`
    when given; a failure's detail ends with `detail_suffix(rule)`): their statuses and
    diagnostics; each status (with a failure's message) also goes to `report`
    (engine.checks) when given."""
    diags = Diagnostics()
    statuses: list[str] = []
    for i, rule in enumerate(rules):
        at = subject if subject is not None else (
            rule.condition.range if rule.condition is not None else rule.decl_range)
        suffix = detail_suffix(rule) if detail_suffix is not None else ""
        status, message, more = evaluate_rule(rule, evaluate, summary, at, suffix)
        diags.extend(more)
        statuses.append(status)
        if report is not None:
            report(i, status, message)
    return statuses, diags


def evaluate_rule(
    rule: Any,
    evaluate: Evaluator,
    summary: str,
    subject: Range,
    detail_suffix: str = "",
) -> tuple[str, str, Diagnostics]:
    """`check_rule`, with the failure message terraform records for a failed rule (the
    evaluated `error_message` without surrounding whitespace, or "Failed to evaluate
    condition error message."; "" unless the status is FAIL)."""
    diags = Diagnostics()
    cond_expr: Expr | None = rule.condition
    if cond_expr is None:
        return PASS, "", diags
    cond, more = evaluate(cond_expr)
    diags.extend(more)
    if more.has_errors:
        return ERROR, "", diags
    cond_plain, _ = cond.unmark_deep()
    if not cond_plain.is_known:
        return UNKNOWN, "", diags
    if cond_plain.is_null:
        diags.append(
            error(
                "Invalid condition result",
                "Condition expression must return either true or false, not null.",
                cond_expr.range,
            )
        )
        return ERROR, "", diags
    try:
        as_bool = convert(cond_plain, BOOL)
    except ConversionError as exc:
        diags.append(
            error(
                "Invalid condition result",
                f"Invalid condition result value: {exc.message}.",
                cond_expr.range,
            )
        )
        return ERROR, "", diags
    if as_bool.v is True:
        return PASS, "", diags
    message = ""
    if rule.error_message is not None:
        msg_val, more = evaluate(rule.error_message)
        diags.extend(more)
        if not more.has_errors:
            plain, marks = msg_val.unmark_deep()
            try:
                msg_str = convert(plain, STRING)
                if msg_str.is_known and not msg_str.is_null:
                    message = (
                        "The error message included a sensitive value, so it will not be "
                        "displayed."
                        if marks
                        else str(msg_str.v)
                    )
            except ConversionError as exc:
                diags.append(
                    error(
                        "Invalid error message",
                        f"Unsuitable value for error message: {exc.message}.",
                        rule.error_message.range,
                    )
                )
    values = expression_values(cond_expr, evaluate)
    diags.append(
        Diagnostic(
            severity=error("x").severity,
            summary=summary,
            detail=message + detail_suffix,
            subject=subject,
            values=values,
        )
    )
    return FAIL, message.strip() or FALLBACK_MESSAGE, diags
