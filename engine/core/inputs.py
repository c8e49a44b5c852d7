"""Input variable values: finalising them for a module and checking their validation rules.

`finalize_input(var, value)` applies what a module does to a value given for one of its
variables: conversion to the type constraint, the default when the value is null and the
variable is not nullable (or no value was given), and the sensitive mark for a sensitive
variable. `validate_inputs` checks each variable's `validation` blocks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.conditions import ERROR, FAIL, Reporter, check_rules
from engine.diags import Diagnostics, error
from engine.source import Range
from engine.values import SENSITIVE, Value, null, unknown
from engine.values.convert import ConversionError, convert


def finalize_input(
    var: Any, value: Value | None, subject: Range | None
) -> tuple[Value, Diagnostics]:
    """The value variable `var` takes when given `value` (None: not given at all)."""
    diags = Diagnostics()
    if value is None or (value.is_null and not var.nullable):
        if var.default is not None and not (value is not None and var.default.is_null):
            value = var.default
        elif value is None:
            value = null(var.type)
    # Conversion keeps marks where they are (a set hoists its elements' marks, as cty.SetVal).
    try:
        converted = convert(value, var.type)
    except ConversionError as exc:
        diags.append(
            error(
                "Invalid value for input variable",
                f'The given value is not suitable for var.{var.name} declared at '
                f"{var.decl_range}: {exc.message}.",
                subject,
            )
        )
        return unknown(var.type), diags
    if converted.is_null and not var.nullable:
        diags.append(
            error(
                "Invalid value for input variable",
                f'The given value is not suitable for var.{var.name} declared at '
                f"{var.decl_range}: required variable may not be set to null.",
                subject,
            )
        )
        return unknown(var.type), diags
    if var.sensitive:
        converted = converted.mark(SENSITIVE)
    return converted, diags


def validate_inputs(
    variables: dict[str, Any],
    evaluate: Any,
    reporter: Callable[[str], Reporter | None] | None = None,
) -> tuple[Diagnostics, list[str]]:
    """Check every variable's validation rules with `evaluate` (the module's evaluator);
    the diagnostics and the names of the variables that failed. `reporter(name)` gives where
    a variable's rule statuses are recorded (engine.checks), if anywhere."""
    diags = Diagnostics()
    failed: list[str] = []
    for name in variables:
        var = variables[name]
        statuses, more = check_rules(
            var.validations,
            evaluate,
            "Invalid value for variable",
            reporter(name) if reporter is not None and var.validations else None,
            var.decl_range,
            lambda rule: f"\n\nThis was checked by the validation rule at {rule.decl_range}.",
        )
        diags.extend(more)
        if (FAIL in statuses or ERROR in statuses) and name not in failed:
            failed.append(name)
    return diags, failed
