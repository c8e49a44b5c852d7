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

from engine.addrs import AbsResource, AbsResourceInstance, ModuleInstance, ResourceMode
from engine.cli import state_help
from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.cli.state_addrs import Target, parse_target_str
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
from engine.states import edit
from engine.states.edit import copy_state_file
from engine.states.manager import StateManager
from engine.states.state import State, StateFile

MOVE_FAILED = (
    "Error moving state: {}\n\n"
    "Please ensure your addresses and state paths are valid. No\n"
    "state was persisted. Your existing states are untouched."
)
_INVALID_SOURCE = "Invalid source address"
_INVALID_TARGET = "Invalid target address"


class _Refused(Exception):
    """A move that cannot be made; `diags` or `text` say why (nothing is written)."""

    def __init__(self, diags: Diagnostics | None = None, text: str = "") -> None:
        super().__init__(text)
        self.diags = diags
        self.text = text


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
    diags = Diagnostics()
    src, more = parse_target_str(args[0])
    diags.extend(more)
    dst, more = parse_target_str(args[1])
    diags.extend(more)
    if src is None or dst is None or diags.has_errors:
        show_diagnostics(meta, diags)
        return 1
    prefix = "Would move" if dry_run else "Move"
    objects = _source_objects(sf_from.state, src)
    if not objects:
        diags.append(error(_INVALID_SOURCE, f"Cannot move {src}: does not match anything in "
                                            "the current state."))
        show_diagnostics(meta, diags)
        return 1
    moved = 0
    try:
        for obj in objects:
            shown_to = _move_one(sf_from.state, sf_to.state, src, obj, dst, args[1], dry_run)
            moved += 1
            meta.ui.out(f"{prefix} {go_quote(str(obj))} to {go_quote(shown_to)}")
            edit.clear_dependencies(sf_to.state, obj)
    except _Refused as refused:
        if refused.diags is not None:
            show_diagnostics(meta, refused.diags)
        else:
            ui_error(meta, MOVE_FAILED.format(refused.text))
        return 1
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


def _source_objects(state: State, matched: Target) -> list[Target]:
    """terraform's sourceObjectAddrs: a module and the modules nested in it; a resource
    without count/for_each as its single instance; anything else as given."""
    if isinstance(matched, ModuleInstance):
        n = len(matched.steps)
        return [m for m in edit.module_instances(state)
                if len(m.steps) >= n and n and ModuleInstance(m.steps[:n]) == matched]
    if isinstance(matched, AbsResource):
        rs = edit.find_resource(state, matched)
        if rs is None:
            return []
        if edit.find_instance(state, matched.instance(None)) is not None:
            return [matched.instance(None)]
        return [matched]
    return [matched]


def _move_one(
    state_from: State, state_to: State, search: Target, obj: Target, dst: Target,
    dst_text: str, dry_run: bool,
) -> str:
    """Move one object (unless `dry_run`); the destination as the move message names it."""
    if isinstance(obj, ModuleInstance):
        return _move_module(state_from, state_to, search, obj, dst, dry_run)
    if isinstance(obj, AbsResource):
        return _move_resource(state_from, state_to, obj, dst, dry_run)
    _move_instance(state_from, state_to, obj, dst, dry_run)
    return dst_text


def _refuse(summary: str, detail: str) -> _Refused:
    diags = Diagnostics()
    diags.append(error(summary, detail))
    return _Refused(diags)


def _move_module(
    state_from: State, state_to: State, search: Target, obj: ModuleInstance, dst: Target,
    dry_run: bool,
) -> str:
    if not isinstance(dst, ModuleInstance):
        raise _refuse(_INVALID_TARGET,
                      f"Cannot move {obj} to {dst}: the target must also be a module.")
    assert isinstance(search, ModuleInstance)
    to = ModuleInstance(dst.steps + obj.steps[len(search.steps):])
    if edit.has_module(state_to, to):
        raise _Refused(text="destination module already exists")
    if not dry_run:
        edit.put_module(state_to, to, edit.take_module(state_from, obj))
    return str(to)


def _validate(addr_from: AbsResource, addr_to: AbsResource) -> Diagnostics:
    """terraform's validateResourceMove: the mode and the type must stay."""
    diags = Diagnostics()
    invalid = "Invalid state move request"
    if addr_from.resource.mode is not addr_to.resource.mode:
        kind = "managed" if addr_from.resource.mode is ResourceMode.MANAGED else "data"
        diags.append(error(invalid, f"Cannot move {addr_from} to {addr_to}: a {kind} resource "
                                    f"can be moved only to another {kind} resource address."))
    if addr_from.resource.type != addr_to.resource.type:
        diags.append(error(invalid, f"Cannot move {addr_from} to {addr_to}: resource types "
                                    "don't match."))
    return diags


def _move_resource(
    state_from: State, state_to: State, obj: AbsResource, dst: Target, dry_run: bool
) -> str:
    if not isinstance(dst, AbsResource):
        raise _refuse(_INVALID_TARGET,
                      f"Cannot move {obj} to {dst}: the source is a whole resource (not a "
                      "resource instance) so the target must also be a whole resource.")
    diags = _validate(obj, dst)
    if edit.find_resource(state_to, dst) is not None:
        diags.append(error(_INVALID_TARGET, f"Cannot move to {dst}: there is already a "
                                            "resource at that address in the current state."))
    if edit.find_resource(state_from, obj) is None:
        diags.append(error(_INVALID_SOURCE, f"The current state does not contain {obj}."))
    if diags.has_errors:
        raise _Refused(diags)
    if not dry_run:
        rs = edit.take_resource(state_from, obj)
        assert rs is not None
        edit.put_resource(state_to, dst, rs)
    return str(dst)


def _move_instance(
    state_from: State, state_to: State, obj: AbsResourceInstance, dst: Target, dry_run: bool
) -> None:
    if isinstance(dst, AbsResource):
        dst = dst.instance(None)
    if not isinstance(dst, AbsResourceInstance):
        raise _refuse(_INVALID_TARGET, f"Cannot move {obj} to {dst}: the target must also be "
                                       "a resource instance.")
    diags = _validate(obj.abs_resource, dst.abs_resource)
    if edit.find_instance(state_to, dst) is not None:
        diags.append(error(_INVALID_TARGET, f"Cannot move to {dst}: there is already a "
                                            "resource instance at that address in the current "
                                            "state."))
    inst = edit.find_instance(state_from, obj)
    if inst is None:
        diags.append(error(_INVALID_SOURCE, f"The current state does not contain {obj}."))
    if diags.has_errors:
        raise _Refused(diags)
    if dry_run:
        return
    assert inst is not None
    rs = edit.find_resource(state_from, obj.abs_resource)
    provider = rs.provider if rs is not None else ""
    edit.forget_instance(state_from, obj)
    edit.put_instance(state_to, dst, inst, provider)
