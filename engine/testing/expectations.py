"""`expect_failures` and assertions: which diagnostics a run expected, and its `assert` blocks.

`origin(config, diag)` names the checkable object of the root module whose custom condition
raised `diag` (`var.x`, `output.y`, `aws_s3_bucket.b`, `check.c`), found by the condition's
source range. `validate_expected` is terraform's Run.ValidateExpectedFailures (expected
failures dropped, check-block warnings turned into errors, "Missing expected failure" for an
object that did not fail); `explain_expected` is its ExplainExpectedFailures (an expected
failure met while planning an apply run is still an error, with a warning saying why).
`evaluate_asserts` evaluates a run's assertions as terraform's moduletest.EvalContext.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.configs.checks import CheckRule
from engine.core.conditions import PASS, evaluate_rule, expression_values
from engine.diags import Diagnostic, Diagnostics, error, warning
from engine.diags.diagnostic import Severity
from engine.hcl.ast import Expr, Traversal, traversal_str
from engine.source import Range
from engine.values import Value

PASS_S, FAIL_S, ERROR_S = 2, 3, 4  # moduletest.Status order: pending, skip, pass, fail, error

_CONDITION_SUMMARIES = {
    "Invalid value for variable": "var",
    "Module output value precondition failed": "output",
    "Resource precondition failed": "resource",
    "Resource postcondition failed": "resource",
    "Check block assertion failed": "check",
}


@dataclass(frozen=True, slots=True)
class Origin:
    """What an `expect_failures` entry names: its kind and name as written."""

    kind: str  # var | output | resource | check
    name: str  # as expect_failures writes it: var.x, output.y, type.name, check.c


def _same(a: Range | None, b: Range | None) -> bool:
    return (a is not None and b is not None and a.file.filename == b.file.filename
            and a.start_offset == b.start_offset and a.end_offset == b.end_offset)


def _rules_match(rules: list[CheckRule], subject: Range | None) -> bool:
    return any(_same(r.condition.range if r.condition is not None else r.decl_range, subject)
               for r in rules)


def origin(config: Any, diag: Diagnostic) -> Origin | None:
    """See the module docstring (None: not a custom condition of the root module)."""
    kind = _CONDITION_SUMMARIES.get(diag.summary)
    if kind is None:
        return None
    mod = config.module
    subject = diag.subject
    if kind == "var":
        for name, v in mod.variables.items():
            if v.validations and (_rules_match(v.validations, subject)
                                  or _same(v.decl_range, subject)):
                return Origin("var", f"var.{name}")
    elif kind == "output":
        for name, o in mod.outputs.items():
            if _rules_match(o.preconditions, subject):
                return Origin("output", f"output.{name}")
    elif kind == "resource":
        for key, r in [*mod.managed_resources.items(), *mod.data_resources.items()]:
            if _rules_match(r.preconditions, subject) or _rules_match(r.postconditions, subject):
                return Origin("resource", key)
    else:
        for name, c in mod.checks.items():
            if _rules_match(c.asserts, subject):
                return Origin("check", f"check.{name}")
    return None


def _expected(expect: list[Traversal]) -> dict[str, Range]:
    out: dict[str, Range] = {}
    for trav in expect:
        text = traversal_str(trav)
        out.setdefault(text, trav[0].range.to(trav[-1].range))
    return out


def _expected_name(org: Origin, expected: dict[str, Range]) -> str | None:
    if org.name in expected:
        return org.name
    return None


def validate_expected(config: Any, expect: list[Traversal], diags: Diagnostics) -> Diagnostics:
    """Run.ValidateExpectedFailures (see the module docstring)."""
    expected = _expected(expect)
    met: set[str] = set()
    out = Diagnostics()
    for d in diags:
        org = origin(config, d)
        if org is not None:
            name = _expected_name(org, expected)
            if org.kind == "check":
                if name is not None:
                    met.add(name)
                    continue
                out.append(Diagnostic(Severity.ERROR, d.summary, d.detail, d.subject,
                                      d.context, d.values, d.extra))
                continue
            if d.is_error and name is not None:
                met.add(name)
                continue
        out.append(d)
    for name, rng in expected.items():
        if name not in met:
            out.append(error("Missing expected failure",
                             f"The checkable object, {name}, was expected to report an error "
                             "but did not.", rng))
    return out


def explain_expected(config: Any, expect: list[Traversal], diags: Diagnostics) -> Diagnostics:
    """Run.ExplainExpectedFailures (see the module docstring)."""
    expected = _expected(expect)
    out = Diagnostics()
    for d in diags:
        if not d.is_error:
            out.append(d)
            continue
        org = origin(config, d)
        if org is not None and org.kind != "check":
            name = _expected_name(org, expected)
            if name is not None:
                container = org.name
                out.append(warning(
                    "Expected failure while planning",
                    f"A custom condition within {container} failed during the planning stage "
                    "and prevented the requested apply operation. While this was an expected "
                    "failure, the apply operation could not be executed and so the overall test "
                    "case will be marked as a failure and the original diagnostic included in "
                    "the test report.", expected[name] if org.kind == "output" else None))
        out.append(d)
    return out


def without_check_blocks(config: Any, diags: Diagnostics) -> Diagnostics:
    """`diags` without check-block results (an apply run reports those after applying)."""
    out = Diagnostics()
    for d in diags:
        org = origin(config, d)
        if org is not None and org.kind == "check":
            continue
        out.append(d)
    return out


Evaluator = Callable[[Expr], tuple[Value, Diagnostics]]

UNKNOWN_DETAIL = (
    "Condition expression could not be evaluated at this time. This means you have executed a "
    "`run` block with `command = plan` and one of the values your condition depended on is not "
    "known until after the plan has been applied. Either remove this value from your condition, "
    "or execute an `apply` command from this `run` block. Alternatively, if there is an override "
    "for this value, you can make it available during the plan phase by setting "
    "`override_during = plan` in the `override_` block."
)


def evaluate_asserts(rules: list[CheckRule], evaluate: Evaluator) -> tuple[int, Diagnostics]:
    """The run status the assertions give (PASS_S, FAIL_S or ERROR_S, the worst) and their
    diagnostics: "Test assertion failed" with the message and the values involved."""
    status = PASS_S
    diags = Diagnostics()
    for rule in rules:
        if rule.condition is None:
            continue
        val, more = evaluate(rule.condition)
        if more.has_errors:
            diags.extend(more)
            status = max(status, ERROR_S)
            continue
        plain = val.unmark_deep()[0]
        if plain.is_known and plain.is_null:
            diags.append(error("Invalid condition run",
                               "Condition expression must return either true or false, not "
                               "null.", rule.condition.range,
                               values=expression_values(rule.condition, evaluate)))
            status = max(status, ERROR_S)
            continue
        if not plain.is_known:
            diags.append(error("Unknown condition value", UNKNOWN_DETAIL, rule.condition.range,
                               values=expression_values(rule.condition, evaluate)))
            status = max(status, ERROR_S)
            continue
        st, _msg, more = evaluate_rule(rule, evaluate, "Test assertion failed",
                                       rule.condition.range)
        for d in more:
            if d.summary == "Invalid condition result":
                d = Diagnostic(d.severity, "Invalid condition run",
                               d.detail.replace("Invalid condition result value",
                                                "Invalid condition run value"),
                               d.subject, d.context, d.values, d.extra)
            diags.append(d)
        if st != PASS:
            status = max(status, FAIL_S if st == "fail" else ERROR_S)
    return status, diags
