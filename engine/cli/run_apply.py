"""Applying with resources: `apply PLANFILE`, `apply` (plan, approve, apply), `destroy`,
`refresh`.

A saved plan is applied exactly: it is refused when the state changed since it was made
("Saved plan is stale"), when the configuration files differ from the plan's snapshot, and
when variables are given. Without a plan file, the plan is made, shown, and applied after
`yes` to terraform's question (`-auto-approve` skips it). Progress lines come from the
session's hooks; the end is "Apply complete! Resources: X added, Y changed, Z destroyed."
(or "Destroy complete! Resources: N destroyed.") and the root outputs. An interrupted apply
stops scheduling work, persists the state and exits 1.
"""

from __future__ import annotations

from typing import Any

from engine.apply.applier import ApplyOptions, apply_plan, check_plan_fresh
from engine.cli.meta import Meta
from engine.cli.run_plan import (
    Inputs,
    OpArgs,
    config_snapshot,
    has_changes,
    load_inputs,
    render_plan_result,
    run_planner,
    with_base,
)
from engine.cli.session import Session
from engine.diags import Diagnostics, error, warning
from engine.plans.model import Action, Plan, PlanMode
from engine.plans.planfile import PlanFile, read_planfile
from engine.states.state import StateFile

_QUESTIONS = {
    PlanMode.NORMAL: (
        "Do you want to perform these actions?",
        "Terraform will perform the actions described above.\n"
        "  Only 'yes' will be accepted to approve.",
    ),
    PlanMode.DESTROY: (
        "Do you really want to destroy all resources?",
        "Terraform will destroy all your managed infrastructure, as shown above.\n"
        "  There is no undo. Only 'yes' will be accepted to confirm.",
    ),
    PlanMode.REFRESH_ONLY: (
        "Would you like to update the Terraform state to reflect these detected changes?",
        "Terraform will write these changes to the state without modifying any real "
        "infrastructure.\n  There is no undo. Only 'yes' will be accepted to confirm.",
    ),
}
TARGETED_APPLY_DETAIL = (
    "The plan was created with the -target option in effect, so some changes requested in "
    "the configuration may have been ignored and the output values may not be fully "
    "updated. Run the following command to verify that no other changes are pending:\n"
    "    terraform plan\n\n"
    "Note that the -target option is not suitable for routine use, and is provided only for "
    "exceptional situations such as recovering from errors or mistakes, or when Terraform "
    "specifically suggests to use it as part of an error message."
)
CONFIG_CHANGED_DETAIL = (
    "The configuration files have changed since the plan {path} was created, so the plan "
    "may not describe what applying the current configuration would do. Create a new plan "
    'with "terraform plan -out={path}" and apply that one.'
)


def run_apply_command(meta: Meta, args: OpArgs, planfile: str | None) -> int:
    """`apply [PLANFILE]`, `destroy` and `refresh`; the exit code."""
    session = Session(meta, args.json)
    if session.json is not None:
        session.json.version()
    try:
        if planfile is not None:
            return _apply_saved(meta, session, args, planfile)
        return _plan_and_apply(meta, session, args)
    finally:
        session.close()


# ------------------------------------------------------------------------------ saved plans
def _apply_saved(meta: Meta, session: Session, args: OpArgs, path: str) -> int:
    if args.ordered_vars:
        session.diagnostics([error(
            "Can't set variables when applying a saved plan",
            "The -var and -var-file options cannot be used when applying a saved plan file, "
            "because a saved plan includes the variable values that were set when it was "
            "created.")])
        return 1
    pf, diags = read_planfile(path, decrypt=meta.plan_encryption().decrypt)
    if pf is None or diags.has_errors:
        session.diagnostics(diags)
        return 1
    config, more = meta.load_config()
    if more.has_errors or config is None:
        session.diagnostics(more)
        return 1
    if config_snapshot(config, meta.cwd).hash() != pf.config_hash:
        session.diagnostics([error("Saved plan does not match the configuration",
                                   CONFIG_CHANGED_DETAIL.format(path=path))])
        return 1
    from engine.configs.variable_values import finalize_given

    root_inputs, vdiags = finalize_given(config.module, pf.plan.variables)
    if vdiags.has_errors:
        session.diagnostics(vdiags)
        return 1
    inputs = Inputs(config, root_inputs.values, dict(pf.plan.variables))
    with session.locked_state("OperationTypeApply", args.state) as ldiags:
        seen = len(ldiags)
        if ldiags.has_errors:
            session.diagnostics(ldiags)
            return 1
        session.diagnostics(ldiags)
        code = _apply_saved_locked(session, inputs, args, pf)
    session.diagnostics(list(ldiags)[seen:])
    return 1 if ldiags.has_errors else code


def _apply_saved_locked(session: Session, inputs: Inputs, args: OpArgs, pf: PlanFile) -> int:
    mgr = session.manager
    assert mgr is not None
    current, diags = mgr.read()
    if diags.has_errors:
        session.diagnostics(diags)
        return 1
    prior = pf.prior_state
    diags.extend(check_plan_fresh(prior.lineage if prior is not None else None,
                                  prior.serial if prior is not None else None, current))
    if diags.has_errors:
        session.diagnostics(diags)
        return 1
    if session.json is not None:
        for c in pf.plan.changes:
            if c.action is not Action.NOOP or c.moved or c.importing is not None:
                session.json.planned_change(c)
    return _apply(session, inputs, args, pf.plan, prior, diags)


# ------------------------------------------------------------------------------ plan + apply
def _plan_and_apply(meta: Meta, session: Session, args: OpArgs) -> int:
    if session.json is not None and not args.auto_approve:
        session.diagnostics([error(
            "Plan file or auto-approve required",
            "Terraform cannot ask for interactive approval when -json is set. You can either "
            "apply a saved plan file, or enable the -auto-approve option.")])
        return 1
    inputs = load_inputs(meta, session, args)
    if inputs is None:
        return 1
    with session.locked_state("OperationTypeApply", args.state) as ldiags:
        seen = len(ldiags)
        if ldiags.has_errors:
            session.diagnostics(ldiags)
            return 1
        session.diagnostics(ldiags)
        code = _plan_and_apply_locked(session, inputs, args)
    session.diagnostics(list(ldiags)[seen:])
    return 1 if ldiags.has_errors else code


def _plan_and_apply_locked(session: Session, inputs: Inputs, args: OpArgs) -> int:
    mgr = session.manager
    assert mgr is not None
    base, diags = mgr.read()
    if diags.has_errors:
        session.diagnostics(diags)
        return 1
    result = run_planner(session, inputs, args, base)
    if args.command != "refresh":  # terraform's refresh shows no plan, only the outputs
        render_plan_result(session, result)
    diags.extend(result.diagnostics)
    if result.plan.errored or diags.has_errors or session.stop.stop_requested:
        session.diagnostics(diags)
        return 1
    plan = result.plan
    if has_changes(plan) and not args.auto_approve:
        session.diagnostics(diags)
        diags = Diagnostics()
        if not _approved(session, plan.mode):
            return 1
    return _apply(session, inputs, args, plan, with_base(result.prior_state, base), diags)


def _approved(session: Session, mode: PlanMode) -> bool:
    ui = session.ui
    question, detail = _QUESTIONS[mode]
    ui.out(f"\n[reset][bold]{question}[reset]\n  {detail}\n")
    answer = ui.ask("  " + ("[bold]Enter a value:[reset] " if ui.color else "Enter a value: "))
    if answer is None:
        session.diagnostics([error("error asking for approval: EOF")])
        return False
    if answer.strip() != "yes":
        ui.out("\n" + ("Destroy cancelled." if mode is PlanMode.DESTROY else "Apply cancelled."))
        return False
    ui.out("")
    return True


# ------------------------------------------------------------------------------ applying
def _apply(session: Session, inputs: Inputs, args: OpArgs, plan: Plan,
           prior: StateFile | None, diags: Diagnostics) -> int:
    mgr = session.manager
    assert mgr is not None
    options = ApplyOptions(parallelism=args.parallelism, stop=session.stop,
                           hooks=session.hooks, variables=inputs.variables,
                           working_dir=session.meta.cwd)
    with session.signals():
        result = apply_plan(inputs.config, plan, prior, mgr, session.registry, options)
    diags.extend(result.diagnostics)
    if plan.target_addrs and not diags.has_errors:
        diags.append(warning("Applied changes may be incomplete", TARGETED_APPLY_DETAIL))
    if session.stop.stop_requested:
        session.diagnostics(diags)
        return 1
    if diags.has_errors:
        session.diagnostics(diags)
        return 1
    session.diagnostics(diags)
    if args.command == "refresh":
        _refresh_outputs(session, result.state.outputs)
    else:
        _summary(session, plan.mode, result.state.outputs)
    return 0


def _refresh_outputs(session: Session, outputs: dict[str, Any]) -> None:
    """What terraform's refresh command prints after refreshing: the outputs, no summary."""
    if session.json is not None:
        if outputs:
            session.json.outputs(_json_outputs(outputs))
        return
    _print_outputs(session, outputs)


def _summary(session: Session, mode: PlanMode, outputs: dict[str, Any]) -> None:
    c = session.counter
    destroy = mode is PlanMode.DESTROY
    if session.json is not None:
        session.json.change_summary("apply", c.added, c.changed, c.removed,
                                    imported=c.imported, destroy_mode=destroy)
        if outputs and not destroy:
            session.json.outputs(_json_outputs(outputs))
        return
    ui = session.ui
    if destroy:
        ui.out(f"[reset][bold][green]\nDestroy complete! Resources: {c.removed} destroyed.")
        return
    imported = f"{c.imported} imported, " if c.imported else ""
    ui.out("[reset][bold][green]\nApply complete! Resources: "
           f"{imported}{c.added} added, {c.changed} changed, {c.removed} destroyed.")
    _print_outputs(session, outputs)


def _print_outputs(session: Session, outputs: dict[str, Any]) -> None:
    """The "Outputs:" list, as terraform prints it after an apply or a refresh."""
    ui = session.ui
    if not outputs:
        return
    from engine.values.format import format_value

    ui.out("[reset][bold][green]\nOutputs:\n")
    lines = []
    for name in sorted(outputs):
        ov = outputs[name]
        lines.append(f"{name} = " + ("<sensitive>" if ov.sensitive else format_value(ov.value)))
    ui.raw("\n".join(lines) + "\n")


def _json_outputs(outputs: dict[str, Any]) -> dict[str, dict[str, Any]]:
    from engine.states.codec import encode_value

    out: dict[str, dict[str, Any]] = {}
    for name in sorted(outputs):
        ov = outputs[name]
        plain, _ = ov.value.unmark_deep()
        entry: dict[str, Any] = {"sensitive": ov.sensitive, "type": plain.type.to_json()}
        if not ov.sensitive:
            entry["value"] = encode_value(plain)
        out[name] = entry
    return out
