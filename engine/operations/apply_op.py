"""The apply operations: `apply`, `destroy` and `refresh` over an `ApplyRequest`.

A saved plan (`plan_file`) is applied exactly: with the variable values it recorded, and the
values of its apply-time (ephemeral) variables given again (any other value given is refused
as terraform 1.11 refuses it; engine.configs.variable_values.apply_time_given); refused when
the configuration files differ from the plan's snapshot ("Saved plan does not match the
configuration") and, under the lock, when the state changed since it was made ("Saved plan
is stale"). Without a plan file the plan is made as
`plan` makes it (engine.operations.plan_op), shown through the view, and applied once the
request's `approve` callback says yes (no callback: applied at once, as `-auto-approve`).

The apply walk records every result through the state manager (journal, snapshots on a
timer and on stop requests, the final write at the end); a stop request lets running
provider calls finish, starts nothing new and persists the state.
"""

from __future__ import annotations

import dataclasses

from engine.apply.applier import ApplyOptions, apply_plan, check_plan_fresh
from engine.diags import Diagnostics, error, warning
from engine.operations.hooks import CountHooks, FanOutHooks
from engine.operations.plan_op import load_inputs, plan_locked
from engine.operations.planfiles import config_snapshot, with_base
from engine.operations.prepare import (
    Inputs,
    encryption_checked,
    load_configuration,
    plan_codec,
    record_encryption_inputs,
)
from engine.operations.requests import ApplyRequest
from engine.operations.results import ApplyResult
from engine.operations.running import registry_for, stop_requested, walking, with_parallelism
from engine.operations.state import locked_state
from engine.plans.model import Plan, PlanMode
from engine.plans.planfile import PlanFile, read_planfile
from engine.plugin.registry import ProviderRegistry
from engine.states.manager import StateManager
from engine.states.state import StateFile

TARGETED_APPLY_DETAIL = (
    "The plan was created with the -target option in effect, so some changes requested in "
    "the configuration may have been ignored and the output values may not be fully "
    "updated. Run the following command to verify that no other changes are pending:\n"
    "    groundplan plan\n\n"
    "Note that the -target option is not suitable for routine use, and is provided only for "
    "exceptional situations such as recovering from errors or mistakes, or when groundplan "
    "specifically suggests to use it as part of an error message."
)
CONFIG_CHANGED_DETAIL = (
    "The configuration files have changed since the plan {path} was created, so the plan "
    "may not describe what applying the current configuration would do. Create a new plan "
    'with "groundplan plan -out={path}" and apply that one.'
)


def apply(request: ApplyRequest) -> ApplyResult:
    """Apply the saved plan `request.plan_file`, or plan and (once approved) apply; see the
    module docstring. The result's `state` is the state written."""
    result = ApplyResult()
    request, diags = with_parallelism(request)
    if diags.has_errors:
        _show(request, result, diags)
        return result
    with registry_for(request) as registry:
        if request.plan_file is not None:
            _apply_saved(request, registry, request.plan_file, result)
        else:
            _plan_and_apply(request, registry, result)
    return result


def destroy(request: ApplyRequest) -> ApplyResult:
    """`apply` in destroy mode (terraform's `destroy`): plan to destroy everything, approve,
    apply."""
    return apply(dataclasses.replace(request, mode=PlanMode.DESTROY, plan_file=None))


def refresh(request: ApplyRequest) -> ApplyResult:
    """Terraform's `refresh`: a refresh-only plan applied without asking (the state takes the
    remote objects as they are; nothing real changes)."""
    return apply(dataclasses.replace(request, mode=PlanMode.REFRESH_ONLY, plan_file=None,
                                     approve=None))


# ------------------------------------------------------------------------------ saved plans
def _apply_saved(request: ApplyRequest, registry: ProviderRegistry, path: str,
                 result: ApplyResult) -> None:
    pf, diags = read_planfile(path, decrypt=plan_codec(request.encryption).decrypt)
    if pf is None or diags.has_errors:
        _show(request, result, diags)
        return
    config, more = load_configuration(request.working_dir, request.config_dir)
    if config is not None and not more.has_errors:
        more.extend(encryption_checked(request.encryption, config))
    if more.has_errors or config is None:
        _show(request, result, more)
        return
    if config_snapshot(config, request.working_dir).hash() != pf.config_hash:
        _show(request, result, Diagnostics([error(
            "Saved plan does not match the configuration",
            CONFIG_CHANGED_DETAIL.format(path=path))]))
        return
    from engine.configs.variable_values import apply_time_given, finalize_given

    again, vdiags = apply_time_given(config.module, pf.plan.variables,
                                     pf.plan.apply_time_variables,
                                     request.variables, request.environ, request.working_dir)
    if not vdiags.has_errors:
        root_inputs, more = finalize_given(config.module, {**pf.plan.variables, **again})
        vdiags.extend(more)
    if vdiags.has_errors:
        _show(request, result, vdiags)
        return
    inputs = Inputs(config, root_inputs.values, dict(pf.plan.variables))
    record_encryption_inputs(request.encryption, inputs.variables)
    result.plan = pf.plan
    with locked_state(request, "OperationTypeApply") as (mgr, ldiags):
        seen = len(ldiags)
        if mgr is None or ldiags.has_errors:
            _show(request, result, ldiags)
            return
        _show(request, result, ldiags)
        _apply_saved_locked(request, registry, inputs, pf, mgr, result, vdiags)
    late = Diagnostics(list(ldiags)[seen:])
    _show(request, result, late)


def _apply_saved_locked(request: ApplyRequest, registry: ProviderRegistry, inputs: Inputs,
                        pf: PlanFile, mgr: StateManager, result: ApplyResult,
                        warnings: Diagnostics) -> None:
    """Apply `pf` if it is fresh; `warnings` (from the variables given) are shown after the
    walk, as terraform shows them."""
    current, diags = mgr.read()
    if diags.has_errors:
        _show(request, result, diags)
        return
    prior = pf.prior_state
    diags.extend(check_plan_fresh(prior.lineage if prior is not None else None,
                                  prior.serial if prior is not None else None, current))
    if diags.has_errors:
        _show(request, result, diags)
        return
    request.view.applying_saved_plan(pf.plan)
    diags.extend(warnings)
    _apply_walk(request, registry, inputs, pf.plan, prior, mgr, diags, result)


# ------------------------------------------------------------------------------ plan + apply
def _plan_and_apply(request: ApplyRequest, registry: ProviderRegistry,
                    result: ApplyResult) -> None:
    inputs = load_inputs(request, registry, result.diagnostics)
    if inputs is None:
        return
    with locked_state(request, "OperationTypeApply") as (mgr, ldiags):
        seen = len(ldiags)
        if mgr is None or ldiags.has_errors:
            _show(request, result, ldiags)
            return
        _show(request, result, ldiags)
        _plan_and_apply_locked(request, registry, inputs, mgr, result)
    late = Diagnostics(list(ldiags)[seen:])
    _show(request, result, late)


def _plan_and_apply_locked(request: ApplyRequest, registry: ProviderRegistry, inputs: Inputs,
                           mgr: StateManager, result: ApplyResult) -> None:
    planned = plan_locked(request, registry, inputs, mgr)
    result.planned = planned
    result.plan = planned.plan
    diags = planned.diagnostics
    plan_ = planned.plan
    if plan_ is None or plan_.errored or diags.has_errors or stop_requested(request):
        result.interrupted = stop_requested(request)
        _show(request, result, diags)
        return
    if planned.changed and request.approve is not None:
        _show(request, result, diags)
        diags = Diagnostics()
        if not request.approve(plan_):
            result.cancelled = True
            return
    assert planned.refreshed is not None
    _apply_walk(request, registry, inputs, plan_, with_base(planned.refreshed, planned.base),
                mgr, diags, result)


# ------------------------------------------------------------------------------ applying
def _apply_walk(request: ApplyRequest, registry: ProviderRegistry, inputs: Inputs, plan_: Plan,
                prior: StateFile | None, mgr: StateManager, diags: Diagnostics,
                result: ApplyResult) -> None:
    """Walk the plan's changes; the diagnostics so far (`diags`) are shown with the walk's."""
    counter = CountHooks()
    options = ApplyOptions(parallelism=request.parallelism, stop=request.stop,
                           hooks=FanOutHooks(request.view.hooks, counter),
                           variables=inputs.variables, working_dir=request.working_dir)
    with walking(request):
        applied = apply_plan(inputs.config, plan_, prior, mgr, registry, options)
    diags.extend(applied.diagnostics)
    if plan_.target_addrs and not diags.has_errors:
        diags.append(warning("Applied changes may be incomplete", TARGETED_APPLY_DETAIL))
    result.applied = True
    result.state = applied.state
    result.counts = counter.counts
    result.interrupted = stop_requested(request)
    _show(request, result, diags)


def _show(request: ApplyRequest, result: ApplyResult, diags: Diagnostics) -> None:
    request.view.diagnostics(diags)
    result.diagnostics.extend(diags)


__all__ = ["apply", "destroy", "refresh"]
