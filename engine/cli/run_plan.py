"""The `plan` command: flags → `PlanRequest` → `engine.operations.plan` → the closing texts.

`OpArgs` is what the operation flags say (parsed by engine.cli.cmd_plan_apply). The
operation shows the plan and the diagnostics through the session; this module adds what
terraform prints after a plan with changes: "Note: You didn't use the -out option...", or
"Saved the plan to: p" and "To perform exactly these actions, run the following command to
apply:". Exit codes: 0, 1 on errors, 2 for changes with `-detailed-exitcode`.
"""

from __future__ import annotations

import json
import textwrap
from dataclasses import dataclass, field
from typing import Any

from engine.cli.meta import Meta
from engine.cli.session import Session
from engine.diags import Diagnostic, warning
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
    state_flag: bool = False  # the deprecated -state was given
    state_out: str = ""  # -state-out, named after an apply
    generate_config_out: str = ""  # plan's -generate-config-out


def deprecated_state_warning() -> Diagnostic:
    """What terraform 1.11 warns before an operation given `-state`."""
    return warning(
        "Deprecated flag: -state",
        "Use `path` attribute within the `local` backend instead:\n"
        "https://developer.hashicorp.com/terraform/language/v1.10.x/settings/backends/local#path")


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
        if args.state_flag:
            session.diagnostics([deprecated_state_warning()])
        result = plan(session.request(PlanRequest, out=args.out,
                                      generate_config_out=args.generate_config_out,
                                      **plan_fields(session, args)))
        if not result.success:
            return 1
        changed = result.changed
        if changed and session.json is None and not meta.in_automation:
            ui = meta.ui
            ui.out("[dark_gray]\n" + SEPARATOR)
            if result.generated:
                ui.out("\n" + "\n".join(textwrap.wrap(
                    f"groundplan has generated configuration and written it to "
                    f"{result.generated}. Please review the configuration and edit it as "
                    "necessary before adding it to version control.", 78,
                    break_long_words=False, break_on_hyphens=False)))
            if args.out:
                ui.out(f"\nSaved the plan to: {args.out}\n\n"
                       "To perform exactly these actions, run the following command to apply:\n"
                       f"    groundplan apply {go_quote(args.out)}")
            else:
                ui.out(NO_OUT_NOTE)
        return 2 if args.detailed_exitcode and changed else 0
    finally:
        session.close()
