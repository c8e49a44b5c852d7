"""`plan` and `apply` for configurations without resources.

Exit codes as Terraform: 0 success, 1 error; `plan -detailed-exitcode` gives 2 when there
are changes. `apply` asks "Enter a value:" unless `-auto-approve`, and only `yes` goes on.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.cli.args import FlagError, FlagSet, parse_duration
from engine.cli.meta import Meta
from engine.cli.operation import final_outputs, prepare, render_apply_summary, render_plan
from engine.cli.operation import new_state as state_after
from engine.diags import error
from engine.states import LocalState
from engine.states.lock import FilesystemLocker
from engine.states.manager import StateManager


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
    storage = meta.local_state()
    locker = FilesystemLocker(storage.path) if fs.get("lock") else None
    mgr = StateManager(storage, locker)
    with mgr.locked(operation, timeout) as diags:
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
    fs.multi("var").multi("var-file")
    fs.boolean("input", True).boolean("lock", True).text("lock-timeout", "0s")
    fs.boolean("refresh", True).integer("parallelism", 10).boolean("compact-warnings")
    return fs


def run_plan(meta: Meta, args: list[str]) -> int:
    fs = _operation_flags().boolean("detailed-exitcode")
    rest = meta.parse_flags("plan", fs, args)
    if rest is None:
        return 1
    if rest:
        meta.ui.diagnostics(
            [
                error(
                    "Too many command line arguments",
                    "To specify a working directory for the plan, use the global -chdir flag.",
                )
            ]
        )
        meta.ui.err("\nFor more help on using this command, run:\n  terraform plan -help")
        return 1
    def body(storage: LocalState) -> int:
        prep = prepare(meta, fs.ordered, "plan", prompt=bool(fs.get("input")), state=storage)
        if prep is None:
            return 1
        render_plan(meta, prep, closing_note=True)
        if prep.diags.has_errors:
            return 1
        if fs.get("detailed-exitcode") and prep.changed:
            return 2
        return 0

    return with_state_lock(meta, fs, "OperationTypePlan", body)


def run_apply(meta: Meta, args: list[str]) -> int:
    fs = _operation_flags().boolean("auto-approve")
    rest = meta.parse_flags("apply", fs, args)
    if rest is None:
        return 1
    if rest:
        meta.ui.diagnostics(
            [
                error(
                    "Saved plan files are not supported yet",
                    "This version of groundplan applies the current configuration only; "
                    "run apply without a plan file.",
                )
            ]
        )
        return 1

    def body(storage: LocalState) -> int:
        return _apply(meta, fs, storage)

    return with_state_lock(meta, fs, "OperationTypeApply", body)


def _apply(meta: Meta, fs: FlagSet, storage: LocalState) -> int:
    prep = prepare(meta, fs.ordered, "apply", prompt=bool(fs.get("input")), state=storage)
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
