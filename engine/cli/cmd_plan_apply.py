"""`plan`, `apply`, `destroy` and `refresh`: flags → `OpArgs` → the operation.

Exit codes as Terraform: 0 success, 1 error; `plan -detailed-exitcode` gives 2 when there
are changes. Every configuration, with resources or without, goes through the one planner
and applier (engine.operations, via engine.cli.run_plan / run_apply). `destroy` is `apply
-destroy`; `refresh` is `apply -refresh-only -auto-approve`.
"""

from __future__ import annotations

from engine.cli.args import FlagError, FlagSet, parse_duration
from engine.cli.meta import Meta
from engine.cli.run_plan import OpArgs
from engine.diags import error
from engine.plans.model import PlanMode


def _operation_flags() -> FlagSet:
    fs = FlagSet()
    fs.multi("var").multi("var-file").multi("target").multi("replace")
    fs.boolean("input", True).boolean("lock", True).text("lock-timeout", "0s")
    fs.boolean("refresh", True).integer("parallelism", 10)
    # -compact-warnings is taken out of the arguments by main (terraform's ParseView);
    # its `=value` form is not a flag here, as in terraform
    fs.boolean("destroy").boolean("refresh-only").boolean("json")
    fs.text("state").text("state-out").text("backup")  # legacy, for the local backend
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
    meta.ui.err(f"\nFor more help on using this command, run:\n  groundplan {command} -help")
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
            "because groundplan would have nothing to do."))
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
        lock=bool(fs.get("lock")), lock_timeout=timeout, input=bool(fs.get("input")),
        json=bool(fs.get("json")), out=str(fs.get("out")) if "out" in fs.flags else "",
        detailed_exitcode=bool(fs.get("detailed-exitcode")) if "detailed-exitcode" in fs.flags
        else False,
        auto_approve=bool(fs.get("auto-approve")) if "auto-approve" in fs.flags else False,
        state_flag=bool(fs.get("state")), state_out=str(fs.get("state-out") or ""),
        generate_config_out=str(fs.get("generate-config-out") or "")
        if "generate-config-out" in fs.flags else "",
    )


def run_plan(meta: Meta, args: list[str]) -> int:
    fs = _operation_flags().boolean("detailed-exitcode").text("out").text("generate-config-out")
    rest = meta.parse_flags("plan", fs, args)
    if rest is None:
        return 1
    if rest:
        return _too_many(meta, "plan")
    op = _op_args(meta, fs, "plan")
    if op is None:
        return 1
    meta.override_local_state(fs)
    from engine.cli.run_plan import run_plan_command

    return run_plan_command(meta, op)


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
    meta.override_local_state(fs)
    from engine.cli.run_apply import run_apply_command

    return run_apply_command(meta, op, rest[0] if rest else None)


def run_apply(meta: Meta, args: list[str]) -> int:
    return _apply_like(meta, args, "apply")


def run_destroy(meta: Meta, args: list[str]) -> int:
    return _apply_like(meta, args, "destroy")


def run_refresh(meta: Meta, args: list[str]) -> int:
    return _apply_like(meta, args, "refresh")
