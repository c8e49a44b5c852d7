"""The state manager plan and apply use: storage + lock + working state + journal + persistence.

Life of an apply:

    mgr = StateManager(LocalState("terraform.tfstate"), FilesystemLocker("terraform.tfstate"))
    with mgr.locked("OperationTypeApply", timeout) as diags:   # unlocks on every exit path
        diags.extend(mgr.recover())          # reconcile a journal a crashed run left behind
        diags.extend(mgr.begin_apply())      # working state from the persisted one + journal
        seq, d = mgr.record_intent(addr, "create")     # before the provider call
        diags.extend(mgr.record_result(addr, seq, obj, provider=...))   # after it
        diags.extend(mgr.finish())           # final write once, then the journal goes

Recording a result appends one journal line and updates the working state in place: it never
rewrites the state. Full snapshots are stored by a background thread every
`snapshot_interval` seconds (when something changed) and whenever `request_persist()` is
called — which is safe from a signal handler, so SIGINT/SIGTERM handlers call it — and once
at `finish()`. When that final write fails, the state goes to `errored.tfstate` (in the
working directory unless told otherwise) with Terraform's "Failed to save state" diagnostics,
and the journal is kept so the next run can still reconcile.

Storage is anything with `path`, `read()` and `write(state)` (see `Storage`): `LocalState`
today, remote backends later.
"""

from __future__ import annotations

import contextlib
import gc
import os
import threading
from collections.abc import Callable, Iterator
from typing import Protocol

from engine.addrs import AbsResourceInstance
from engine.diags import Diagnostics, error, warning
from engine.states.encryption import EncryptionError
from engine.states.journal import (
    Journal,
    Record,
    delete_journal,
    journal_path,
    read_journal,
    replay,
)
from engine.states.local import atomic_write
from engine.states.lock import Locker, ReplaceAwareLocker, acquire, new_lock_info, release
from engine.states.state import ResourceInstanceObject, State, StateFile, new_lineage
from engine.states.statefile import write_state
from engine.states.sync import SyncState

DEFAULT_SNAPSHOT_INTERVAL = 20.0

_BACKED_UP_DETAIL = (
    "The error shown above has prevented groundplan from writing the updated state to the "
    "configured backend. To allow for recovery, the state has been written to the file "
    "\"{name}\" in {where}.\n\n"
    "Running \"groundplan apply\" again at this point will create a forked state, making it "
    "harder to recover.\n\n"
    "To retry writing this state, use the following command:\n"
    "    groundplan state push {name}\n"
)


class Storage(Protocol):
    """Where snapshots live. `write` applies the persistence policy (serial, lineage)."""

    path: str

    def read(self) -> tuple[StateFile | None, Diagnostics]: ...

    def write(self, state: State) -> tuple[StateFile | None, Diagnostics]: ...


class StateManager:
    """Locks, reads, records and persists one state (see the module docstring).

    `locker` may be None (`-lock=false`). All recording methods are thread-safe.
    """

    def __init__(
        self,
        storage: Storage,
        locker: Locker | None = None,
        *,
        journal_file: str | None = None,
        snapshot_interval: float = DEFAULT_SNAPSHOT_INTERVAL,
        errored_path: str | None = None,
    ) -> None:
        self.storage = storage
        self.locker = locker
        self.journal_path = journal_file or journal_path(storage.path)
        self.snapshot_interval = snapshot_interval
        self.errored_path = errored_path or os.path.join(os.getcwd(), "errored.tfstate")
        self.persisted: StateFile | None = None
        self._lock_id = ""
        self._sync: SyncState | None = None
        self._journal: Journal | None = None
        self._seq = 0
        self._seq_mu = threading.Lock()
        self._persist_mu = threading.Lock()
        self._persisted_changes = 0
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._timer: threading.Thread | None = None
        self._background_diags = Diagnostics()
        self._frozen = False
        # The snapshot `read_ahead` read, handed to the next `read` instead of reading again.
        self._read_ahead: tuple[StateFile | None] | None = None

    # ------------------------------------------------------------------------ locking
    def lock(self, operation: str, timeout: float = 0.0, info: str = "") -> Diagnostics:
        """Take the state lock (retrying up to `timeout` seconds); no-op without a locker."""
        if self.locker is None or self._lock_id:
            return Diagnostics()
        lock_id, diags = acquire(self.locker, new_lock_info(operation, info), timeout)
        self._lock_id = lock_id
        return diags

    def unlock(self) -> Diagnostics:
        """Release the lock if held (stopping the snapshot timer first)."""
        self._read_ahead = None
        self._stop_timer()
        self._thaw()
        if self.locker is None or not self._lock_id:
            return Diagnostics()
        lock_id, self._lock_id = self._lock_id, ""
        return release(self.locker, lock_id)

    @contextlib.contextmanager
    def locked(self, operation: str, timeout: float = 0.0) -> Iterator[Diagnostics]:
        """Hold the lock for the block; the yielded diagnostics collect lock and unlock results.

        When locking fails the block still runs (check `has_errors` first thing); the lock is
        released however the block ends.
        """
        diags = self.lock(operation, timeout)
        try:
            yield diags
        finally:
            diags.extend(self.unlock())

    # ------------------------------------------------------------------------ reading
    def read(self) -> tuple[StateFile | None, Diagnostics]:
        """The persisted snapshot (None when there is no state yet), remembered as the base."""
        if self._read_ahead is not None:
            (sf,), self._read_ahead = self._read_ahead, None
            return sf, Diagnostics()
        sf, diags = self.storage.read()
        if not diags.has_errors:
            self.persisted = sf
        return sf, diags

    def read_ahead(self) -> Diagnostics:
        """Read the persisted snapshot now (the readability check terraform's local backend
        makes while locking); the next `read` returns it without reading the file again,
        unless this manager writes the state first."""
        sf, diags = self.read()
        if not diags.has_errors:
            self._read_ahead = (sf,)
        return diags

    # ------------------------------------------------------------------------ recovery
    def _record_encryption(self, which: str) -> Callable[[bytes], bytes] | None:
        """The storage's state encryption for journal records (each record is encrypted as
        the state is, so the journal holds no plaintext when the state holds none)."""
        enc = getattr(self.storage, "encryption", None)
        records = getattr(enc, "records", None)
        if records is None:
            return None
        return getattr(records(), which)

    def recover(self) -> Diagnostics:
        """Reconcile a journal left by a run that stopped; call with the lock held.

        The recorded results are applied over the persisted state, the result is persisted and
        the journal removed. A warning names every instance whose provider call began without a
        recorded result. A journal that does not belong to the persisted state (another
        lineage, or a state written since by someone else) is refused and left in place.
        """
        diags = Diagnostics()
        if not os.path.exists(self.journal_path):
            return diags
        records, more = read_journal(self.journal_path, self._record_encryption("decrypt"))
        diags.extend(more)
        if diags.has_errors:
            return diags
        sf, more = self.read()
        diags.extend(more)
        if diags.has_errors:
            return diags
        mismatch = _journal_mismatch(records, sf)
        if mismatch:
            diags.append(
                error(
                    "The state journal does not match the state",
                    f"{self.journal_path} was written by an apply that stopped before "
                    f"finishing, but {mismatch}, so replaying it could undo newer changes. "
                    "Inspect the journal, then move it aside to continue.",
                )
            )
            return diags
        state, begun = replay(records, None if sf is None else sf.state)
        written, more = self.storage.write(state)
        diags.extend(more)
        if diags.has_errors:
            return diags
        self.persisted = written
        self._after_write()
        diags.extend(delete_journal(self.journal_path))
        if begun:
            diags.extend(_begun_warning(begun, records))
        return diags

    # ------------------------------------------------------------------------ apply
    def begin_apply(self, state: State | None = None) -> Diagnostics:
        """Start recording: the working state (default: the persisted one) and the journal.

        Refuses to start while a journal from an earlier run exists (`recover` it first). Once
        started, the objects alive are kept out of the cyclic GC's passes (`gc.freeze`) until
        `finish` or `unlock`.
        """
        diags = Diagnostics()
        if os.path.exists(self.journal_path):
            diags.append(
                error(
                    "Unreconciled state journal",
                    f"{self.journal_path} is left from a run that stopped; it must be "
                    "recovered before a new apply starts.",
                )
            )
            return diags
        if state is None:
            sf, more = self.read()
            diags.extend(more)
            if diags.has_errors:
                return diags
            state = sf.state if sf is not None else None
        base = self.persisted
        self._sync = SyncState(state)
        self._persisted_changes = 0
        self._journal = Journal(
            self.journal_path,
            base.lineage if base is not None else "",
            base.serial if base is not None else 0,
            seal=self._record_encryption("encrypt"),
        )
        diags.extend(self._journal.open())
        if diags.has_errors:
            return diags
        # Everything alive now (configuration, plan, prior state) outlives the apply: keep the
        # cyclic collector's full passes off it until `finish` or `unlock` (gc.freeze; ~10% of an
        # apply of 5,000 instances). Objects made during the apply are collected as usual.
        gc.freeze()
        self._frozen = True
        self._start_timer()
        return diags

    def _thaw(self) -> None:
        """Undo `begin_apply`'s gc.freeze: the frozen objects go to the oldest generation."""
        if self._frozen:
            self._frozen = False
            gc.unfreeze()

    @property
    def sync(self) -> SyncState:
        """The working state of the running apply (begin_apply first)."""
        if self._sync is None:
            self._sync = SyncState(None if self.persisted is None else self.persisted.state)
        return self._sync

    def record_intent(
        self, addr: AbsResourceInstance, action: str, deposed: str = ""
    ) -> tuple[int, Diagnostics]:
        """Journal that `action` on `addr` is about to call the provider; the operation's seq.

        When the diagnostics have errors the intent is not durable and the caller must not
        call the provider.
        """
        with self._seq_mu:
            self._seq += 1
            seq = self._seq
        if self._journal is None:
            return seq, Diagnostics()
        return seq, self._journal.intent(addr, action, seq, deposed)

    def record_result(
        self,
        addr: AbsResourceInstance,
        seq: int,
        obj: ResourceInstanceObject | None,
        status: str = "ok",
        *,
        provider: str = "",
        deposed: str = "",
    ) -> Diagnostics:
        """Journal the outcome of `seq`, then apply it to the working state (None removes)."""
        diags = Diagnostics()
        if self._journal is not None:
            diags.extend(
                self._journal.result(
                    addr, seq, obj, status, provider=provider, deposed=deposed
                )
            )
        sync = self.sync
        if deposed:
            if obj is None:
                sync.remove_deposed(addr, deposed)
            else:
                sync.set_deposed(addr, deposed, obj, provider)
        elif obj is None:
            sync.remove_current(addr)
        else:
            sync.set_current(addr, obj, provider)
        return diags

    # ------------------------------------------------------------------------ persistence
    def request_persist(self) -> None:
        """Ask the background persister to store a snapshot now (safe in a signal handler)."""
        self._wake.set()

    def persist_snapshot(self) -> Diagnostics:
        """Store a snapshot of the working state now, if it changed since the last one."""
        with self._persist_mu:
            sync = self._sync
            if sync is None or sync.changes == self._persisted_changes:
                return Diagnostics()
            changes = sync.changes
            diags = self._write_snapshot(sync.snapshot())
            if not diags.has_errors:
                self._persisted_changes = changes
            return diags

    def _write_snapshot(self, state: State) -> Diagnostics:
        diags = Diagnostics()
        journal = self._journal
        if journal is not None:
            base = self.persisted
            diags.extend(journal.persisting((base.serial if base is not None else 0) + 1))
            if diags.has_errors:
                return diags
        written, more = self.storage.write(state)
        diags.extend(more)
        if diags.has_errors or written is None:
            return diags
        self.persisted = written
        self._after_write()
        if journal is not None:
            journal.set_base(written.lineage, written.serial)
        return diags

    def finish(self) -> Diagnostics:
        """Stop the timer, write the final state once and remove the journal.

        If the write fails, the state is written to `errored_path` and the diagnostics say so
        (Terraform's wording); the journal is then kept for the next run's `recover`.
        """
        self._stop_timer()
        diags = Diagnostics()
        with self._persist_mu:
            state = self.sync.snapshot()
            more = self._write_snapshot(state)
            if more.has_errors:
                diags.extend(self._save_errored(state, more))
                return diags
            diags.extend(more)
            self._persisted_changes = self.sync.changes
        diags.extend(w for w in self._background_diags if not w.is_error)
        if self._journal is not None:
            diags.extend(self._journal.delete())
            self._journal = None
        self._thaw()
        return diags

    def _save_errored(self, state: State, failure: Diagnostics) -> Diagnostics:
        diags = Diagnostics()
        reason = "; ".join(d.detail or d.summary for d in failure.errors)
        diags.append(error("Failed to save state", f"Error saving state: {reason}"))
        base = self.persisted
        sf = StateFile(
            state=state,
            lineage=base.lineage if base is not None else new_lineage(),
            serial=(base.serial if base is not None else 0) + 1,
        )
        try:
            payload = write_state(sf).encode("utf-8")
            encryption = getattr(self.storage, "encryption", None)
            if encryption is not None:  # errored.tfstate is encrypted like the state
                payload = encryption.encrypt(payload)
            atomic_write(self.errored_path, payload)
        except EncryptionError as exc:  # never plaintext instead: the journal is kept
            diags.extend(exc.diags)
            return diags
        except (OSError, ValueError, TypeError) as exc:
            diags.append(
                error(
                    "Failed to create local state file",
                    f"Error creating local state file for recovery: {exc}",
                )
            )
            return diags
        directory = os.path.dirname(os.path.abspath(self.errored_path))
        where = (
            "the current working directory"
            if directory == os.getcwd()
            else f"the directory {directory}"
        )
        name = os.path.basename(self.errored_path)
        diags.append(
            error(
                "Failed to persist state to backend",
                _BACKED_UP_DETAIL.format(name=name, where=where),
            )
        )
        return diags

    def _after_write(self) -> None:
        self._read_ahead = None
        if isinstance(self.locker, ReplaceAwareLocker):
            self.locker.after_state_replaced()

    # ------------------------------------------------------------------------ the timer
    def _start_timer(self) -> None:
        if self._timer is not None or self.snapshot_interval <= 0:
            return
        self._stop.clear()
        self._timer = threading.Thread(
            target=self._run_timer, name="state-persister", daemon=True
        )
        self._timer.start()

    def _run_timer(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self.snapshot_interval)
            self._wake.clear()
            if self._stop.is_set():
                return
            more = self.persist_snapshot()
            if more.has_errors:
                self._background_diags.extend(
                    warning("Failed to persist an intermediate state snapshot", d.detail)
                    for d in more.errors
                )

    def _stop_timer(self) -> None:
        timer, self._timer = self._timer, None
        if timer is not None:
            self._stop.set()
            self._wake.set()
            timer.join()


def _journal_mismatch(records: list[Record], sf: StateFile | None) -> str:
    """Why the journal cannot be replayed over `sf`, or "" when it can.

    Records carry the snapshot they apply to and `persist` records announce each snapshot
    before it is stored, so a state this apply wrote never has a serial above the highest one
    in the journal, nor a lineage other than the journal's.
    """
    lineages = {r.lineage for r in records if r.lineage}
    if sf is None:
        return "there is no state file any more" if lineages else ""
    if lineages - {sf.lineage}:
        return f"the state now has lineage {sf.lineage!r}"
    highest = max((r.serial for r in records), default=0)
    if sf.serial > highest:
        return f"the state was written since (serial {sf.serial}, journal up to {highest})"
    return ""


def _begun_warning(begun: list[AbsResourceInstance], records: list[Record]) -> Diagnostics:
    actions: dict[str, str] = {}
    for rec in records:
        if rec.kind == "intent":
            actions[rec.addr] = rec.action
    lines = "\n".join(f"  - {a} ({actions.get(str(a), 'change')})" for a in begun)
    diags = Diagnostics()
    diags.append(
        warning(
            "Resources may have changed without being recorded in state",
            "The previous run stopped while the provider was working on these resource "
            "instances, before their results were recorded:\n"
            f"{lines}\n\n"
            "The real infrastructure may have changed without the state knowing it. Check "
            "each of them: import any object that was created, or it may be created again.",
        )
    )
    return diags
