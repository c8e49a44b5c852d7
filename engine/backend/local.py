"""The local backend: `terraform.tfstate` beside the configuration, one directory per
non-default workspace under `terraform.tfstate.d/`, locked with an fcntl lock and an
`.terraform.tfstate.lock.info` file, as terraform's local backend keeps them."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.backend.base import DEFAULT_OPTIONS, StateOptions
from engine.backend.workspaces import DEFAULT_WORKSPACE, LocalWorkspaces
from engine.diags import Diagnostics, error
from engine.states.encryption import StateEncryption
from engine.states.local import LocalState
from engine.states.lock import FilesystemLocker, Locker
from engine.states.manager import StateManager


@dataclass
class LocalBackend:
    """The local backend rooted at `root` (the working directory).

    `path` overrides the default workspace's state file (`-state=FILE`, the `path` argument
    of `backend "local"`); `encryption` wraps every state payload it reads and writes."""

    root: str
    path: str | None = None
    encryption: StateEncryption | None = None
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
        """The state file of `workspace` (the directory is not created)."""
        if self.path and workspace in ("", DEFAULT_WORKSPACE):
            return self.path
        return self.layout.state_path(workspace)

    def storage(self, workspace: str) -> tuple[LocalState | None, Diagnostics]:
        """Workspace `workspace`'s state file; opening a workspace other than `default`
        creates its directory, as terraform's local backend does."""
        diags = Diagnostics()
        problem = self.layout.ensure(workspace or DEFAULT_WORKSPACE)
        if problem is not None:
            diags.append(error("Failed to create workspace directory", problem))
            return None, diags
        return LocalState(self.state_path(workspace), encryption=self.encryption), diags

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
