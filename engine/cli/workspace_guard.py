"""The check every state-using command makes before it runs: an invalid TF_WORKSPACE is
terraform's error, printed as the command prints errors (the cli.Ui-based commands in red
through `Ui.Error`, the others as diagnostics). Kept apart from `workspace`'s subcommands so
that commands without state (`version`, `fmt`, `-help`) import none of the state machinery."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from engine.diags import Diagnostic

if TYPE_CHECKING:
    from engine.cli.meta import Meta

#: command -> whether it prints errors the cli.Ui way (True) or as diagnostics (False)
_STATE_COMMANDS: dict[str, bool] = {
    "plan": False, "apply": False, "destroy": False, "refresh": False, "show": False,
    "validate": False, "output": False, "console": True, "import": True, "taint": True,
    "untaint": True, "state": True, "graph": True, "providers": True, "force-unlock": True,
}


def legacy_errors(meta: Meta, diags: Iterable[Diagnostic]) -> None:
    """Error diagnostics as terraform's cli.Ui-based commands print them: each rendered
    diagnostic passed through `Ui.Error` (in red, when colour is on, then a newline)."""
    ui = meta.ui
    for diag in diags:
        if ui.color:
            ui.stderr.write("\x1b[31m")
        ui.diagnostics([diag])
        ui.err("\x1b[0m\x1b[0m" if ui.color else "")


def guard_workspace(meta: Meta, command: str) -> int | None:
    """Exit code 1 (after terraform's error) when `command` uses state and TF_WORKSPACE
    names an invalid workspace; None when the command may run."""
    legacy = _STATE_COMMANDS.get(command)
    if legacy is None:
        return None
    _, diags = meta.workspace()
    if not diags.has_errors:
        return None
    if legacy:
        legacy_errors(meta, diags)
    else:
        meta.ui.diagnostics(diags)
    return 1
