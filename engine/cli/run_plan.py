"""The `plan` command: flags → `PlanRequest` → `engine.operations.plan` → the closing texts.

`OpArgs` is what the operation flags say (parsed by engine.cli.cmd_plan_apply). The
operation shows the plan and the diagnostics through the session; this module adds what
terraform prints after a plan with changes: "Note: You didn't use the -out option...", or
"Saved the plan to: p" and "To perform exactly these actions, run the following command to
apply:". Exit codes: 0, 1 on errors, 2 for changes with `-detailed-exitcode`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine.cli.meta import Meta
from engine.cli.session import Session
from engine.operations import PlanRequest, plan
from engine.plans.model import PlanMode

SEPARATOR = "─" * 77
NO_OUT_NOTE = (
    "\nNote: You didn't use the -out option to save this plan, so groundplan can't\n"
    'guarantee to take exactly these actions if you run "groundplan apply" now.'
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
    lock: bool = True
    lock_timeout: float = 0.0
    input: bool = True
    json: bool = False
    out: str = ""
    detailed_exitcode: bool = False
    auto_approve: bool = False


def go_quote(text: str) -> str:
    """Go's %q for a plain string."""
    return json.dumps(text, ensure_ascii=False)


def plan_fields(session: Session, args: OpArgs) -> dict[str, Any]:
    """The `PlanRequest` fields the flags give."""
    prompt = args.input and session.json is None
    return {
        "mode": args.mode, "refresh": args.refresh, "targets": list(args.targets),
        "replace": list(args.replace), "variables": list(args.ordered_vars),
        "ask_variable": session.meta.ask_variable if prompt else None,
        "command": args.command, "parallelism": args.parallelism, "lock": args.lock,
        "lock_timeout": args.lock_timeout,
    }


def run_plan_command(meta: Meta, args: OpArgs) -> int:
    """The whole `plan` command; its exit code."""
    session = Session(meta, args.json, args.command)
    if session.json is not None:
        session.json.version()
    try:
        result = plan(session.request(PlanRequest, out=args.out, **plan_fields(session, args)))
        if not result.success:
            return 1
        changed = result.changed
        if changed and session.json is None and not meta.in_automation:
            ui = meta.ui
            ui.out("[dark_gray]\n" + SEPARATOR)
            if args.out:
                ui.out(f"\nSaved the plan to: {args.out}\n\n"
                       "To perform exactly these actions, run the following command to apply:\n"
                       f"    groundplan apply {go_quote(args.out)}")
            else:
                ui.out(NO_OUT_NOTE)
        return 2 if args.detailed_exitcode and changed else 0
    finally:
        session.close()
