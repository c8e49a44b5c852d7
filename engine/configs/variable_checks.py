"""Evaluating input variable `validation` rules against the variables' final values."""

from __future__ import annotations

from engine.configs.checks import CheckRule
from engine.configs.exprs import variables
from engine.configs.module import Module
from engine.diags import Diagnostics, error, warning
from engine.lang import EvalContext
from engine.source import Range
from engine.values import BOOL, STRING, Value, object_

_SENSITIVE_MESSAGE = "The error message included a sensitive value, so it will not be displayed."


def _context(module: Module, values: dict[str, Value]) -> EvalContext:
    from engine.lang.functions import function_table

    # Terraform 1.11 evaluates a variable's own validation with the plain values: a sensitive
    # variable's value appears in its error message (observed with terraform plan).
    plain = {k: v.unmark_deep()[0] for k, v in values.items()}
    return EvalContext(variables={"var": object_(plain)}, functions=function_table(module.source_dir))


def _error_message(rule: CheckRule, ctx: EvalContext, diags: Diagnostics) -> str:
    from engine.lang import evaluate
    from engine.values.convert import ConversionError, convert

    if rule.error_message is None:
        return ""
    val, d = evaluate(rule.error_message, ctx)
    diags.extend(d)
    if d.has_errors or not val.is_known:
        return ""
    try:
        sval = convert(val, STRING)
    except ConversionError as exc:
        diags.append(
            error("Invalid error message", f"Unsuitable value for error message: {exc}.", rule.error_message.range)
        )
        return ""
    if sval.deep_marks():
        diags.append(
            warning(
                "Error message refers to sensitive values",
                "The error expression used to explain this condition refers to sensitive values. "
                "groundplan will not display the resulting message.\n\nYou can correct this by "
                "removing references to sensitive values, or by carefully using the nonsensitive() "
                "function if the expression will not reveal the sensitive data.",
                rule.error_message.range,
            )
        )
        return _SENSITIVE_MESSAGE
    return str(sval.v) if not sval.is_null else ""


def _only_variables(rule: CheckRule) -> bool:
    exprs = [e for e in (rule.condition, rule.error_message) if e is not None]
    return all(t[0].name == "var" for e in exprs for t in variables(e))  # type: ignore[union-attr]


def evaluate_validations(
    module: Module, values: dict[str, Value], subjects: dict[str, Range] | None = None
) -> Diagnostics:
    """Errors for every validation rule whose condition is false: "Invalid value for
    variable" with the evaluated error message, pointing at `subjects[name]` (where the value
    was given, in a file) or else at the variable's declaration. Variables whose value is not
    known (after an earlier error) are skipped, and so are rules that refer to anything but
    input variables (locals, resources, ...): only the core can evaluate those, in the
    module's full scope."""
    from engine.lang import evaluate
    from engine.values.convert import ConversionError, convert

    diags = Diagnostics()
    ctx = _context(module, values)
    for name, var in module.variables.items():
        if name not in values or not values[name].is_wholly_known():
            continue
        for rule in var.validations:
            if rule.condition is None or not _only_variables(rule):
                continue
            result, d = evaluate(rule.condition, ctx)
            diags.extend(d)
            if d.has_errors or not result.is_known:
                continue
            rng = rule.condition.range
            if result.is_null:
                diags.append(
                    error(
                        "Invalid condition result",
                        "Condition expression must return either true or false, not null.",
                        rng,
                    )
                )
                continue
            try:
                b = convert(result.unmark_deep()[0], BOOL)
            except ConversionError as exc:
                diags.append(error("Invalid condition result", f"Invalid condition result value: {exc}.", rng))
                continue
            if b.v is True:
                continue
            msg = _error_message(rule, ctx, diags)
            diags.append(
                error(
                    "Invalid value for variable",
                    f"{msg}\n\nThis was checked by the validation rule at {rule.decl_range}.",
                    (subjects or {}).get(name, var.decl_range),
                )
            )
    return diags
