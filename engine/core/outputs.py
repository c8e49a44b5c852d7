"""Output values of a module, with Terraform's sensitivity rules and preconditions.

For each `output` block: the preconditions are checked first (a failure drops the output and
reports "Module output value precondition failed"); then the value is evaluated. A value that
contains sensitive data but is not declared `sensitive = true` is the error "Output refers to
sensitive values". The `sensitive` flag is recorded (the CLI hides such root outputs), but,
as in Terraform 1.11, it does not mark the value a parent module reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.conditions import UNKNOWN, Reporter, check_rules
from engine.core.scope import ModuleScope
from engine.diags import Diagnostics, error
from engine.values import SENSITIVE, Value

SENSITIVE_OUTPUT_DETAIL = (
    "To reduce the risk of accidentally exporting sensitive data that was intended to be only "
    "internal, groundplan requires that any root module output containing sensitive data be "
    "explicitly marked as sensitive, to confirm your intent.\n\n"
    "If you do intend to export this data, annotate the output value as sensitive by adding "
    "the following argument:\n"
    "    sensitive = true"
)


@dataclass(slots=True)
class OutputResult:
    """One evaluated output: its value (with marks) and whether it is sensitive."""

    name: str
    value: Value
    sensitive: bool


def evaluate_output(
    scope: ModuleScope, decl: Any, check_conditions: bool = True, is_root: bool = True,
    report: Reporter | None = None,
) -> tuple[OutputResult | None, Diagnostics]:
    """Evaluate output `decl` in `scope`; None when it could not be evaluated. Only a root
    module output must be declared sensitive to return a sensitive value (as terraform).
    The preconditions' statuses go to `report` when given."""
    diags = Diagnostics()
    if check_conditions:
        rules = getattr(decl, "preconditions", []) or []
        statuses, more = check_rules(rules, scope.evaluate,
                                     "Module output value precondition failed", report)
        diags.extend(more)
        if diags.has_errors or UNKNOWN in statuses:
            # A failed or not-yet-decidable precondition leaves the output without a value.
            return None, diags
    if decl.expr is None:
        return None, diags
    val, more = scope.evaluate(decl.expr)
    diags.extend(more)
    if more.has_errors:
        return None, diags
    sensitive = bool(decl.sensitive)
    if is_root and not sensitive and SENSITIVE in val.deep_marks():
        diags.append(
            error("Output refers to sensitive values", SENSITIVE_OUTPUT_DETAIL, decl.decl_range)
        )
        return None, diags
    # Declaring an output sensitive does not mark its value for the parent module: Terraform
    # 1.11 hands `module.x.out` on unmarked unless the value itself carries the mark.
    return OutputResult(decl.name, val, sensitive), diags


def evaluate_outputs(
    scope: ModuleScope, check_conditions: bool = True
) -> tuple[dict[str, OutputResult], Diagnostics]:
    """Every output of the scope's module, by name (those that failed are left out)."""
    diags = Diagnostics()
    results: dict[str, OutputResult] = {}
    for name in sorted(scope.module.outputs):
        res, more = evaluate_output(scope, scope.module.outputs[name], check_conditions)
        diags.extend(more)
        if res is not None:
            results[name] = res
    return results, diags
