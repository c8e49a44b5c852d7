"""`state rm [options] ADDRESS...`: forget resource instances without destroying them.

As terraform 1.11's `state rm`: each address selects instances (a module with everything
nested in it, a whole resource, one instance); addresses that select nothing are not an
error as long as some address selects something. Each instance is printed ("Removed ADDR",
per address in terraform's order) and removed with its deposed objects; a resource left
without instances goes too. `-dry-run` prints "Would remove ADDR" and changes nothing.

The change takes the lock (`-lock`, `-lock-timeout`) and writes the timestamped backup
(or `-backup=PATH`) first; `-state=PATH` works on that file instead of the backend's state.
"""

from __future__ import annotations

from engine.cli import state_help
from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.cli.state_meta import (
    LOADING_STATE,
    NO_STATE,
    lock_flags,
    lock_state,
    lock_timeout,
    open_state,
    parse_flags,
    read_state,
    show_diagnostics,
    ui_error,
    unlock_state,
    usage,
    write_state,
)
from engine.diags import error
from engine.operations import state_edit
from engine.states.edit import copy_state_file


def run_state_rm(meta: Meta, args: list[str]) -> int:
    fs = lock_flags(FlagSet().boolean("dry-run").text("backup", "-").text("state"))
    fs.boolean("ignore-remote-version")
    rest = parse_flags(meta, fs, args)
    if rest is None:
        return 1
    if not rest:
        return usage(meta, "At least one address is required.\n", state_help.RM_HELP)
    opened = open_state(meta, str(fs.get("state")), str(fs.get("backup")), bool(fs.get("lock")))
    if opened.manager is None:
        ui_error(meta, LOADING_STATE.format(opened.problem))
        return 1
    mgr = opened.manager
    if not lock_state(meta, mgr, "state-rm", lock_timeout(fs)):
        return 1
    try:
        sf, ok = read_state(meta, mgr, "Failed to refresh state")
        if not ok:
            return 1
        if sf is None:
            ui_error(meta, NO_STATE)
            return 1
        sf = copy_state_file(sf)
        dry_run = bool(fs.get("dry-run"))
        result = state_edit.remove(sf.state, rest, dry_run)
        diags, selected = result.diagnostics, result.removed
        if diags.has_errors:
            show_diagnostics(meta, diags)
            return 1
        prefix = "Would remove " if dry_run else "Removed "
        for addr in selected:
            meta.ui.out(prefix + str(addr))
        if dry_run:
            if not selected:
                meta.ui.out("Would have removed nothing.")
            return 0
        if not write_state(meta, mgr, sf):
            return 1
        if not selected:
            diags.append(error(
                "Invalid target address",
                'No matching objects found. To view the available instances, use "groundplan '
                'state list". Please modify the address to reference a specific instance.'))
            show_diagnostics(meta, diags)
            return 1
        meta.ui.out(f"Successfully removed {len(selected)} resource instance(s).")
        return 0
    finally:
        unlock_state(meta, mgr)
