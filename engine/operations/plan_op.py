"""The plan operation: `plan(request) -> PlanResult`.

    load the configuration (once) → lock-file check → root input values → static validation
    → the backend's state manager, locked, journal recovered → read the state → the providers
    the state names must be locked → plan (refresh and plan walks) → show the plan → with
    `out`, write the saved plan (configuration snapshot and lock file included) → unlock.

The planning half (`plan_locked`) is shared with plan-and-apply (engine.operations.apply_op).
The view is shown diagnostics in terraform's order: loading warnings before the lock, lock
and recovery warnings, then the plan, then its diagnostics, then the unlock's.
"""

from __future__ import annotations

import dataclasses

from engine.configs.variable_values import recorded_variables
from engine.diags import Diagnostics
from engine.operations.generated_config import generate_target_problems
from engine.operations.planfiles import config_snapshot, read_lock_file, with_base
from engine.operations.prepare import (
    Inputs,
    encryption_checked,
    load_configuration,
    plan_codec,
    prepare_inputs,
    record_encryption_inputs,
)
from engine.operations.requests import PlanRequest
from engine.operations.results import PlanResult
from engine.operations.running import registry_for, stop_requested, walking, with_parallelism
from engine.operations.state import locked_state
from engine.plans.model import Action
from engine.plans.planfile import write_planfile
from engine.plans.planner import PlanOptions, make_plan
from engine.plugin.registry import ProviderRegistry
from engine.states.manager import StateManager


def plan(request: PlanRequest) -> PlanResult:
    """Plan the configuration of `request` against its workspace's state (see the module
    docstring); nothing is changed but the saved plan file (`request.out`)."""
    result = PlanResult()
    view = request.view
    request, diags = with_parallelism(request)
    if diags.has_errors:
        _show(request, result.diagnostics, diags)
        return result
    with registry_for(request) as registry:
        inputs = load_inputs(request, registry, result.diagnostics)
        if inputs is None:
            return result
        if request.generate_config_out:  # after the configuration, before the state
            diags = generate_target_problems(request)
            if diags.has_errors:
                _show(request, result.diagnostics, diags)
                return result
        with locked_state(request, "OperationTypePlan") as (mgr, ldiags):
            seen = len(ldiags)
            if mgr is None or ldiags.has_errors:
                _show(request, result.diagnostics, ldiags)
                return result
            view.diagnostics(ldiags)
            result.diagnostics.extend(ldiags)
            _plan_and_save(request, registry, inputs, mgr, result)
        late = list(ldiags)[seen:]
        view.diagnostics(late)
        result.diagnostics.extend(late)
    return result


def load_inputs(request: PlanRequest, registry: ProviderRegistry,
                into: Diagnostics) -> Inputs | None:
    """The configuration (loaded once) and its checked inputs; None with errors. Shown
    diagnostics are added to `into`."""
    config, diags = load_configuration(request.working_dir, request.config_dir)
    if config is not None and not diags.has_errors:
        diags.extend(encryption_checked(request.encryption, config))
    if diags.has_errors or config is None:
        _show(request, into, diags)
        return None
    inputs, more = prepare_inputs(
        config, command=request.command, mode=request.mode, working_dir=request.working_dir,
        environ=request.environ, ordered_vars=request.variables, ask=request.ask_variable,
        in_automation=request.in_automation, registry=registry)
    diags.extend(more)
    _show(request, into, diags)
    if inputs is not None:
        record_encryption_inputs(request.encryption, inputs.variables)
    return inputs


def plan_locked(request: PlanRequest, registry: ProviderRegistry, inputs: Inputs,
                mgr: StateManager, check_state_providers: bool = False) -> PlanResult:
    """Read the locked state and plan against it; the plan is shown through the view when
    terraform would show it. Diagnostics are collected in the result, not shown."""
    result = PlanResult()
    base, diags = mgr.read()
    result.diagnostics = diags
    if check_state_providers and not diags.has_errors:
        from engine.operations.lock_file import load_workdir_locks, state_provider_errors

        locks, _ = load_workdir_locks(request.working_dir)
        diags.extend(state_provider_errors(base.state if base else None, locks))
    if diags.has_errors:
        diags.extend(inputs.warnings)
        return result
    options = PlanOptions(
        mode=request.mode, refresh=request.refresh, targets=list(request.targets),
        force_replace=list(request.replace), variables=inputs.variables,
        parallelism=request.parallelism, stop=request.stop, hooks=request.view.hooks,
        working_dir=request.working_dir, timestamp=request.timestamp,
        generate_config=bool(request.generate_config_out))
    with walking(request):
        planned = make_plan(inputs.config, base, registry, options)
    planned.plan.variables, planned.plan.apply_time_variables = recorded_variables(
        inputs.config.module, inputs.given)
    result.plan = planned.plan
    result.base = base
    result.refreshed = planned.prior_state
    result.prev_run = planned.prev_run_state
    result.schemas = planned.schemas
    result.relevant_attributes = planned.relevant_attributes
    result.interrupted = stop_requested(request)
    result.shown = _shown(request, result, inputs, registry)
    if request.command != "refresh":  # terraform's refresh shows no plan, only the outputs
        request.view.plan(result)
    diags.extend(inputs.warnings)
    diags.extend(inputs.validate_warnings)
    diags.extend(planned.diagnostics)
    return result


def _shown(request: PlanRequest, result: PlanResult, inputs: Inputs,
           registry: ProviderRegistry) -> bool:
    """Whether a human view shows the plan: not when it errored without changes and
    terraform would have stopped before showing one — it stops in its validate walk (which
    the `plan` command checks only then), or the planner never got to its walk (`apply`
    shows no errored plan without changes at all)."""
    plan_ = result.plan
    assert plan_ is not None
    if not plan_.errored or any(c.action is not Action.NOOP for c in plan_.changes):
        return True
    walked = result.refreshed is not result.prev_run
    if request.command != "plan" or not walked:
        return False
    if inputs.validated:
        return True
    from engine.operations.validate import check_config

    return not check_config(inputs.config, request.working_dir, registry).has_errors


def _plan_and_save(request: PlanRequest, registry: ProviderRegistry, inputs: Inputs,
                   mgr: StateManager, result: PlanResult) -> None:
    planned = plan_locked(request, registry, inputs, mgr, check_state_providers=True)
    for f in dataclasses.fields(PlanResult):
        if f.name != "diagnostics":
            setattr(result, f.name, getattr(planned, f.name))
    diags = planned.diagnostics
    plan_ = planned.plan
    if plan_ is not None and request.generate_config_out:
        from engine.operations.generated_config import write_generated

        written, more = write_generated(request, plan_)
        diags.extend(more)
        result.generated = written
    if plan_ is not None and not plan_.errored and not diags.has_errors \
            and not stop_requested(request) and request.out:
        assert planned.refreshed is not None and planned.prev_run is not None
        snap = config_snapshot(inputs.config, request.working_dir)
        diags.extend(write_planfile(
            request.out, plan_, with_base(planned.refreshed, planned.base),
            with_base(planned.prev_run, planned.base), snap,
            read_lock_file(request.working_dir),
            encrypt=plan_codec(request.encryption).encrypt))
        if not diags.has_errors:
            result.saved = request.out
    request.view.diagnostics(diags)
    result.diagnostics.extend(diags)


def _show(request: PlanRequest, into: Diagnostics, diags: Diagnostics) -> None:
    request.view.diagnostics(diags)
    into.extend(diags)


__all__ = ["load_inputs", "plan", "plan_locked"]
