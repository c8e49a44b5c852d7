"""Copying states between backends for `init -migrate-state`, as terraform 1.11 does it.

`migrate(source, destination, ...)` follows meta_backend_migrate.go: a source whose only
workspace is `default` is copied as a single state ("Do you want to copy existing state to
the new backend?", only when the source state is not empty); a source with several
workspaces is copied workspace by workspace in alphabetical order after one question ("Do you
want to migrate all workspaces to "s3"?"). Each copy keeps the snapshot's lineage and serial
(terraform's `statemgr.Migrate`), takes both locks ("migration source state", "migration
destination state") unless `-lock=false`, and is skipped when both hold the same snapshot.
`-force-copy` answers every question yes; with `-input=false` and no `-force-copy` a needed
question is terraform's "Can't ask approval for state migration" error.

The questions go through `ask(query, description) -> answer | None`, so the CLI owns the
terminal. Errors come back as text in terraform's words (the CLI shows them as diagnostics).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.backend.base import Backend
from engine.backend.workspaces import DEFAULT_WORKSPACE
from engine.diags import Diagnostics
from engine.states.local import LocalState, atomic_write
from engine.states.lock import acquire, new_lock_info, release
from engine.states.state import StateFile
from engine.states.statefile import states_equal, write_state

Ask = Callable[[str, str], "str | None"]

MULTI_TO_MULTI = """Both the existing {src!s} backend and the newly configured {dst!s} backend
support workspaces. When migrating between backends, groundplan will copy
all workspaces (with the same names). THIS WILL OVERWRITE any conflicting
states in the destination.

groundplan initialization doesn't currently migrate only select workspaces.
If you want to migrate a select number of workspaces, you must manually
pull and push those states.

If you answer "yes", groundplan will migrate all states. If you answer
"no", groundplan will abort."""

EMPTY = """Pre-existing state was found while migrating the previous {src!s} backend to the
newly configured {dst!s} backend. No existing state was found in the newly
configured {dst!s} backend. Do you want to copy this state to the new {dst!s}
backend? Enter "yes" to copy and "no" to start with an empty state."""

NON_EMPTY = """Pre-existing state was found while migrating the previous {src!s} backend to the
newly configured {dst!s} backend. An existing non-empty state already exists in
the new backend. The two states have been saved to temporary files that will be
removed after responding to this query.

Previous (type {src!s}): {src_file}
New      (type {dst!s}): {dst_file}

Do you want to overwrite the state in the new backend with the previous state?
Enter "yes" to copy and "no" to start with the existing state in the newly
configured {dst!s} backend."""

INPUT_DISABLED = """Can't ask approval for state migration when interactive input is disabled.

Please remove the "-input=false" option and try again."""

LOAD_ERROR = """Error loading state:
    {err}

groundplan failed to load the default state from the "{backend}" backend.
State migration cannot occur unless the state can be loaded. Backend
modification and state migration has been aborted. The state in both the
source and the destination remain unmodified. Please resolve the
above error and try again."""

COPY_ERROR = """Error copying state from the previous "{src}" backend to the newly configured
"{dst}" backend:
    {err}

The state in the previous backend remains intact and unmodified. Please resolve
the error above and try again."""

MULTI_ERROR = """Error migrating the workspace "{name}" from the previous "{src}" backend
to the newly configured "{dst}" backend:
    {err}

groundplan copies workspaces in alphabetical order. Any workspaces
alphabetically earlier than this one have been copied. Any workspaces
later than this haven't been modified in the destination. No workspaces
in the source state have been modified.

Please resolve the error above and run the initialization command again.
This will attempt to copy (with permission) all workspaces again."""


class MigrationError(Exception):
    """Migration stopped; `str()` is terraform's message."""


def _q(s: str) -> str:
    return f'"{s}"'


def _text(diags: Diagnostics) -> str:
    return "; ".join(f"{d.summary}: {d.detail}" if d.detail else d.summary for d in diags.errors)


@dataclass
class Migration:
    """One `init -migrate-state` run between two configured backends."""

    source: Backend
    destination: Backend
    ask: Ask
    force: bool = False
    input: bool = True
    lock: bool = True
    lock_timeout: float = 0.0

    @property
    def src(self) -> str:
        return self.source.type_name

    @property
    def dst(self) -> str:
        return self.destination.type_name

    def run(self) -> list[str]:
        """Copy the states; the workspaces copied (raises MigrationError)."""
        names, diags = self.source.workspaces()
        if diags.has_errors:
            raise MigrationError(f"Error inspecting states in the {_q(self.src)} backend:\n"
                                 f"    {_text(diags)}")
        if names in ([], [DEFAULT_WORKSPACE]):
            return [DEFAULT_WORKSPACE] if self._copy(DEFAULT_WORKSPACE, self.force) else []
        if not self.force:
            answer = self._ask(f"Do you want to migrate all workspaces to {_q(self.dst)}?",
                               MULTI_TO_MULTI.format(src=_q(self.src), dst=_q(self.dst)))
            if answer != "yes":
                raise MigrationError("Migration aborted by user.")
        copied = []
        for name in sorted(names):
            try:
                if self._copy(name, True):
                    copied.append(name)
            except MigrationError as exc:
                raise MigrationError(MULTI_ERROR.format(name=name, src=self.src, dst=self.dst,
                                                        err=exc)) from None
        return copied

    def _ask(self, query: str, description: str) -> str:
        if not self.input:
            raise MigrationError(INPUT_DISABLED)
        answer = self.ask(query, description)
        return (answer or "").strip()

    def _open(self, backend: Backend, name: str, which: str) -> Any:
        storage, diags = backend.storage(name)
        if storage is None or diags.has_errors:
            raise MigrationError(LOAD_ERROR.format(err=_text(diags), backend=which))
        return storage

    @contextlib.contextmanager
    def _locked(self, backend: Backend, name: str, operation: str) -> Iterator[None]:
        locker = backend.locker(name) if self.lock else None
        if locker is None:
            yield
            return
        lock_id, diags = acquire(locker, new_lock_info(operation), self.lock_timeout)
        if diags.has_errors:
            raise MigrationError(_text(diags))
        try:
            yield
        finally:
            release(locker, lock_id)

    def _read(self, storage: Any, which: str) -> StateFile | None:
        sf, diags = storage.read()
        if diags.has_errors:
            raise MigrationError(LOAD_ERROR.format(err=_text(diags), backend=which))
        return sf

    def _copy(self, name: str, force: bool) -> bool:
        """Copy workspace `name`; whether a state was written."""
        src = self._open(self.source, name, self.src)
        sf = self._read(src, self.src)
        if sf is None or sf.state.is_empty:
            return False
        dst = self._open(self.destination, name, self.dst)
        dsf = self._read(dst, self.dst)
        if dsf is not None and dsf.lineage == sf.lineage and states_equal(dsf.state, sf.state):
            return False
        with self._locked(self.source, name, "migration source state"), \
                self._locked(self.destination, name, "migration destination state"):
            sf = self._read(src, self.src)
            dsf = self._read(dst, self.dst)
            if sf is None or sf.state.is_empty:
                return False
            if not force and not self._confirm(sf, dsf):
                return False
            problem = write_snapshot(dst, sf)
            if problem:
                raise MigrationError(COPY_ERROR.format(src=self.src, dst=self.dst, err=problem))
        return True

    def _confirm(self, sf: StateFile, dsf: StateFile | None) -> bool:
        query = "Do you want to copy existing state to the new backend?"
        if dsf is None or dsf.state.is_empty:
            return self._ask(query, EMPTY.format(src=_q(self.src), dst=_q(self.dst))) == "yes"
        with tempfile.TemporaryDirectory(prefix="groundplan-migrate-") as tmp:
            a = os.path.join(tmp, "previous.tfstate")
            b = os.path.join(tmp, "new.tfstate")
            atomic_write(a, write_state(sf))
            atomic_write(b, write_state(dsf))
            return self._ask(query, NON_EMPTY.format(src=_q(self.src), dst=_q(self.dst),
                                                     src_file=a, dst_file=b)) == "yes"


def write_snapshot(storage: Any, sf: StateFile) -> str:
    """Store `sf` with its lineage and serial kept; "" or why it failed."""
    if isinstance(storage, LocalState):
        try:
            data = storage.encryption.encrypt(write_state(sf).encode("utf-8"))
            if os.path.exists(storage.path) and os.path.getsize(storage.path) and \
                    storage.backup_path:
                with open(storage.path, "rb") as fh:
                    atomic_write(storage.backup_path, fh.read())
            os.makedirs(os.path.dirname(os.path.abspath(storage.path)), exist_ok=True)
            atomic_write(storage.path, data)
        except OSError as exc:
            return f"{storage.path}: {exc.strerror or exc}"
        except Exception as exc:  # EncryptionError and encoding failures
            return str(exc)
        return ""
    written, diags = storage.write_file(sf)
    return _text(diags) if written is None else ""


def empty_local_states(backend: Backend, names: list[str]) -> None:
    """After moving local states away, leave each file empty (its content in `.backup`), as
    terraform does, so that a later run does not mistake it for the live state."""
    for name in names:
        storage, _ = backend.storage(name)
        if not isinstance(storage, LocalState) or not os.path.exists(storage.path):
            continue
        with open(storage.path, "rb") as fh:
            old = fh.read()
        if old and storage.backup_path:
            atomic_write(storage.backup_path, old)
        atomic_write(storage.path, b"")
