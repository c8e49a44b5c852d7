"""What the `state` subcommands share: terraform's flag handling, messages, and the state.

The subcommands print as terraform's older, `cli.Ui`-based commands do: a bad flag is
"Error parsing command-line flags: ..." (in red), a wrong argument count prints the message
and then the subcommand's help on stdout (exit 1), and plain errors go through `ui_error`.

`open_state` is terraform's `StateMeta.State()`: the state comes from `meta.backend()` for
the selected workspace (or from the file named by the legacy `-state` flag), and when its
storage is a local file the first change made writes a timestamped backup of the state as it
was, `<state file>.<unix seconds>.backup` (or `-backup=PATH`), as terraform's does. Nothing
here knows which backend it is: a remote backend's storage is used as it comes.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from engine.backend import StateOptions
from engine.cli.args import FlagError, FlagSet, parse_duration
from engine.cli.meta import Meta
from engine.diags import Diagnostic, Diagnostics, error
from engine.states.local import LocalState
from engine.states.lock import LOCK_ERROR_MESSAGE, FilesystemLocker
from engine.states.manager import StateManager
from engine.states.state import StateFile

NO_STATE = (
    "No state file was found!\n\n"
    "State management commands require a state file. Run this command\n"
    "in a directory where groundplan has been run or use the -state flag\n"
    "to point the command to a specific state location."
)
LOADING_STATE = (
    "Error loading the state: {}\n\n"
    "Please ensure that your groundplan state exists and that you've\n"
    "configured it properly. You can use the \"-state\" flag to point\n"
    "groundplan at another state file."
)
PERSIST_FAILED = (
    "Error saving the state: {}\n\n"
    "The state was not saved. No items were removed from the persisted\n"
    "state. No backup was created since no modification occurred. Please\n"
    "resolve the issue above and try again."
)
BACKUP_EXTENSION = ".backup"


def go_error(diags: Iterable[Diagnostic]) -> str:
    """Go's error text of terraform's diagnostics ("Summary: detail", or "N problems:" and a
    bulleted list), as the state commands print it after their own prefix."""
    errs = [f"{d.summary}: {d.detail}" if d.detail else d.summary for d in diags if d.is_error]
    if len(errs) == 1:
        return errs[0]
    return f"{len(errs)} problems:\n\n" + "\n".join(f"- {e}" for e in errs)


_GO_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
               "\t": "\\t", "\v": "\\v", '"': '\\"', "\\": "\\\\"}


def go_quote(text: str) -> str:
    """Go's `%q` (strconv.Quote) of `text`: printable characters kept, the rest escaped."""
    out = ['"']
    for ch in text:
        if ch in _GO_ESCAPES:
            out.append(_GO_ESCAPES[ch])
        elif ch.isprintable():
            out.append(ch)
        elif ord(ch) < 0x10000:
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 0x80 else f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    out.append('"')
    return "".join(out)


def ui_error(meta: Meta, text: str) -> None:
    """terraform's `Ui.Error`: the text in red when colour is on, then a newline."""
    meta.ui.err(f"[red]{text}[reset]" if meta.ui.color else text)


def parse_flags(
    meta: Meta, flags: FlagSet, args: list[str], help_text: str | None = None
) -> list[str] | None:
    """Parse `args`; on a bad flag print terraform's "Error parsing command-line flags" (and
    `help_text`, for the subcommands that answer with their help) and return None.
    Durations (`-lock-timeout`) are checked as Go's flag package checks them."""
    if "no-color" not in flags.flags:
        flags.boolean("no-color")
    try:
        rest = flags.parse(args)
        if "lock-timeout" in flags.flags:
            try:
                parse_duration(str(flags.get("lock-timeout")))
            except FlagError:
                raise FlagError(f'invalid value "{flags.get("lock-timeout")}" for flag '
                                "-lock-timeout: parse error") from None
    except FlagError as exc:
        if any(a in ("-no-color", "--no-color") for a in args):
            meta.ui.color = False
        ui_error(meta, f"Error parsing command-line flags: {exc}\n")
        if help_text is not None:
            meta.ui.raw(help_text)
        return None
    if flags.get("no-color"):
        meta.ui.color = False
    return rest


def usage(meta: Meta, message: str, help_text: str) -> int:
    """A wrong number of arguments: the message, then the help (`cli.RunResultHelp`)."""
    ui_error(meta, message)
    meta.ui.raw(help_text)
    return 1


def lock_flags(flags: FlagSet) -> FlagSet:
    """`-lock` and `-lock-timeout`, as every state-changing subcommand has them."""
    return flags.boolean("lock", True).text("lock-timeout", "0s")


def lock_timeout(flags: FlagSet) -> float:
    return parse_duration(str(flags.get("lock-timeout")))


@dataclass
class StateOpening:
    """The state manager of an opened state, or the error text that prevented it."""

    manager: StateManager | None
    problem: str = ""


def open_state(meta: Meta, state_path: str, backup_path: str, lock: bool) -> StateOpening:
    """terraform's StateMeta.State(): the state a state-changing subcommand works on.

    `state_path` (the legacy `-state`) names a local file used instead of the backend;
    `backup_path` "" or "-" means a timestamped backup beside the state file. `lock` false
    gives a manager without a locker (`-lock=false`)."""
    if state_path:
        storage = LocalState(state_path, encryption=meta.state_encryption())
        mgr = StateManager(storage, FilesystemLocker(state_path) if lock else None)
    else:
        workspace, diags = meta.workspace()
        if diags.has_errors:
            return StateOpening(None, go_error(diags))
        found, diags = meta.backend().state_manager(workspace, StateOptions(lock=lock))
        if found is None or diags.has_errors:
            return StateOpening(None, go_error(diags))
        mgr = found
    if isinstance(mgr.storage, LocalState):
        if backup_path in ("", "-"):
            backup_path = f"{mgr.storage.path}.{int(time.time())}{BACKUP_EXTENSION}"
        mgr.storage.backup_path = backup_path
    return StateOpening(mgr)


def read_state(meta: Meta, mgr: StateManager, failure: str) -> tuple[StateFile | None, bool]:
    """The state to work on; `(None, False)` after printing `failure` + the reason when it
    cannot be read, `(None, True)` when there is none."""
    sf, diags = mgr.read()
    if diags.has_errors:
        ui_error(meta, f"{failure}: {go_error(diags)}")
        return None, False
    return sf, True


def write_state(meta: Meta, mgr: StateManager, sf: StateFile) -> bool:
    """Persist `sf.state` under the persistence policy; terraform's "Error saving the state"
    when that fails."""
    _, diags = mgr.storage.write(sf.state)
    if diags.has_errors:
        ui_error(meta, PERSIST_FAILED.format(go_error(diags)))
        return False
    return True


def _diag_order(diag: Diagnostic) -> tuple[object, ...]:
    """tfdiags' sort order: warnings first, then sourceless ones, then by file and position
    (a stable sort keeps the rest as produced)."""
    rng = diag.subject
    if rng is None:
        return (diag.is_error, False)
    name = rng.filename
    return (diag.is_error, True, name.count("/"), name, rng.start.byte, rng.end.byte)


def show_diagnostics(meta: Meta, diags: Iterable[Diagnostic]) -> None:
    """terraform's Meta.showDiagnostics for the state commands: sorted, then printed through
    cli.Ui (see `Ui.legacy_diagnostics`)."""
    meta.ui.legacy_diagnostics(sorted(diags, key=_diag_order))


def lock_state(meta: Meta, mgr: StateManager, operation: str, timeout: float) -> bool:
    """Take the lock for `operation` ("state-mv", ...); terraform's diagnostics when not.

    terraform's local state reads the file while it locks it, so on a local file a state
    that cannot be read fails the lock ("Error acquiring the state lock" with the read
    errors), and the lock is released again."""
    diags = mgr.lock(operation, timeout)
    if not diags.has_errors and mgr.locker is not None and isinstance(mgr.storage, LocalState):
        read = mgr.read_ahead()
        if read.has_errors:
            diags.append(error("Error acquiring the state lock",
                               LOCK_ERROR_MESSAGE.format(go_error(read))))
            diags.extend(mgr.unlock())
    if diags.has_errors:
        show_diagnostics(meta, diags)
        return False
    return True


def unlock_state(meta: Meta, mgr: StateManager) -> None:
    diags: Diagnostics = mgr.unlock()
    if diags.has_errors:
        show_diagnostics(meta, diags)
