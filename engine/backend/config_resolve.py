"""Which backend a command other than `init` uses, as terraform's Meta.Backend decides.

- No `backend` block and nothing recorded: the local backend in the working directory.
- A block, and `init` recorded the same one (type and cty hash of the block): the recorded
  configuration (the block merged with `-backend-config`) is configured and used.
- Otherwise terraform's "Backend initialization required" with the reason.
- A backend type this build does not implement is an error at its type label, never ignored.

Problems never raise: `resolve` returns an `UnusableBackend` whose every method returns the
diagnostics, so callers (`mgr, diags = meta.backend().state_manager(...)`) report them where
they would report any state problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.backend.base import DEFAULT_OPTIONS, Backend, StateOptions
from engine.backend.config import BackendConfig, decode_block, from_record
from engine.backend.config_record import initialization_required, read_record
from engine.backend.local import LocalBackend
from engine.backend.workspaces import data_dir
from engine.configs.terraform_block import Backend as BackendBlock
from engine.diags import Diagnostics, error
from engine.states.encryption import StateEncryption
from engine.states.lock import Locker
from engine.states.manager import StateManager, Storage


@dataclass
class UnusableBackend:
    """A backend that could not be configured; every call returns why."""

    diags: Diagnostics
    type_name: str = field(default="", init=True)

    def workspaces(self) -> tuple[list[str], Diagnostics]:
        return [], self.diags

    def delete_workspace(self, name: str, force: bool = False) -> Diagnostics:
        return self.diags

    def storage(self, workspace: str) -> tuple[Storage | None, Diagnostics]:
        return None, self.diags

    def locker(self, workspace: str) -> Locker | None:
        return None

    def state_manager(
        self, workspace: str, options: StateOptions = DEFAULT_OPTIONS
    ) -> tuple[StateManager | None, Diagnostics]:
        return None, self.diags


def configure(
    cfg: BackendConfig,
    cwd: str,
    environ: Mapping[str, str],
    encryption: StateEncryption | None = None,
) -> tuple[Backend | None, Diagnostics]:
    """A backend from an effective configuration (block + overrides, or the record)."""
    if cfg.type == "local":
        path = cfg.get("path")
        wsdir = cfg.get("workspace_dir")
        diags = Diagnostics()
        if path == "":
            diags.append(error("Invalid local state file path",
                               'The "path" attribute value must not be empty.'))
        if wsdir == "":
            diags.append(error("Invalid local workspace directory path",
                               'The "workspace_dir" attribute value must not be empty.'))
        if diags.has_errors:
            return None, diags
        return LocalBackend(cwd, path=str(path) if path else None, encryption=encryption), diags
    if cfg.type == "s3":
        from engine.backend.s3 import S3Backend

        return S3Backend.configure(cfg, environ, data_dir(cwd, environ), encryption)
    return None, Diagnostics([error("Unsupported backend type",
                                    f'groundplan does not implement the "{cfg.type}" backend.')])


def resolve(
    block: BackendBlock | None,
    cwd: str,
    environ: Mapping[str, str],
    encryption: StateEncryption | None = None,
) -> Backend:
    """The working directory's backend (see the module docstring)."""
    diags = Diagnostics()
    cfg: BackendConfig | None = None
    if block is not None:
        cfg, more = decode_block(block)
        diags.extend(more)
        if cfg is None:
            return UnusableBackend(diags)
    record, more = read_record(cwd, environ)
    diags.extend(more)
    if diags.has_errors:
        return UnusableBackend(diags)
    more = initialization_required(cfg, cfg.hash if cfg is not None else 0, record)
    if more.has_errors:
        return UnusableBackend(more)
    if record is None or cfg is None:
        return LocalBackend(cwd, encryption=encryption)
    effective, problem = from_record(record.type, record.config)
    if effective is None:
        return UnusableBackend(Diagnostics([error(
            "Failed to load state", f"The recorded backend configuration is invalid: {problem}")]))
    effective.decl_range = cfg.decl_range
    backend, more = configure(effective, cwd, environ, encryption)
    if backend is None:
        return UnusableBackend(more)
    return backend


@dataclass
class FailedStorage:
    """A storage standing for one that could not be opened: reads and writes return why."""

    diags: Diagnostics
    path: str = ""

    def read(self) -> tuple[None, Diagnostics]:
        return None, self.diags

    def write(self, state: object) -> tuple[None, Diagnostics]:
        return None, self.diags
