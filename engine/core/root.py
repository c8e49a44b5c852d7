"""The root module: its input values, its scope, and its evaluated outputs.

`root_instance` builds the root `ModuleInstance` from the values the caller collected
(command line, files, environment), finalised against each declaration: type conversion,
defaults, the sensitive mark. With `for_validation`, every input is an unknown of its type,
as `terraform validate` evaluates a configuration, and conditions are not checked.
"""

from __future__ import annotations

from typing import Any

from engine.core.inputs import finalize_input
from engine.core.modules import ModuleInstance
from engine.core.outputs import OutputResult
from engine.diags import Diagnostics, error
from engine.values import SENSITIVE, Value, unknown

NO_VALUE_DETAIL = (
    'The root module input variable "{name}" is not set, and has no default value. Use a '
    "-var or -var-file command line argument to provide a value for this variable."
)


def root_instance(
    config: Any,
    values: dict[str, Value],
    cwd: str,
    for_validation: bool = False,
    plan_phase: bool = False,
) -> tuple[ModuleInstance, Diagnostics]:
    """The root module instance with its finalised input values."""
    diags = Diagnostics()
    module = config.module
    final: dict[str, Value] = {}
    for name, var in module.variables.items():
        if for_validation:
            val = unknown(var.type)
            final[name] = val.mark(SENSITIVE) if var.sensitive else val
            continue
        given = values.get(name)
        if given is None and var.default is None:
            diags.append(
                error(
                    "No value for required variable",
                    NO_VALUE_DETAIL.format(name=name),
                    var.decl_range,
                )
            )
            final[name] = unknown(var.type)
            continue
        fin, more = finalize_input(var, given, var.decl_range)
        diags.extend(more)
        final[name] = fin
    inst = ModuleInstance(
        config, ".", cwd, final, check_conditions=not for_validation, plan_phase=plan_phase
    )
    return inst, diags


def evaluate_root(
    config: Any,
    values: dict[str, Value],
    cwd: str,
    for_validation: bool = False,
    plan_phase: bool = False,
) -> tuple[dict[str, OutputResult], Diagnostics]:
    """Validate the inputs, then evaluate every root output (with marks). In the plan phase
    impure functions give unknown values."""
    inst, diags = root_instance(config, values, cwd, for_validation, plan_phase)
    if diags.has_errors:
        return {}, diags
    diags.extend(inst.validate_inputs())
    outputs, more = inst.outputs()
    diags.extend(more)
    return outputs, diags
