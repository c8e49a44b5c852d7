"""The `Backend` interface every state location implements.

The operations layer and the state commands talk to a backend only through this protocol,
so a remote backend slots in beside the local one without a branch in the CLI:

    backend = LocalBackend(cwd)
    mgr, diags = backend.state_manager("default", StateOptions(lock=True))
    with mgr.locked("OperationTypeApply", timeout) as more: ...

A backend is dumb about state contents: it provides `Storage` (read/write a snapshot under the
persistence policy) and `Locker` (lock/unlock/force-unlock) for a workspace and leaves
snapshots, journals and persistence timing to the `StateManager`. Payload encryption
(`engine.encryption.StateEncryption`) is given to a backend when it is built and wraps the bytes
its storage reads and writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from engine.diags import Diagnostics
from engine.states.lock import Locker
from engine.states.manager import StateManager, Storage


@dataclass(frozen=True)
class StateOptions:
    """How an operation wants its state: locked unless `lock` is false (`-lock=false`)."""

    lock: bool = True


DEFAULT_OPTIONS = StateOptions()


class Backend(Protocol):
    """A configured backend (see the module docstring)."""

    #: The backend type as written in `backend "TYPE"` ("local", "s3").
    type_name: str

    def workspaces(self) -> tuple[list[str], Diagnostics]:
        """Every workspace, `default` first when it exists, then the others by name."""
        ...

    def delete_workspace(self, name: str, force: bool = False) -> Diagnostics:
        """Remove workspace `name` and its state; `default` cannot be deleted."""
        ...

    def storage(self, workspace: str) -> tuple[Storage | None, Diagnostics]:
        """The storage of workspace `workspace` (for reading without a lock)."""
        ...

    def locker(self, workspace: str) -> Locker | None:
        """The lock of workspace `workspace`'s state (None if the backend cannot lock)."""
        ...

    def state_manager(
        self, workspace: str, options: StateOptions = DEFAULT_OPTIONS
    ) -> tuple[StateManager | None, Diagnostics]:
        """A state manager for `workspace`; its locker is None when `options.lock` is off."""
        ...
