"""`plan`, `apply`, `destroy` and `refresh`.

Exit codes as Terraform: 0 success, 1 error; `plan -detailed-exitcode` gives 2 when there
are changes. Configurations and states with resources, saved plans, and the options that
only make sense with resources (`-out`, `-destroy`, `-refresh-only`, `-target`, `-replace`,
`-json`) go through the planner and the applier (engine.cli.run_plan / run_apply); a
configuration of outputs only, with a state of outputs only, keeps the output-only flow of
engine.cli.operation. `destroy` is `apply -destroy`; `refresh` is `apply -refresh-only
-auto-approve`.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.cli.args import FlagError, FlagSet, parse_duration
from engine.cli.meta import Meta
from engine.cli.operation import final_outputs, prepare, render_apply_summary, render_plan
from engine.cli.operation import new_state as state_after
from engine.cli.run_plan import OpArgs
from engine.cli.session import StateOptions
from engine.diags import error
from engine.plans.model import PlanMode
from engine.states import LocalState

_RESOURCE_FLAGS = ("out", "destroy", "refresh-only", "target", "replace", "json")


def with_state_lock(
    meta: Meta, fs: FlagSet, operation: str, body: Callable[[LocalState], int]
) -> int:
    """Run `body` with the local state locked (unless `-lock=false`), as Terraform does;
    the lock is released on every exit path."""
    try:
        timeout = parse_duration(str(fs.get("lock-timeout")))
    except FlagError as exc:
        meta.ui.diagnostics([error("Invalid lock timeout", str(exc))])
        return 1
    from engine.backend import StateOptions

    name, _ = meta.workspace()
    found, odiags = meta.backend().state_manager(
        name or "default", StateOptions(lock=bool(fs.get("lock"))))
    if found is None:
        meta.ui.diagnostics(odiags)
        return 1
    mgr = found
    storage: LocalState = mgr.storage  # type: ignore[assignment]
    with mgr.locked(operation, timeout) as diags:
        if mgr.locker is not None and not diags.has_errors:
            from engine.cli.session import check_state_under_lock

            diags.extend(check_state_under_lock(storage))
        if diags.has_errors:
            meta.ui.diagnostics(diags)
            return 1
        code = body(storage)
    meta.ui.diagnostics(diags)
    return 1 if diags.has_errors else code

APPROVAL_PROMPT = (
    "\n[reset][bold]Do you want to perform these actions?[reset]\n"
    "  Terraform will perform the actions described above.\n"
    "  Only 'yes' will be accepted to approve.\n"
)


def _operation_flags() -> FlagSet:
    fs = FlagSet()
    fs.multi("var").multi("var-file").multi("target").multi("replace")
    fs.boolean("input", True).boolean("lock", True).text("lock-timeout", "0s")
    fs.boolean("refresh", True).integer("parallelism", 10).boolean("compact-warnings")
    fs.boolean("destroy").boolean("refresh-only").boolean("json")
    return fs


def _too_many(meta: Meta, command: str) -> int:
    meta.ui.diagnostics(
        [
            error(
                "Too many command line arguments",
                "To specify a working directory for the plan, use the global -chdir flag.",
            )
        ]
    )
    meta.ui.err(f"\nFor more help on using this command, run:\n  terraform {command} -help")
    return 1


def _op_args(meta: Meta, fs: FlagSet, command: str) -> OpArgs | None:
    """The operation options; None (errors shown) when they contradict each other."""
    try:
        timeout = parse_duration(str(fs.get("lock-timeout")))
    except FlagError as exc:
        meta.ui.diagnostics([error("Invalid lock timeout", str(exc))])
        return None
    problems = []
    if fs.get("destroy") and fs.get("refresh-only"):
        problems.append(error("Incompatible plan mode options",
                              "The -destroy and -refresh-only options are mutually exclusive."))
    if fs.get("refresh-only") and not fs.get("refresh"):
        problems.append(error(
            "Incompatible refresh options",
            "It doesn't make sense to use -refresh-only at the same time as -refresh=false, "
            "because Terraform would have nothing to do."))
    if int(fs.get("parallelism")) < 1:
        problems.append(error("Invalid parallelism",
                              "The -parallelism value must be a positive whole number."))
    if problems:
        meta.ui.diagnostics(problems)
        return None
    mode = PlanMode.NORMAL
    if fs.get("destroy"):
        mode = PlanMode.DESTROY
    elif fs.get("refresh-only"):
        mode = PlanMode.REFRESH_ONLY
    return OpArgs(
        command=command, mode=mode, refresh=bool(fs.get("refresh")),
        targets=list(fs.get("target")), replace=list(fs.get("replace")),
        ordered_vars=[(n, v) for n, v in fs.ordered if n in ("var", "var-file")],
        parallelism=int(fs.get("parallelism")),
        state=StateOptions(bool(fs.get("lock")), timeout), input=bool(fs.get("input")),
        json=bool(fs.get("json")), out=str(fs.get("out")) if "out" in fs.flags else "",
        detailed_exitcode=bool(fs.get("detailed-exitcode")) if "detailed-exitcode" in fs.flags
        else False,
        auto_approve=bool(fs.get("auto-approve")) if "auto-approve" in fs.flags else False,
    )


def _has_resources(meta: Meta) -> bool:
    """Whether the configuration or the state holds resources (the planner's business)."""
    from engine.cli.operation import _resources_anywhere

    config, diags = meta.load_config()
    if config is not None and not diags.has_errors and _resources_anywhere(config):
        return True
    sf, _ = meta.local_state().read()
    return sf is not None and bool(sf.state.resources)


def _resource_flow(meta: Meta, fs: FlagSet) -> bool:
    return any(fs.was_set(f) for f in _RESOURCE_FLAGS if f in fs.flags) or _has_resources(meta)


def run_plan(meta: Meta, args: list[str]) -> int:
    fs = _operation_flags().boolean("detailed-exitcode").text("out")
    rest = meta.parse_flags("plan", fs, args)
    if rest is None:
        return 1
    if rest:
        return _too_many(meta, "plan")
    op = _op_args(meta, fs, "plan")
    if op is None:
        return 1
    if _resource_flow(meta, fs):
        from engine.cli.run_plan import run_plan_command

        return run_plan_command(meta, op)

    def body(storage: LocalState) -> int:
        prep = prepare(meta, op.ordered_vars, "plan", prompt=op.input, state=storage)
        if prep is None:
            return 1
        render_plan(meta, prep, closing_note=True)
        if prep.diags.has_errors:
            return 1
        if op.detailed_exitcode and prep.changed:
            return 2
        return 0

    return with_state_lock(meta, fs, "OperationTypePlan", body)


def _apply_like(meta: Meta, args: list[str], command: str) -> int:
    fs = _operation_flags().boolean("auto-approve")
    rest = meta.parse_flags(command, fs, args)
    if rest is None:
        return 1
    if command == "destroy":
        fs.values["destroy"] = True
    elif command == "refresh":
        fs.values["refresh-only"] = True
        fs.values["auto-approve"] = True
    if len(rest) > 1 or (rest and command != "apply"):
        return _too_many(meta, command)
    op = _op_args(meta, fs, command)
    if op is None:
        return 1
    planfile = rest[0] if rest else None
    if planfile is not None or _resource_flow(meta, fs):
        from engine.cli.run_apply import run_apply_command

        return run_apply_command(meta, op, planfile)

    def body(storage: LocalState) -> int:
        return _apply(meta, fs, storage)

    return with_state_lock(meta, fs, "OperationTypeApply", body)


def run_apply(meta: Meta, args: list[str]) -> int:
    return _apply_like(meta, args, "apply")


def run_destroy(meta: Meta, args: list[str]) -> int:
    return _apply_like(meta, args, "destroy")


def run_refresh(meta: Meta, args: list[str]) -> int:
    return _apply_like(meta, args, "refresh")


def _apply(meta: Meta, fs: FlagSet, storage: LocalState) -> int:
    prep = prepare(meta, [(n, v) for n, v in fs.ordered if n in ("var", "var-file")], "apply", prompt=bool(fs.get("input")), state=storage)
    if prep is None:
        return 1
    render_plan(meta, prep, closing_note=False)
    if prep.diags.has_errors:
        return 1
    if prep.changed and not fs.get("auto-approve"):
        meta.ui.out(APPROVAL_PROMPT)
        answer = meta.ui.ask(
            "  " + ("[bold]Enter a value:[reset] " if meta.ui.color else "Enter a value: ")
        )
        if answer is None:
            meta.ui.diagnostics([error("error asking for approval: EOF")])
            meta.ui.err("")
            return 1
        if answer.strip() != "yes":
            meta.ui.out("\nApply cancelled.")
            return 1
    results, diags = final_outputs(prep)
    if diags.has_errors:
        meta.ui.diagnostics(diags)
        return 1
    sf, diags = prep.state.write(state_after(prep, results))
    meta.ui.diagnostics(diags)
    if diags.has_errors or sf is None:
        return 1
    render_apply_summary(meta, sf.state.outputs)
    return 0
