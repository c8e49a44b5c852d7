"""`state pull` and `state push [-force] PATH|-`: the whole state out to stdout, and back in.

`state pull` prints the selected workspace's state as terraform writes a state file (the
current terraform version recorded, its lineage and serial kept), and nothing when there is
none. `state push` replaces the workspace's state with a state file (`-` reads it from
stdin), keeping the pushed lineage and serial, as terraform 1.11 does:

- without `-force` it refuses a state of another lineage, an older serial, or the same serial
  with different contents ("cannot import state with ..."); an empty or missing state is
  always replaced;
- like terraform it then writes the state once more through the persistence policy, so a push
  whose contents differ from the state it replaces lands at the pushed serial + 1.

Push takes the lock; on the local backend the replaced state is saved as
`terraform.tfstate.backup` (terraform's local backend backup, not a timestamped one).
The state goes through `meta.backend()`; a backend's storage must be able to store a
snapshot with its own lineage and serial (`SnapshotWriter`).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from engine.backend import StateOptions
from engine.cli import state_help
from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.cli.state_meta import (
    go_error,
    lock_flags,
    lock_state,
    lock_timeout,
    parse_flags,
    show_diagnostics,
    ui_error,
    unlock_state,
    usage,
)
from engine.diags import Diagnostics
from engine.states.state import StateFile
from engine.states.statefile import read_state, states_equal, write_state


@runtime_checkable
class SnapshotWriter(Protocol):
    """Storage that can persist a snapshot with the lineage and serial it carries."""

    def write_file(self, sf: StateFile) -> tuple[StateFile | None, Diagnostics]: ...


def run_state_pull(meta: Meta, args: list[str]) -> int:
    if parse_flags(meta, FlagSet(), args) is None:
        return 1
    workspace, diags = meta.workspace()
    storage, more = meta.backend().storage(workspace)
    diags.extend(more)
    if storage is None or diags.has_errors:
        show_diagnostics(meta, diags)
        return 1
    sf, diags = storage.read()
    if diags.has_errors:
        ui_error(meta, f"Failed to refresh state: {go_error(diags)}")
        return 1
    if sf is not None:
        meta.ui.raw(write_state(StateFile(sf.state, sf.lineage, sf.serial)) + "\n")
    return 0


def check_valid_import(new: StateFile, existing: StateFile | None) -> str:
    """terraform's statemgr.CheckValidImport: why `new` may not replace `existing` without
    `-force`, or "" when it may."""
    if existing is None or existing.state.is_empty:
        return ""
    if not new.lineage or not existing.lineage:
        return ""
    if new.lineage != existing.lineage:
        return (f'cannot import state with lineage "{new.lineage}" over unrelated state with '
                f'lineage "{existing.lineage}"')
    if new.serial > existing.serial:
        return ""
    if new.serial < existing.serial:
        return (f"cannot import state with serial {new.serial} over newer state with serial "
                f"{existing.serial}")
    if states_equal(new.state, existing.state):
        return ""
    return (f"cannot overwrite existing state with serial {new.serial} with a different state "
            "that has the same serial")


def _read_source(meta: Meta, path: str) -> StateFile | None:
    """The state file to push (stdin for "-"); None after printing terraform's error."""
    if path == "-":
        stdin = meta.ui.stdin
        buffer = getattr(stdin, "buffer", None)
        data = buffer.read() if buffer is not None else stdin.read().encode("utf-8")
    else:
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError as exc:
            text = exc.strerror or str(exc)
            ui_error(meta, f"open {path}: {text[:1].lower()}{text[1:]}")
            return None
    if not data:
        ui_error(meta, f"Error reading source state \"{path}\": no state")
        return None
    sf, diags = read_state(data)
    if sf is None or diags.has_errors:
        ui_error(meta, f"Error reading source state \"{path}\": {go_error(diags)}")
        return None
    return sf


def run_state_push(meta: Meta, args: list[str]) -> int:
    fs = lock_flags(FlagSet().boolean("force").boolean("ignore-remote-version"))
    rest = parse_flags(meta, fs, args)
    if rest is None:
        return 1
    if len(rest) != 1:
        return usage(meta, "Exactly one argument expected.\n", state_help.PUSH_HELP)
    source = _read_source(meta, rest[0])
    if source is None:
        return 1
    workspace, diags = meta.workspace()
    mgr, more = meta.backend().state_manager(workspace, StateOptions(lock=bool(fs.get("lock"))))
    diags.extend(more)
    if mgr is None or diags.has_errors:
        ui_error(meta, f"Failed to load destination state: {go_error(diags)}")
        return 1
    if not lock_state(meta, mgr, "state-push", lock_timeout(fs)):
        return 1
    try:
        current, diags = mgr.read()
        if diags.has_errors:
            ui_error(meta, f"Failed to refresh destination state: {go_error(diags)}")
            return 1
        if not fs.get("force"):
            problem = check_valid_import(source, current)
            if problem:
                ui_error(meta, f"Failed to write state: {problem}")
                return 1
        storage = mgr.storage
        if not isinstance(storage, SnapshotWriter):
            ui_error(meta, "Failed to write state: this backend cannot store a state with the "
                           "lineage and serial it carries")
            return 1
        changed = current is not None and not states_equal(current.state, source.state)
        pushed = StateFile(source.state, source.lineage, source.serial + (1 if changed else 0))
        _, diags = storage.write_file(pushed)
        if diags.has_errors:
            ui_error(meta, f"Failed to write state: {go_error(diags)}")
            return 1
        return 0
    finally:
        unlock_state(meta, mgr)
