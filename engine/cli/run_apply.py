"""`apply [PLANFILE]`, `destroy` and `refresh`: flags → `ApplyRequest` → the operation →
the summary.

The operation (engine.operations.apply) checks and applies a saved plan, or plans, shows the
plan and asks this module's approval callback (terraform's "Do you want to perform these
actions?"; `-auto-approve` passes none). Afterwards this module prints "Apply complete!
Resources: X added, Y changed, Z destroyed." (or "Destroy complete! Resources: N
destroyed.") and the root outputs; `refresh` prints only the outputs. An interrupted or
failed apply exits 1.
"""

from __future__ import annotations

from typing import Any

from engine.cli.meta import Meta
from engine.cli.run_plan import OpArgs, deprecated_state_warning, plan_fields
from engine.cli.session import Session
from engine.diags import error
from engine.operations import ApplyCounts, ApplyRequest, apply
from engine.plans.model import Plan, PlanMode

_QUESTIONS = {
    PlanMode.NORMAL: (
        "Do you want to perform these actions?",
        "groundplan will perform the actions described above.\n"
        "  Only 'yes' will be accepted to approve.",
    ),
    PlanMode.DESTROY: (
        "Do you really want to destroy all resources?",
        "groundplan will destroy all your managed infrastructure, as shown above.\n"
        "  There is no undo. Only 'yes' will be accepted to confirm.",
    ),
    PlanMode.REFRESH_ONLY: (
        "Would you like to update the groundplan state to reflect these detected changes?",
        "groundplan will write these changes to the state without modifying any real "
        "infrastructure.\n  There is no undo. Only 'yes' will be accepted to confirm.",
    ),
}


def run_apply_command(meta: Meta, args: OpArgs, planfile: str | None) -> int:
    """`apply [PLANFILE]`, `destroy` and `refresh`; the exit code."""
    session = Session(meta, args.json, args.command)
    if session.json is not None:
        session.json.version()
    try:
        if args.state_flag:
            session.diagnostics([deprecated_state_warning()])
        if planfile is None and session.json is not None and not args.auto_approve:
            session.diagnostics([error(
                "Plan file or auto-approve required",
                "groundplan cannot ask for interactive approval when -json is set. You can "
                "either apply a saved plan file, or enable the -auto-approve option.")])
            return 1
        fields = plan_fields(session, args)
        if planfile is not None:
            fields["ask_variable"] = None
        approve = None if args.auto_approve else (lambda p: _approved(session, p))
        result = apply(session.request(ApplyRequest, plan_file=planfile, approve=approve,
                                       **fields))
        if not result.success or result.plan is None:
            return 1
        if args.command == "refresh":
            _refresh_outputs(session, result.outputs)
        else:
            _summary(session, result.plan.mode, result.counts, result.outputs, args.state_out)
        return 0
    finally:
        session.close()


def _approved(session: Session, plan: Plan) -> bool:
    """Terraform's approval question for `plan`'s mode; only "yes" approves."""
    ui = session.ui
    question, detail = _QUESTIONS[plan.mode]
    ui.out(f"\n[reset][bold]{question}[reset]\n  {detail}\n")
    answer = ui.ask("  " + ("[bold]Enter a value:[reset] " if ui.color else "Enter a value: "))
    if answer is None:
        session.diagnostics([error("error asking for approval: EOF")])
        return False
    if answer.strip() != "yes":
        cancelled = "Destroy cancelled." if plan.mode is PlanMode.DESTROY else "Apply cancelled."
        ui.out("\n" + cancelled)
        return False
    ui.out("")
    return True


def _refresh_outputs(session: Session, outputs: dict[str, Any]) -> None:
    """What terraform's refresh command prints after refreshing: the outputs, no summary."""
    if session.json is not None:
        if outputs:
            session.json.outputs(_json_outputs(outputs))
        return
    _print_outputs(session, outputs)


STATE_OUT_NOTE = (
    "The state of your infrastructure has been saved to the path below. This state\n"
    "is required to modify and destroy your infrastructure, so keep it safe. To\n"
    "inspect the complete state use the `groundplan show` command."
)


def _summary(session: Session, mode: PlanMode, c: ApplyCounts, outputs: dict[str, Any],
             state_out: str = "") -> None:
    destroy = mode is PlanMode.DESTROY
    if session.json is not None:
        session.json.change_summary("apply", c.added, c.changed, c.removed,
                                    imported=c.imported, destroy_mode=destroy)
        if outputs and not destroy:
            session.json.outputs(_json_outputs(outputs))
        return
    ui = session.ui
    if destroy:
        ui.out(f"[reset][bold][green]\nDestroy complete! Resources: {c.removed} destroyed.\n",
               newline=False)
        return
    imported = f"{c.imported} imported, " if c.imported else ""
    ui.out("[reset][bold][green]\nApply complete! Resources: "
           f"{imported}{c.added} added, {c.changed} changed, {c.removed} destroyed.\n",
           newline=False)
    if state_out and (c.added or c.changed):  # terraform names an explicit -state-out
        ui.raw(f"\n{STATE_OUT_NOTE}\n\nState path: {state_out}\n")
    _print_outputs(session, outputs)


def _print_outputs(session: Session, outputs: dict[str, Any]) -> None:
    """The "Outputs:" list, as terraform prints it after an apply or a refresh."""
    ui = session.ui
    if not outputs:
        return
    from engine.values.format import format_value

    ui.out("[reset][bold][green]\nOutputs:\n\n", newline=False)
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
