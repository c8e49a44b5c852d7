"""Planning with resources: the `plan` command's flow and the planning half of `apply`.

`OpArgs` is what the operation flags say. `load_inputs` loads the configuration and the
root input values; `plan_locked` plans against the locked state (journal recovered first,
the walk under SIGINT/SIGTERM handling), renders the plan in the session's view and, with
`-out`, writes the saved plan (configuration snapshot and dependency lock file included).
Texts are terraform's: "Note: You didn't use the -out option...", "Saved the plan to: p",
"To perform exactly these actions, run the following command to apply:".
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from engine.cli.meta import Meta
from engine.cli.session import Session, StateOptions
from engine.diags import error
from engine.plans.model import Action, Plan, PlanMode
from engine.plans.planfile import ConfigSnapshot, snapshot_config, write_planfile
from engine.plans.planner import PlanOptions, PlanResult, make_plan
from engine.states.state import State, StateFile
from engine.values import Value

SEPARATOR = "─" * 77
LOCK_FILE = ".terraform.lock.hcl"
NO_OUT_NOTE = (
    "\nNote: You didn't use the -out option to save this plan, so Terraform can't\n"
    'guarantee to take exactly these actions if you run "terraform apply" now.'
)
NO_CONFIG_DETAIL = (
    "Plan requires configuration to be present. Planning without a configuration would mark "
    "everything for destruction, which is normally not what is desired. If you would like to "
    "destroy everything, run plan with the -destroy option. Otherwise, create a Terraform "
    "configuration file (.tf file) and try again."
)


@dataclass
class OpArgs:
    """The plan/apply options, as parsed from the command line."""

    command: str = "plan"
    mode: PlanMode = PlanMode.NORMAL
    refresh: bool = True
    targets: list[str] = field(default_factory=list)
    replace: list[str] = field(default_factory=list)
    ordered_vars: list[tuple[str, str]] = field(default_factory=list)
    parallelism: int = 10
    state: StateOptions = field(default_factory=StateOptions)
    input: bool = True
    json: bool = False
    out: str = ""
    detailed_exitcode: bool = False
    auto_approve: bool = False


@dataclass
class Inputs:
    """The configuration and the root input values: `variables` final (what evaluation uses),
    `given` as given (what the plan records, as terraform's plan VariableValues)."""

    config: Any
    variables: dict[str, Value]
    given: dict[str, Value] = field(default_factory=dict)


def go_quote(text: str) -> str:
    """Go's %q for a plain string."""
    return json.dumps(text, ensure_ascii=False)


def load_inputs(meta: Meta, session: Session, args: OpArgs) -> Inputs | None:
    """The configuration and input values; None when they have errors (shown)."""
    config, diags = meta.load_config()
    if diags.has_errors or config is None:
        session.diagnostics(diags)
        return None
    if not config.module.files and args.mode is not PlanMode.DESTROY:
        detail = NO_CONFIG_DETAIL
        if args.command != "plan":
            detail = (
                "Apply requires configuration to be present. Applying without a configuration "
                "would mark everything for destruction, which is normally not what is desired. "
                "If you would like to destroy everything, run 'terraform destroy' instead."
            )
        session.diagnostics([error("No configuration files", detail)])
        return None
    from engine.operations.lock_file import check_before_plan

    diags.extend(check_before_plan(meta.cwd, config, meta.in_automation))
    if diags.has_errors:
        session.diagnostics(diags)
        return None
    prompt = args.input and session.json is None
    root_inputs, more = meta.collect_root_inputs(config, args.ordered_vars, prompt)
    diags.extend(d for d in more if d.summary != "Invalid value for variable")
    if diags.has_errors:
        session.diagnostics(diags)
        return None
    from engine.configs.refcheck import check_references
    from engine.plans.validate import resource_ref_check

    static = check_references(config, resource_ref_check(session.registry))
    if not static.has_errors:  # as terraform's validate walk before planning
        from engine.provisioners import validate_config_provisioners

        static.extend(validate_config_provisioners(config))
    if static.has_errors:
        session.diagnostics([*diags, *(d for d in static if d.is_error)])
        return None
    session.diagnostics(diags)
    return Inputs(config, root_inputs.values, root_inputs.given)


def module_dirs(config: Any, root: str) -> dict[str, tuple[str, str]]:
    """Module key -> (directory relative to `root`, source address), for the snapshot."""
    out: dict[str, tuple[str, str]] = {}
    for node in config.walk():
        if not node.path:
            continue
        rel = os.path.relpath(node.source_dir, root)
        out[".".join(node.path)] = (rel, node.call.source if node.call is not None else "")
    return out


def config_snapshot(config: Any, root: str) -> ConfigSnapshot:
    return snapshot_config(root, module_dirs(config, root))


def read_lock_file(root: str) -> str | None:
    try:
        with open(os.path.join(root, LOCK_FILE), encoding="utf-8") as fh:
            return fh.read()
    except OSError:
        return None


def with_base(state: State, base: StateFile | None) -> StateFile | None:
    """`state` as a snapshot of `base` (its lineage and serial); None when there is no base,
    unless the plan put managed objects in it (`import` blocks): then a snapshot of no state
    (lineage "", serial 0), which is stale once any state exists."""
    if base is None:
        if not any(rs.mode == "managed" for rs in state.resources):
            return None
        return StateFile(state=state, lineage="", serial=0)
    return StateFile(state=state, lineage=base.lineage, serial=base.serial,
                     terraform_version=base.terraform_version)


def plan_options(args: OpArgs, session: Session, variables: dict[str, Value]) -> PlanOptions:
    return PlanOptions(
        mode=args.mode, refresh=args.refresh, targets=list(args.targets),
        force_replace=list(args.replace), variables=variables,
        parallelism=args.parallelism, stop=session.stop, hooks=session.hooks,
        working_dir=session.meta.cwd)


def run_planner(session: Session, inputs: Inputs, args: OpArgs,
                base: StateFile | None) -> PlanResult:
    """Plan under signal handling; the plan records the root variables as given."""
    with session.signals():
        result = make_plan(inputs.config, base, session.registry,
                           plan_options(args, session, inputs.variables))
    result.plan.variables = dict(inputs.given)
    return result


def has_changes(plan: Plan) -> bool:
    """Whether the plan proposes anything (terraform's !PlanEmpty)."""
    return plan.applyable or (plan.mode is PlanMode.REFRESH_ONLY and bool(plan.drift) and any(
        d.action is not Action.NOOP or d.moved for d in plan.drift))


def stopped_in_validation(session: Session, config: Any) -> bool:
    """Whether terraform's validate walk, which runs before planning, already fails on
    `config`: terraform then stops with no plan to show (not even "Planning failed")."""
    from engine.operations.validate import check_config

    return check_config(config, session.meta.cwd, session.registry).has_errors


def render_plan_result(session: Session, result: PlanResult, config: Any = None) -> None:
    """The plan in the session's view (human: the plan text; json: the change messages).
    An errored plan without changes is shown ("Planning failed. ...") only when `config` is
    given and terraform would have got as far as planning (see stopped_in_validation)."""
    plan = result.plan
    if session.json is not None:
        session.json.plan(plan)
        return
    from engine.plans.render_human import render_plan

    walked = result.prior_state is not result.prev_run_state  # the planner got to its walk
    if plan.errored and not any(c.action is not Action.NOOP for c in plan.changes) and (
            config is None or not walked or stopped_in_validation(session, config)):
        return
    session.ui.raw(render_plan(plan, result.schemas, result.relevant_attributes))


def run_plan_command(meta: Meta, args: OpArgs) -> int:
    """The whole `plan` command; its exit code."""
    session = Session(meta, args.json)
    if session.json is not None:
        session.json.version()
    try:
        inputs = load_inputs(meta, session, args)
        if inputs is None:
            return 1
        with session.locked_state("OperationTypePlan", args.state) as ldiags:
            seen = len(ldiags)
            if ldiags.has_errors:
                session.diagnostics(ldiags)
                return 1
            session.diagnostics(ldiags)
            code = _plan_locked(session, inputs, args)
        session.diagnostics(list(ldiags)[seen:])
        return 1 if ldiags.has_errors else code
    finally:
        session.close()


def _plan_locked(session: Session, inputs: Inputs, args: OpArgs) -> int:
    mgr = session.manager
    assert mgr is not None
    base, diags = mgr.read()
    if not diags.has_errors:
        from engine.operations.lock_file import load_workdir_locks, state_provider_errors

        locks, _ = load_workdir_locks(session.meta.cwd)
        diags.extend(state_provider_errors(base.state if base else None, locks))
    if diags.has_errors:
        session.diagnostics(diags)
        return 1
    result = run_planner(session, inputs, args, base)
    plan = result.plan
    render_plan_result(session, result, inputs.config)
    diags.extend(result.diagnostics)
    if plan.errored or diags.has_errors:
        session.diagnostics(diags)
        return 1
    if session.stop.stop_requested:
        session.diagnostics(diags)
        return 1
    if args.out:
        snap = config_snapshot(inputs.config, session.meta.cwd)
        diags.extend(write_planfile(
            args.out, plan, with_base(result.prior_state, base),
            with_base(result.prev_run_state, base), snap, read_lock_file(session.meta.cwd),
            encrypt=session.meta.plan_encryption().encrypt))
    session.diagnostics(diags)
    if diags.has_errors:
        return 1
    changed = has_changes(plan)
    if changed and session.json is None and not session.meta.in_automation:
        ui = session.ui
        ui.out("[dark_gray]\n" + SEPARATOR)
        if args.out:
            ui.out(f"\nSaved the plan to: {args.out}\n\n"
                   "To perform exactly these actions, run the following command to apply:\n"
                   f"    terraform apply {go_quote(args.out)}")
        else:
            ui.out(NO_OUT_NOTE)
    if args.detailed_exitcode and changed:
        return 2
    return 0
