"""The S3 backend's state lock: terraform's lock object and DynamoDB item, plus leases.

Shapes and order are terraform 1.11's (internal/backend/remote-state/s3/client.go):

- `use_lockfile`: the object `<state key>.tflock` holding the lock info JSON, created with
  `If-None-Match: *`; unlocking reads it, refuses another lock ID, and deletes it (with
  `If-Match` of what was read, so a lock that changed hands is never removed).
- `dynamodb_table`: the item `LockID = <bucket>/<state key>`, `Info` = the JSON, created with
  `attribute_not_exists(LockID)`.
- both: the file lock first, then the item; if the item cannot be taken the file lock is
  released again. Unlock releases both and reports either failure.

The lock info's `Path` is `<bucket>/<state key>`, as terraform sets it.

Leases, beyond terraform: the holder's lock info carries `"Lease": {"Duration", "Heartbeat"}`
(ignored by terraform, which decodes only its own fields). A heartbeat thread rewrites it every
`heartbeat` seconds (`If-Match` on the object, a condition on `Info` for the item). A waiter
that finds a lock whose lease ran out more than `grace` seconds ago reports it as stale,
naming holder, operation, start and last heartbeat and the `force-unlock` command; a lock
without a lease (written by terraform) is never called stale.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.backend.s3.client import PreconditionFailed, S3Client, S3Error
from engine.backend.s3.dynamo import ConditionFailed, DynamoError, LockTable
from engine.states.lock import (
    LockError,
    LockInfo,
    format_go_time,
    format_rfc3339_nano,
    parse_rfc3339_nano,
)

LEASE_DURATION = 30.0
HEARTBEAT_INTERVAL = 5.0
STALE_GRACE = 30.0


@dataclass
class Lease:
    """A lock's lease: valid `duration` seconds after the last `heartbeat_ns`."""

    duration: float
    heartbeat_ns: int

    def expired_for(self, now_ns: int) -> float:
        """Seconds since the lease ran out (negative while it is valid)."""
        return (now_ns - self.heartbeat_ns) / 1e9 - self.duration


def lock_json(info: LockInfo, lease: Lease | None) -> str:
    """terraform's lock info JSON, with our lease appended when given."""
    text = info.to_json()
    if lease is None:
        return text
    extra = json.dumps({"Duration": f"{lease.duration:g}s",
                        "Heartbeat": format_rfc3339_nano(lease.heartbeat_ns)},
                       separators=(",", ":"))
    return text[:-1] + ',"Lease":' + extra + "}"


def parse_lock(text: str) -> tuple[LockInfo | None, Lease | None]:
    """Lock info (ours or terraform's) and its lease, if it has one."""
    info = LockInfo.from_json(text)
    if info is None:
        return None, None
    try:
        raw = json.loads(text).get("Lease")
        duration = float(str(raw["Duration"]).rstrip("s"))
        beat = parse_rfc3339_nano(str(raw["Heartbeat"]))
    except (ValueError, TypeError, KeyError, AttributeError):
        return info, None
    return info, (Lease(duration, beat) if beat is not None else None)


def stale_message(info: LockInfo, lease: Lease, now_ns: int) -> str:
    expired = lease.expired_for(now_ns)
    return (
        f"The lock is stale: its holder {info.who or '(unknown)'} took it for "
        f"{info.operation or '(unknown operation)'} at {format_go_time(info.created_ns)} and "
        f"last renewed its lease at {format_go_time(lease.heartbeat_ns)}; the lease ran out "
        f"{expired:.0f}s ago, so the holder has most likely stopped. If no run is still using "
        f'this state, remove the lock with: groundplan force-unlock {info.id}'
    )


class S3Locker:
    """The lock of one workspace's state (see the module docstring)."""

    def __init__(
        self,
        client: S3Client,
        state_key: str,
        *,
        use_lockfile: bool,
        table: LockTable | None,
        lease: float = LEASE_DURATION,
        heartbeat: float = HEARTBEAT_INTERVAL,
        grace: float = STALE_GRACE,
        now_ns: Callable[[], int] = time.time_ns,
    ) -> None:
        self.client = client
        self.lock_key = state_key + ".tflock"
        self.path = f"{client.bucket}/{state_key}"
        self.use_lockfile = use_lockfile
        self.table = table
        self.lease_seconds = lease
        self.heartbeat_seconds = heartbeat
        self.grace = grace
        self.now_ns = now_ns
        self._mu = threading.Lock()
        self._info: LockInfo | None = None
        self._lease: Lease | None = None
        self._file_etag = ""
        self._item_info = ""
        self._stop = threading.Event()
        self._beat: threading.Thread | None = None
        self.lost = ""

    @property
    def enabled(self) -> bool:
        return self.use_lockfile or self.table is not None

    # ------------------------------------------------------------------------ reading
    def _holder_from_file(self) -> tuple[LockInfo | None, str, str]:
        """(holder, etag, problem) of the lock object; holder None when absent or garbage."""
        try:
            payload = self.client.get(self.lock_key)
        except S3Error as exc:
            return None, "", str(exc)
        if payload is None:
            return None, "", ""
        info, lease = parse_lock(payload.data.decode("utf-8", "replace"))
        if info is None:
            return None, payload.etag, (
                f"the lock object s3://{self.client.bucket}/{self.lock_key} does not hold lock "
                f"information (it is not the JSON terraform writes); inspect it and delete it "
                "if no run holds the lock")
        self._note_stale(info, lease)
        return info, payload.etag, ""

    def _holder_from_table(self) -> tuple[LockInfo | None, str, str]:
        assert self.table is not None
        try:
            text = self.table.get_info(self.path)
        except DynamoError as exc:
            return None, "", str(exc)
        if text is None:
            return None, "", ""
        info, lease = parse_lock(text)
        if info is None:
            return None, text, (
                f'the lock item "{self.path}" in DynamoDB table "{self.table.table}" does not '
                "hold lock information")
        self._note_stale(info, lease)
        return info, text, ""

    def _note_stale(self, info: LockInfo, lease: Lease | None) -> None:
        if lease is not None and lease.expired_for(self.now_ns()) > self.grace:
            info.info = (info.info + "\n" if info.info else "") + stale_message(
                info, lease, self.now_ns())

    def holder(self) -> LockInfo | None:
        """Who holds the lock now (file first, then table); None when nobody."""
        if self.use_lockfile:
            info, _, _ = self._holder_from_file()
            if info is not None:
                return info
        if self.table is not None:
            info, _, _ = self._holder_from_table()
            return info
        return None

    # ------------------------------------------------------------------------ locking
    def lock(self, info: LockInfo) -> tuple[str, LockError | None]:
        with self._mu:
            if not self.enabled:
                return "", None
            if self._info is not None:
                return "", LockError(f"state {self.path!r} already locked by this run")
            info.path = self.path
            lease = Lease(self.lease_seconds, self.now_ns())
            text = lock_json(info, lease)
            if self.use_lockfile:
                err = self._lock_file(text)
                if err is not None:
                    return "", err
            if self.table is not None:
                err = self._lock_table(text)
                if err is not None:
                    if self.use_lockfile:
                        problem = self._unlock_file(info.id)
                        if problem:
                            return "", LockError(
                                f"failed to clean up file lock after DynamoDB lock error: "
                                f"{problem}; original error: {err.message}", err.info)
                    return "", err
                self._item_info = text
            self._info, self._lease = info, lease
            self.lost = ""
            self._start_heartbeat()
            return info.id, None

    def _lock_file(self, text: str) -> LockError | None:
        for _ in range(5):
            try:
                self._file_etag = self.client.put(
                    self.lock_key, text.encode("utf-8"), if_none_match=True, what="lock file")
                return None
            except PreconditionFailed as exc:
                holder, _, problem = self._holder_from_file()
                if holder is not None:
                    return LockError(str(exc), holder)
                if problem:
                    return LockError(f"{exc}\n{problem}")
                # released between our write and our read: try again at once
            except S3Error as exc:
                return LockError(str(exc))
        return LockError(f"the lock object s3://{self.client.bucket}/{self.lock_key} keeps "
                         "changing hands; try again")

    def _lock_table(self, text: str) -> LockError | None:
        assert self.table is not None
        for _ in range(5):
            try:
                self.table.put_lock(self.path, text)
                return None
            except ConditionFailed as exc:
                holder, _, problem = self._holder_from_table()
                if holder is not None:
                    return LockError(str(exc), holder)
                if problem:
                    return LockError(f"{exc}\n{problem}")
            except DynamoError as exc:
                return LockError(str(exc))
        return LockError(f'the lock item "{self.path}" keeps changing hands; try again')

    # ------------------------------------------------------------------------ unlocking
    def _unlock_file(self, lock_id: str) -> str:
        holder, etag, problem = self._holder_from_file()
        if problem:
            return problem
        if holder is None:
            return (f"unable to retrieve file from S3 bucket '{self.client.bucket}' with key "
                    f"'{self.lock_key}': the lock file does not exist")
        if holder.id != lock_id:
            return f"lock ID '{lock_id}' does not match the existing lock ID '{holder.id}'"
        try:
            self.client.delete(self.lock_key, if_match=etag)
        except S3Error as exc:
            return f"failed to delete the lock file: {exc}"
        return ""

    def _unlock_table(self, lock_id: str) -> str:
        assert self.table is not None
        holder, text, problem = self._holder_from_table()
        if problem:
            return f"failed to retrieve lock info for lock ID {json.dumps(lock_id)}: {problem}"
        if holder is None:
            return f"failed to retrieve lock info for lock ID {json.dumps(lock_id)}: no lock"
        if holder.id != lock_id:
            return (f"lock ID {json.dumps(lock_id)} does not match existing lock "
                    f"({json.dumps(holder.id)})")
        try:
            self.table.delete_lock(self.path, text)
        except DynamoError as exc:
            return str(exc)
        return ""

    def _release(self, lock_id: str) -> LockError | None:
        ferr = self._unlock_file(lock_id) if self.use_lockfile else ""
        derr = self._unlock_table(lock_id) if self.table is not None else ""
        if ferr and derr:
            return LockError(f"failed to unlock both S3 and DynamoDB: S3 error: {ferr}, "
                             f"DynamoDB error: {derr}", self.holder())
        if ferr:
            msg = f"failed to unlock S3: {ferr}" if self.table is not None else ferr
            return LockError(msg, self.holder())
        if derr:
            msg = f"failed to unlock DynamoDB: {derr}" if self.use_lockfile else derr
            return LockError(msg, self.holder())
        return None

    def unlock(self, lock_id: str) -> LockError | None:
        if not self.enabled:
            return None
        self._stop_heartbeat()
        with self._mu:
            if self._info is not None and self._info.id != lock_id:
                return LockError(f"lock ID {json.dumps(lock_id)} is not the lock this run holds")
            err = self._release(lock_id)
            self._info = None
            self._lease = None
            if err is None and self.lost:
                return LockError(self.lost)
            return err

    def force_unlock(self, lock_id: str) -> LockError | None:
        """Remove the lock with ID `lock_id`, whoever holds it."""
        if not self.enabled:
            return LockError("the S3 backend has no lock configured (use_lockfile or "
                             "dynamodb_table)")
        with self._mu:
            if self._info is not None and self._info.id == lock_id:
                self._stop.set()
            return self._release(lock_id)

    # ------------------------------------------------------------------------ the lease
    def renew(self) -> str:
        """Rewrite the lease once (what the heartbeat does); "" or why the lock was lost."""
        with self._mu:
            info, lease = self._info, self._lease
            if info is None or lease is None:
                return ""
            new = Lease(lease.duration, self.now_ns())
            text = lock_json(info, new)
            try:
                if self.use_lockfile:
                    self._file_etag = self.client.put(
                        self.lock_key, text.encode("utf-8"), if_match=self._file_etag,
                        what="lock file")
                if self.table is not None:
                    self.table.replace_lock(self.path, self._item_info, text)
                    self._item_info = text
            except (PreconditionFailed, ConditionFailed):
                self.lost = (f"the lock {info.id} on {self.path} was removed or taken over by "
                             "someone else while this run held it (force-unlock?)")
                return self.lost
            except (S3Error, DynamoError) as exc:
                return f"could not renew the lock's lease: {exc}"
            self._lease = new
            return ""

    def _start_heartbeat(self) -> None:
        if self.heartbeat_seconds <= 0:
            return
        self._stop.clear()
        self._beat = threading.Thread(target=self._run_heartbeat, name="s3-lock-heartbeat",
                                      daemon=True)
        self._beat.start()

    def _run_heartbeat(self) -> None:
        while not self._stop.wait(self.heartbeat_seconds):
            if self.renew() and self.lost:
                return

    def _stop_heartbeat(self) -> None:
        beat, self._beat = self._beat, None
        if beat is not None:
            self._stop.set()
            beat.join()
