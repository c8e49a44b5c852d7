"""`state mv [options] SOURCE DESTINATION`: move a module, a resource or an instance.

As terraform 1.11's `state mv`:

- a module moves with every module nested in it (each is one moved object); the
  destination module must not exist yet;
- a whole resource (a source without a key whose resource has `count`/`for_each`) moves to
  a whole resource address that is free; a resource without `count`/`for_each` is moved as
  its single instance, so `a.b` can become `a.c[1]`;
- an instance moves to a free instance address (a resource address means its key-less
  instance), creating the destination resource with the source's provider when needed;
- mode and type must not change; whatever depends on a moved object forgets its recorded
  dependencies (the next apply records them again).

`-dry-run` prints what would move and changes nothing. `-state`/`-state-out`/`-backup`/
`-backup-out` are terraform's legacy local-file options: with `-state-out` the objects move
into another state file, both are locked, and each gets its own backup. Every change takes
the lock and writes the timestamped backup first (see `state_meta.open_state`).
"""

from __future__ import annotations

from engine.cli import state_help
from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.cli.state_meta import (
    LOADING_STATE,
    NO_STATE,
    PERSIST_FAILED,
    go_error,
    go_quote,
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
)
from engine.diags import Diagnostics, error
from engine.operations import state_edit
from engine.states.edit import copy_state_file
from engine.states.manager import StateManager
from engine.states.state import State, StateFile

MOVE_FAILED = (
    "Error moving state: {}\n\n"
    "Please ensure your addresses and state paths are valid. No\n"
    "state was persisted. Your existing states are untouched."
)


def run_state_mv(meta: Meta, args: list[str]) -> int:
    fs = lock_flags(FlagSet().boolean("dry-run").text("backup", "-").text("backup-out", "-"))
    fs.text("state").text("state-out").boolean("ignore-remote-version")
    rest = parse_flags(meta, fs, args)
    if rest is None:
        return 1
    if len(rest) != 2:
        return usage(meta, "Exactly two arguments expected.\n", state_help.MV_HELP)
    state_path, state_out = str(fs.get("state")), str(fs.get("state-out"))
    legacy = [f"-{name}" for name in ("backup", "backup-out")
              if fs.get(name) != "-" and not state_path]
    if legacy and meta.backend().type_name != "local":
        diags = Diagnostics()
        diags.append(error(
            f"Invalid command line options: {', '.join(legacy)}",
            "Command line options -backup and -backup-out are legacy options that operate on "
            "a local state file only. You must specify a local state file with the -state "
            "option or switch to the local backend."))
        show_diagnostics(meta, diags)
        return 1
    lock, timeout = bool(fs.get("lock")), lock_timeout(fs)
    held: list[StateManager] = []
    try:
        opened = open_state(meta, state_path, str(fs.get("backup")), lock)
        if opened.manager is None:
            ui_error(meta, LOADING_STATE.format(opened.problem))
            return 1
        mgr_from = opened.manager
        if not lock_state(meta, mgr_from, "state-mv", timeout):
            return 1
        held.append(mgr_from)
        sf_from, ok = read_state(meta, mgr_from, "Failed to refresh source state")
        if not ok:
            return 1
        if sf_from is None:
            ui_error(meta, NO_STATE)
            return 1
        sf_from = copy_state_file(sf_from)
        mgr_to, sf_to = mgr_from, sf_from
        if state_out:
            opened = open_state(meta, state_out, str(fs.get("backup-out")), lock)
            if opened.manager is None:
                ui_error(meta, LOADING_STATE.format(opened.problem))
                return 1
            mgr_to = opened.manager
            if not lock_state(meta, mgr_to, "state-mv", timeout):
                return 1
            held.append(mgr_to)
            found, ok = read_state(meta, mgr_to, "Failed to refresh destination state")
            if not ok:
                return 1
            sf_to = copy_state_file(found) if found is not None else StateFile(State())
        return _move(meta, rest, bool(fs.get("dry-run")), (mgr_from, sf_from), (mgr_to, sf_to))
    finally:
        for mgr in reversed(held):
            unlock_state(meta, mgr)


def _move(
    meta: Meta,
    args: list[str],
    dry_run: bool,
    source: tuple[StateManager, StateFile],
    dest: tuple[StateManager, StateFile],
) -> int:
    (mgr_from, sf_from), (mgr_to, sf_to) = source, dest
    result = state_edit.move(sf_from.state, sf_to.state, args[0], args[1], dry_run)
    prefix = "Would move" if dry_run else "Move"
    for obj, shown_to in result.moves:
        meta.ui.out(f"{prefix} {go_quote(obj)} to {go_quote(shown_to)}")
    if result.refused:
        ui_error(meta, MOVE_FAILED.format(result.refused))
        return 1
    if result.diagnostics.has_errors:
        show_diagnostics(meta, result.diagnostics)
        return 1
    moved = len(result.moves)
    if dry_run:
        if moved == 0:
            meta.ui.out("Would have moved nothing.")
        return 0
    for mgr, sf in ((mgr_to, sf_to),) if sf_to is sf_from else ((mgr_to, sf_to),
                                                                   (mgr_from, sf_from)):
        _, more = mgr.storage.write(sf.state)
        if more.has_errors:
            ui_error(meta, PERSIST_FAILED.format(go_error(more)))
            return 1
    meta.ui.out("No matching objects found." if moved == 0
                else f"Successfully moved {moved} object(s).")
    return 0
