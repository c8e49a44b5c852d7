"""`workspace new|select|list|show|delete`: terraform's workspace commands on the configured backend.

The layout and the selection rules are engine.backend.workspaces'. Texts, streams and exit
codes are terraform 1.11's (internal/command/workspace_*.go):

- `new NAME [-state=FILE] [-lock=false] [-lock-timeout=D]` creates the workspace's
  directory, selects it and, with `-state`, copies that state file in (new lineage, under
  the workspace's lock); an existing name, an invalid name or a `TF_WORKSPACE` naming
  another workspace is refused.
- `select NAME [-or-create]` selects an existing workspace (or creates it); refused while
  `TF_WORKSPACE` is set.
- `list` prints every workspace, `*` before the selected one; `show` prints its name.
- `delete NAME [-force] [-lock=false] [-lock-timeout=D]` refuses the selected workspace and,
  without `-force`, one whose state tracks resource instances ("Workspace is not empty").

`engine.cli.workspace_guard.guard_workspace` is the check every state-using command makes first: an invalid
`TF_WORKSPACE` is terraform's "Invalid workspace name set using TF_WORKSPACE" and exit 1.
"""

from __future__ import annotations

from engine.backend import workspaces as ws
from engine.cli.args import FlagError, FlagSet, parse_duration
from engine.cli.meta import Meta
from engine.cli.workspace_guard import legacy_errors as _legacy_errors
from engine.diags import error
from engine.states.lock import acquire, new_lock_info, release
from engine.states.statefile import read_state

USAGE = """Usage: groundplan [global options] workspace

  new, list, show, select and delete groundplan workspaces.

Subcommands:
    delete    Delete a workspace
    list      List Workspaces
    new       Create a new workspace
    select    Select a workspace
    show      Show the name of the current workspace"""

NEW_HELP = """Usage: groundplan [global options] workspace new [OPTIONS] NAME

  Create a new groundplan workspace.

Options:

    -lock=false         Don't hold a state lock during the operation. This is
                        dangerous if others might concurrently run commands
                        against the same workspace.

    -lock-timeout=0s    Duration to retry a state lock.

    -state=path         Copy an existing state file into the new workspace."""

SELECT_HELP = """Usage: groundplan [global options] workspace select NAME

  Select a different groundplan workspace.

Options:

    -or-create=false    Create the groundplan workspace if it doesn't exist."""

DELETE_HELP = """Usage: groundplan [global options] workspace delete [OPTIONS] NAME

  Delete a groundplan workspace


Options:

  -force             Remove a workspace even if it is managing resources.
                     groundplan can no longer track or manage the workspace's
                     infrastructure.

  -lock=false        Don't hold a state lock during the operation. This is
                     dangerous if others might concurrently run commands
                     against the same workspace.

  -lock-timeout=0s   Duration to retry a state lock."""

LIST_HELP = """Usage: groundplan [global options] workspace list

  List groundplan workspaces."""

SHOW_HELP = """Usage: groundplan [global options] workspace show

  Show the name of the current workspace."""

EXISTS = 'Workspace "{}" already exists'
DOES_NOT_EXIST = (
    '\nWorkspace "{}" doesn\'t exist.\n\n'
    'You can create this workspace with the "new" subcommand \n'
    'or include the "-or-create" flag with the "select" subcommand.'
)
CHANGED = '[reset][green]Switched to workspace "{}".'
CREATED = (
    '[reset][green][bold]Created and switched to workspace "{}"![reset][green]\n\n'
    "You're now on a new, empty workspace. Workspaces isolate their state,\n"
    'so if you run "groundplan plan" groundplan will not see any existing state\n'
    "for this configuration."
)
DELETED = '[reset][green]Deleted workspace "{}"!'
WARN_NOT_EMPTY = (
    '[reset][yellow]WARNING: "{}" was non-empty.\n'
    "The resources managed by the deleted workspace may still exist,\n"
    "but are no longer manageable by groundplan since the state has\n"
    "been deleted.\n"
)
DEL_CURRENT = (
    'Workspace "{}" is your active workspace.\n\n'
    "You cannot delete the currently active workspace. Please switch\n"
    "to another workspace and try again."
)
INVALID_NAME = (
    '\nThe workspace name "{}" is not allowed. The name must contain only URL safe\n'
    "characters, and no path separators.\n"
)
OVERRIDDEN_NOTE = (
    "\n\nThe active workspace is being overridden using the TF_WORKSPACE environment\n"
    "variable.\n"
)
OVERRIDDEN_SELECT = (
    "\nThe selected workspace is currently overridden using the TF_WORKSPACE\n"
    "environment variable.\n\n"
    "To select a new workspace, either update this environment variable or unset\n"
    "it and then run this command again.\n"
)
OVERRIDDEN_NEW = (
    "\nThe workspace is currently overridden using the TF_WORKSPACE environment\n"
    "variable. You cannot create a new workspace when using this setting.\n\n"
    "To create a new workspace, either unset this environment variable or update it\n"
    "to match the workspace name you are trying to create, and then run this command\n"
    "again.\n"
)
NOT_EMPTY_DETAIL = (
    'Workspace "{}" is currently tracking the following resource instances:{}\n\n'
    "Deleting this workspace would cause groundplan to lose track of any associated "
    "remote objects, which would then require you to delete them manually outside of "
    "groundplan. You should destroy these objects with groundplan before deleting the "
    "workspace.\n\n"
    "If you want to delete this workspace anyway, and have groundplan forget about these "
    "managed objects, use the -force option to disable this safety check."
)
TOO_MANY_ARGS = "Too many command line arguments. Did you mean to use -chdir?"

# Commands that read the selected workspace's state: terraform loads the backend first, so
# an invalid TF_WORKSPACE fails them before anything else. Those marked True print the
# error as terraform's older commands do (one more blank line).
def _red(meta: Meta, text: str) -> None:
    meta.ui.err(f"[red]{text}[reset]")


def _parse(meta: Meta, flags: FlagSet, args: list[str], help_text: str) -> list[str] | None:
    """Go's flag parsing: on a bad flag the help and the error go to stderr (None)."""
    try:
        return flags.parse(args)
    except FlagError as exc:
        _red(meta, help_text)
        _red(meta, f"Error parsing command-line flags: {exc}\n")
        return None


def _one_name(meta: Meta, rest: list[str], help_text: str) -> str | None:
    """The single NAME argument; otherwise terraform's error, then the help on stdout."""
    if len(rest) == 1:
        return rest[0]
    _red(meta, "Expected a single argument: NAME.\n")
    meta.ui.out(help_text)
    return None


def _names(meta: Meta) -> list[str] | None:
    """The configured backend's workspaces; None (after the error) when they cannot be
    listed."""
    names, diags = meta.backend().workspaces()
    if diags.has_errors:
        _legacy_errors(meta, diags.errors)
        return None
    return names


def _create(meta: Meta, name: str) -> bool:
    """Create workspace `name` in the backend (its directory, or its empty S3 object)."""
    _, diags = meta.backend().storage(name)
    if diags.has_errors:
        _legacy_errors(meta, diags.errors)
        return False
    return True


def workspace_help(args: list[str]) -> str:
    """What `workspace [SUBCOMMAND] ... -help` prints (stdout, exit 0)."""
    texts = {"new": NEW_HELP, "select": SELECT_HELP, "list": LIST_HELP, "show": SHOW_HELP,
             "delete": DELETE_HELP}
    return (texts.get(args[0], USAGE) if args else USAGE) + "\n"


def run_workspace(meta: Meta, args: list[str]) -> int:
    """Dispatch to the subcommand; without one, the usage (stdout) and exit 1."""
    subcommands = {"new": run_new, "select": run_select, "list": run_list,
                   "show": run_show, "delete": run_delete}
    if args and args[0] in subcommands:
        return subcommands[args[0]](meta, args[1:])
    meta.ui.out(USAGE)
    return 1


def run_show(meta: Meta, args: list[str]) -> int:
    rest = _parse(meta, FlagSet().boolean("no-color"), args, SHOW_HELP)
    if rest is None:
        return 1
    name, diags = meta.workspace()
    if diags.has_errors:
        _red(meta, f"Error selecting workspace: {diags.errors[0].summary}")
        return 1
    meta.ui.out(name)
    return 0


def run_list(meta: Meta, args: list[str]) -> int:
    rest = _parse(meta, FlagSet().boolean("no-color"), args, LIST_HELP)
    if rest is None:
        return 1
    if rest:
        _red(meta, TOO_MANY_ARGS)
        return 1
    _, diags = meta.workspace()
    if diags.has_errors:
        _legacy_errors(meta, diags)
        return 1
    names = _names(meta)
    if names is None:
        return 1
    sel = ws.selected(meta.cwd, meta.environ)
    meta.ui.out("".join(("* " if n == sel.name else "  ") + n + "\n" for n in names))
    if sel.overridden:
        meta.ui.out(OVERRIDDEN_NOTE)
    return 0


def run_select(meta: Meta, args: list[str]) -> int:
    flags = FlagSet().boolean("or-create").boolean("no-color")
    rest = _parse(meta, flags, args, SELECT_HELP)
    if rest is None:
        return 1
    name = _one_name(meta, rest, SELECT_HELP)
    if name is None:
        return 1
    sel = ws.selected(meta.cwd, meta.environ)
    if sel.overridden:
        _red(meta, OVERRIDDEN_SELECT)
        return 1
    if not ws.valid_name(name):
        _red(meta, INVALID_NAME.format(name))
        return 1
    names = _names(meta)
    if names is None:
        return 1
    if name == sel.name:
        return 0
    created = False
    if name not in names:
        if not flags.get("or-create"):
            _red(meta, DOES_NOT_EXIST.format(name))
            return 1
        if not _create(meta, name):
            return 1
        created = True
    err = ws.select(meta.cwd, meta.environ, name)
    if err is not None:
        _red(meta, err)
        return 1
    meta.ui.out((CREATED if created else CHANGED).format(name))
    return 0


def run_new(meta: Meta, args: list[str]) -> int:
    flags = (FlagSet().boolean("lock", True).text("lock-timeout", "0s").text("state")
             .boolean("no-color"))
    rest = _parse(meta, flags, args, NEW_HELP)
    if rest is None:
        return 1
    timeout = _lock_timeout(meta, flags, NEW_HELP)
    if timeout is None:
        return 1
    name = _one_name(meta, rest, NEW_HELP)
    if name is None:
        return 1
    if not ws.valid_name(name):
        _red(meta, INVALID_NAME.format(name))
        return 1
    sel = ws.selected(meta.cwd, meta.environ)
    if sel.overridden and sel.name != name:
        _red(meta, OVERRIDDEN_NEW)
        return 1
    names = _names(meta)
    if names is None:
        return 1
    if name in names:
        _red(meta, EXISTS.format(name))
        return 1
    if not _create(meta, name):
        return 1
    err = ws.select(meta.cwd, meta.environ, name)
    if err is not None:
        _red(meta, f"Error selecting new workspace: {err}")
        return 1
    meta.ui.out(CREATED.format(name))
    source = str(flags.get("state"))
    if not source:
        return 0
    return _copy_state(meta, name, source, bool(flags.get("lock")), timeout)


def _lock_timeout(meta: Meta, flags: FlagSet, help_text: str) -> float | None:
    """-lock-timeout in seconds; Go's flag error (after the help, on stderr) when invalid."""
    text = str(flags.get("lock-timeout"))
    try:
        return parse_duration(text)
    except FlagError:
        _red(meta, help_text)
        _red(meta, "Error parsing command-line flags: invalid value "
                   f'"{text}" for flag -lock-timeout: parse error\n')
        return None


def _copy_state(meta: Meta, name: str, source: str, lock: bool, timeout: float) -> int:
    """`new -state=FILE`: write FILE's state into the new workspace under its lock."""

    backend = meta.backend()
    locker = backend.locker(name) if lock else None
    lock_id = ""
    if locker is not None:
        lock_id, diags = acquire(locker, new_lock_info("workspace-new"), timeout)
        if diags.has_errors:
            _legacy_errors(meta, diags)
            return 1
    code = 0
    try:
        with open(source, "rb") as f:
            data = f.read()
    except OSError as exc:
        _red(meta, f"open {source}: {(exc.strerror or str(exc)).lower()}")
        code = 1
    else:
        sf, rdiags = read_state(data)
        if sf is None or rdiags.has_errors:
            _legacy_errors(meta, rdiags)
            code = 1
        else:
            storage, wdiags = backend.storage(name)
            if storage is not None:
                _, wdiags = storage.write(sf.state)
            if wdiags.has_errors:
                _legacy_errors(meta, wdiags)
                code = 1
    if locker is not None:
        udiags = release(locker, lock_id)
        if udiags.has_errors:
            _legacy_errors(meta, udiags)
    return code


def run_delete(meta: Meta, args: list[str]) -> int:
    flags = (FlagSet().boolean("force").boolean("lock", True).text("lock-timeout", "0s")
             .boolean("no-color"))
    rest = _parse(meta, flags, args, DELETE_HELP)
    if rest is None:
        return 1
    timeout = _lock_timeout(meta, flags, DELETE_HELP)
    if timeout is None:
        return 1
    name = _one_name(meta, rest, DELETE_HELP)
    if name is None:
        return 1
    current, diags = meta.workspace()
    if diags.has_errors:  # terraform loads the backend (which selects it) first
        _legacy_errors(meta, diags)
        return 1
    names = _names(meta)
    if names is None:
        return 1
    if name not in names:
        _red(meta, DOES_NOT_EXIST.format(name).strip())
        return 1
    if name == current:
        _red(meta, DEL_CURRENT.format(name))
        return 1
    instances, code = _tracked_instances(meta, name, flags, timeout)
    if code:
        return code
    if instances and not flags.get("force"):
        listing = "".join(f"\n  - {i}" for i in instances)
        _legacy_errors(meta,
            [error("Workspace is not empty", NOT_EMPTY_DETAIL.format(name, listing))])
        return 1
    ddiags = meta.backend().delete_workspace(name, bool(flags.get("force")))
    if ddiags.has_errors:
        from engine.backend import LocalBackend

        if isinstance(meta.backend(), LocalBackend):
            _red(meta, ddiags.errors[0].detail)
        else:
            _legacy_errors(meta, ddiags.errors)
        return 1
    meta.ui.out(DELETED.format(name))
    if instances:
        meta.ui.out(WARN_NOT_EMPTY.format(name))
    return 0


def _tracked_instances(meta: Meta, name: str, flags: FlagSet,
                       timeout: float) -> tuple[list[str], int]:
    """The resource instance objects workspace `name`'s state tracks (deposed ones named
    so), read under its lock unless -lock=false; exit code 1 when it cannot be read."""

    backend = meta.backend()
    storage, odiags = backend.storage(name)
    if storage is None:
        _legacy_errors(meta, odiags.errors)
        return [], 1
    locker = backend.locker(name) if flags.get("lock") else None
    lock_id = ""
    if locker is not None:
        lock_id, diags = acquire(locker, new_lock_info("workspace-delete"), timeout)
        if diags.has_errors:
            _legacy_errors(meta, diags)
            return [], 1
    try:
        sf, rdiags = storage.read()
    finally:
        if locker is not None:
            release(locker, lock_id)
    if rdiags.has_errors:
        _legacy_errors(meta, rdiags)
        return [], 1
    if sf is None:
        return [], 0
    return ws.tracked_objects(sf.state), 0
