"""A run's input values: command line and variable files, then the file's `variables`, then the
run's own (each later one wins), as terraform's test command gathers them.

Test-file expressions may use functions and `run.NAME.OUTPUT` of runs that executed earlier
in the same file; a reference to any other run is terraform's "Reference to unknown run
block". Values for variables the configuration does not declare are test-only: assertions
see them as `var.NAME`, the configuration never does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.configs.exprs import variables as traversals
from engine.configs.variable_values import collect_root_inputs, finalize_given
from engine.diags import Diagnostics, error
from engine.hcl.ast import Expr, TraverseAttr, TraverseRoot
from engine.lang import EvalContext, evaluate
from engine.lang.functions import function_table
from engine.values import Value, object_

UNKNOWN_RUN_DETAIL = (
    'The run block "{name}" does not exist within this test file. You can only reference run '
    "blocks that are in the same test file and will execute before the current run block."
)


@dataclass
class RunVariables:
    """The variable values of one test run: for the configuration, and those only the test file
    uses."""

    values: dict[str, Value]
    test_only: dict[str, Value] = field(default_factory=dict)


def run_reference_problems(expr: Expr, known: set[str]) -> Diagnostics:
    """Errors for `run.NAME` references in `expr` to runs not in `known`."""
    diags = Diagnostics()
    for trav in traversals(expr):
        root = trav[0]
        if not isinstance(root, TraverseRoot) or root.name != "run" or len(trav) < 2:
            continue
        step = trav[1]
        if isinstance(step, TraverseAttr) and step.name not in known:
            diags.append(error("Reference to unknown run block",
                               UNKNOWN_RUN_DETAIL.format(name=step.name),
                               root.range.to(step.range)))
    return diags


def _evaluate(expr: Expr, outputs: dict[str, Value], cwd: str) -> tuple[Value, Diagnostics]:
    ctx = EvalContext({"run": object_(dict(outputs))}, function_table(cwd))
    return evaluate(expr, ctx)


def run_variables(ctx: Any, file: Any, run: Any, config: Any, outputs: dict[str, Value],
                  earlier: list[str]) -> tuple[RunVariables | None, Diagnostics]:
    """The final input values of `run` against `config` (see the module docstring)."""
    diags = Diagnostics()
    known = set(earlier)
    exprs = {**{n: a.expr for n, a in file.variables.items()},
             **{n: a.expr for n, a in run.variables.items()}}
    for expr in exprs.values():
        diags.extend(run_reference_problems(expr, known))
    for rule in run.asserts:
        for e in (rule.condition, rule.error_message):
            if e is not None:
                diags.extend(run_reference_problems(e, known))
    if diags.has_errors:
        return None, diags
    module = config.module
    cli, more = collect_root_inputs(module, ctx.cli_vars, ctx.environ, ctx.cwd, validate=False)
    diags.extend(d for d in more if d.summary != "No value for required variable")
    given: dict[str, Value] = dict(cli.given)
    test_only: dict[str, Value] = {}
    for name, expr in exprs.items():
        val, more = _evaluate(expr, outputs, ctx.cwd)
        diags.extend(more)
        if more.has_errors:
            continue
        if name in module.variables:
            given[name] = val
        else:
            test_only[name] = val
    if diags.has_errors:
        return None, diags
    inputs, more = finalize_given(module, given)
    diags.extend(d for d in more if d.summary != "No value for required variable")
    for name, v in module.variables.items():
        if name not in inputs.values and v.required:
            diags.append(error(
                "No value for required variable",
                f'The module under test for run block "{run.name}" has a required variable '
                f'"{name}" with no set value. Use a -var or -var-file command line argument or '
                "add this variable into a \"variables\" block within the test file or run block.",
                v.decl_range))
    if diags.has_errors:
        return None, diags
    return RunVariables(inputs.values, test_only), diags
