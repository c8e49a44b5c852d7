"""The S3 backend: the `Backend` interface over an S3 bucket (and a DynamoDB lock table).

    backend, diags = S3Backend.configure(config, environ, cwd)   # validated, credentials found
    names, diags = backend.workspaces()         # "default", then env:/<name>/<key> objects
    mgr, diags = backend.state_manager("dev", StateOptions(lock=True))

Workspace layout and listing are terraform's (`<key>` for default,
`<workspace_key_prefix>/<name>/<key>` otherwise, listed by prefix). As terraform does, opening
the state of a workspace that does not exist yet creates its (empty) state object under the
lock, so that it is listed. The journal of an apply on S3 lives in the data directory
(`.terraform/s3-journal/<bucket>/<state key>.journal`): it is this machine's record of what
this run was doing, not shared state.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.backend.base import DEFAULT_OPTIONS, StateOptions
from engine.backend.config import BackendConfig
from engine.backend.s3.client import S3Client, S3Error, make_session
from engine.backend.s3.dynamo import LockTable
from engine.backend.s3.locks import S3Locker
from engine.backend.s3.remote_state import RemoteState
from engine.backend.s3.settings import S3Settings, prepare
from engine.backend.workspaces import DEFAULT_WORKSPACE
from engine.diags import Diagnostics, error
from engine.states.encryption import StateEncryption
from engine.states.lock import acquire, new_lock_info, release
from engine.states.manager import StateManager
from engine.states.state import State


@dataclass
class S3Backend:
    """A configured S3 backend (see the module docstring)."""

    settings: S3Settings
    client: S3Client
    table: LockTable | None
    data_dir: str
    encryption: StateEncryption | None = None
    lock_options: dict[str, Any] = field(default_factory=dict)
    type_name: str = field(default="s3", init=False)

    @classmethod
    def configure(
        cls,
        cfg: BackendConfig,
        environ: Mapping[str, str],
        data_dir: str,
        encryption: StateEncryption | None = None,
    ) -> tuple[S3Backend | None, Diagnostics]:
        """Check `cfg` as terraform's PrepareConfig does and set up the clients."""
        diags = prepare(cfg, environ)
        if diags.has_errors:
            return None, diags
        settings = S3Settings.from_config(cfg, environ)
        try:
            session = make_session(settings)
        except Exception as exc:  # botocore's profile/credential file errors
            diags.append(error("Failed to configure the backend \"s3\"", str(exc)))
            return None, diags
        client = S3Client(settings, session)
        problem = client.check_credentials()
        if problem:
            summary, _, detail = problem.partition("\n\n")
            diags.append(error(summary, detail))
            return None, diags
        table = None
        if settings.dynamodb_table:
            creds = session.get_credentials()
            table = LockTable(settings, creds.get_frozen_credentials() if creds else None)
        return cls(settings, client, table, data_dir, encryption), diags

    # ------------------------------------------------------------------ workspaces
    def _workspace_of(self, key: str) -> str:
        """terraform's keyEnv: the workspace a listed key belongs to, or ""."""
        prefix, name = self.settings.workspace_key_prefix, self.settings.key
        if not prefix:
            parts = key.split("/", 1)
            return parts[0] if len(parts) > 1 and parts[1] == name else ""
        prefix += "/"
        if not key.startswith(prefix):
            return ""
        parts = key[len(prefix):].split("/", 1)
        if len(parts) < 2 or parts[1] != name:
            return ""
        return parts[0]

    def workspaces(self) -> tuple[list[str], Diagnostics]:
        diags = Diagnostics()
        prefix = self.settings.workspace_key_prefix
        try:
            keys = self.client.list_keys(prefix + "/" if prefix else "")
        except S3Error as exc:
            if exc.code == "AccessDenied" and prefix == "env:":
                return [DEFAULT_WORKSPACE], diags
            diags.append(error("Failed to get configured named states", str(exc)))
            return [], diags
        names = sorted({w for w in (self._workspace_of(k) for k in keys) if w})
        return [DEFAULT_WORKSPACE, *[n for n in names if n != DEFAULT_WORKSPACE]], diags

    def delete_workspace(self, name: str, force: bool = False) -> Diagnostics:
        diags = Diagnostics()
        if name in ("", DEFAULT_WORKSPACE):
            diags.append(error("Error deleting workspace", "can't delete default state"))
            return diags
        return self.remote_state(name).delete()

    # ------------------------------------------------------------------ state
    def remote_state(self, workspace: str) -> RemoteState:
        """The storage of `workspace`'s state object (nothing is read yet)."""
        ws = workspace or DEFAULT_WORKSPACE
        return RemoteState(self.client, self.settings.state_key(ws), table=self.table,
                           lock_id=self.settings.lock_id(ws), encryption=self.encryption)

    def locker(self, workspace: str) -> S3Locker | None:
        ws = workspace or DEFAULT_WORKSPACE
        lk = S3Locker(self.client, self.settings.state_key(ws),
                      use_lockfile=self.settings.use_lockfile, table=self.table,
                      **self.lock_options)
        return lk if lk.enabled else None

    def storage(self, workspace: str) -> tuple[RemoteState | None, Diagnostics]:
        """The workspace's state object, created empty (under the lock) when the workspace
        does not exist yet, as terraform's StateMgr does."""
        ws = workspace or DEFAULT_WORKSPACE
        storage = self.remote_state(ws)
        if ws == DEFAULT_WORKSPACE:
            return storage, Diagnostics()
        names, diags = self.workspaces()
        if diags.has_errors or ws in names:
            return (None if diags.has_errors else storage), diags
        locker = self.locker(ws)
        lock_id = ""
        if locker is not None:
            lock_id, more = acquire(locker, new_lock_info("init"), 0)
            if more.has_errors:
                more = Diagnostics([error("Failed to lock s3 state", d.detail) for d in more])
                return None, more
        sf, more = storage.read()
        diags.extend(more)
        if not diags.has_errors and sf is None:
            _, more = storage.write(State())
            diags.extend(more)
        if locker is not None:
            diags.extend(release(locker, lock_id))
        return (None if diags.has_errors else self.remote_state(ws)), diags

    def journal_file(self, workspace: str) -> str:
        key = self.settings.state_key(workspace or DEFAULT_WORKSPACE)
        safe = key.replace("..", "_")
        return os.path.join(self.data_dir, "s3-journal", self.settings.bucket, safe + ".journal")

    def state_manager(
        self, workspace: str, options: StateOptions = DEFAULT_OPTIONS
    ) -> tuple[StateManager | None, Diagnostics]:
        storage, diags = self.storage(workspace)
        if storage is None:
            return None, diags
        journal = self.journal_file(workspace)
        try:
            os.makedirs(os.path.dirname(journal), exist_ok=True)
        except OSError as exc:
            diags.append(error("Failed to create the journal directory", str(exc)))
            return None, diags
        locker = self.locker(workspace) if options.lock else None
        return StateManager(storage, locker, journal_file=journal), diags
