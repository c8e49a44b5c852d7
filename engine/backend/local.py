"""The local backend: `terraform.tfstate` beside the configuration, one directory per
non-default workspace under `terraform.tfstate.d/`, locked with an fcntl lock and an
`.terraform.tfstate.lock.info` file, as terraform's local backend keeps them."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from engine.backend.base import DEFAULT_OPTIONS, StateOptions
from engine.backend.workspaces import DEFAULT_WORKSPACE, LocalWorkspaces
from engine.diags import Diagnostics, error
from engine.states.encryption import StateEncryption
from engine.states.local import LocalState
from engine.states.lock import FilesystemLocker, Locker
from engine.states.manager import StateManager

BACKUP_EXTENSION = ".backup"


@dataclass(frozen=True)
class StateOverrides:
    """terraform's legacy local-backend options: `-state=PATH` (the state read, and written
    unless `state_out`), `-state-out=PATH`, `-backup=PATH` ("-": none). "" = not given."""

    state: str = ""
    state_out: str = ""
    backup: str = ""

    def __bool__(self) -> bool:
        return bool(self.state or self.state_out or self.backup)


def _ensure_parent(path: str) -> str | None:
    """Create `path`'s directory as terraform does for its state output; why not, or None."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        return f"{directory}: {exc.strerror or exc}"
    return None


@dataclass
class LocalBackend:
    """The local backend rooted at `root` (the working directory).

    `path` overrides the default workspace's state file (the `path` argument of `backend
    "local"`); `encryption` wraps every state payload it reads and writes. `overrides` are
    the legacy command-line options `-state`, `-state-out` and `-backup` (see
    `StateOverrides`): they apply to whichever workspace is selected, as terraform's do."""

    root: str
    path: str | None = None
    encryption: StateEncryption | None = None
    overrides: StateOverrides | None = None
    type_name: str = field(default="local", init=False)

    @property
    def layout(self) -> LocalWorkspaces:
        return LocalWorkspaces(self.root)

    def workspaces(self) -> tuple[list[str], Diagnostics]:
        names, problem = self.layout.names()
        diags = Diagnostics()
        if problem is not None:
            diags.append(error("Failed to get configured named states", problem))
        return names, diags

    def delete_workspace(self, name: str, force: bool = False) -> Diagnostics:
        problem = self.layout.delete(name)
        diags = Diagnostics()
        if problem is not None:
            diags.append(error("Error deleting workspace", problem))
        return diags

    def state_path(self, workspace: str) -> str:
        """The state file `workspace` is written to (the directory is not created)."""
        return self.state_paths(workspace)[1]

    def state_paths(self, workspace: str) -> tuple[str, str, str]:
        """(read from, write to, backup) for `workspace`, as terraform's local backend
        resolves them: `-state` else the workspace's file; `-state-out` else the file read;
        `-backup` else the written file + ".backup" ("" when `-backup=-`: no backup)."""
        o = self.overrides or StateOverrides()
        state_in = o.state
        if not state_in:
            if self.path and workspace in ("", DEFAULT_WORKSPACE):
                state_in = self.path
            else:
                state_in = self.layout.state_path(workspace)
        state_out = o.state_out or state_in
        backup = o.backup or state_out + BACKUP_EXTENSION
        return state_in, state_out, "" if o.backup == "-" else backup

    def storage(self, workspace: str) -> tuple[LocalState | None, Diagnostics]:
        """Workspace `workspace`'s state file; opening a workspace other than `default`
        creates its directory, as terraform's local backend does."""
        diags = Diagnostics()
        problem = self.layout.ensure(workspace or DEFAULT_WORKSPACE)
        if problem is not None:
            diags.append(error("Failed to create workspace directory", problem))
            return None, diags
        state_in, state_out, backup = self.state_paths(workspace)
        if self.overrides:
            problem = _ensure_parent(state_out)
            if problem is not None:
                diags.append(error("Failed to create state file directory", problem))
                return None, diags
        return LocalState(state_out, backup_path=backup, encryption=self.encryption,
                          read_path=state_in), diags

    def locker(self, workspace: str) -> Locker | None:
        return FilesystemLocker(self.state_path(workspace))

    def state_manager(
        self, workspace: str, options: StateOptions = DEFAULT_OPTIONS
    ) -> tuple[StateManager | None, Diagnostics]:
        storage, diags = self.storage(workspace)
        if storage is None:
            return None, diags
        locker = self.locker(workspace) if options.lock else None
        return StateManager(storage, locker), diags
