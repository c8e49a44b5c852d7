"""State locks: Terraform's `LockInfo`, the `Locker` protocol, and the local filesystem lock.

`LockInfo` has exactly the fields of Terraform's `statemgr.LockInfo` and serialises to the same
JSON (`{"ID":…,"Operation":…,"Info":…,"Who":…,"Version":…,"Created":…,"Path":…}`, `Created`
in RFC 3339 with nanoseconds), so either tool can read the other's lock information.

`FilesystemLocker` does what Terraform's local backend does, and a little more:

- it opens the state file (creating it when missing) and holds a write lock on the whole file
  with `fcntl` for as long as the lock is held: Terraform takes the same lock, so the two tools
  exclude each other;
- it writes the lock information to `.<state file name>.lock.info` next to the state file,
  created with `O_CREAT|O_EXCL`, and holds an `fcntl` lock on that file too. The state file is
  replaced by rename on every write, which moves the state-file lock off the path; the lock
  information file is never replaced while held, so it is what two groundplan processes meet
  on. A holder that crashed leaves the file behind, but the kernel drops its `fcntl` lock, so a
  lock information file that nobody holds is stale and is taken over.

On Linux the locks are open-file-description locks (`F_OFD_SETLK`): they conflict with
Terraform's classic POSIX locks, but closing some other descriptor of the same file in this
process (reading the state, say) does not drop them. Elsewhere classic `F_SETLK` is used.

`acquire` retries while the lock is held by someone else, with Terraform's back-off (1 s
doubling to 16 s) until `-lock-timeout` runs out, and reports failure with Terraform's "Error
acquiring the state lock" diagnostic; `release` and `force_unlock` report theirs.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import random
import re
import struct
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from engine.diags import Diagnostics, error
from engine.gocompat import json as gojson
from engine.version import TERRAFORM_VERSION

LOCK_ERROR_MESSAGE = """Error message: {}

groundplan acquires a state lock to protect the state from being written
by multiple users at the same time. Please resolve the issue above and try
again. For most commands, you can disable locking with the "-lock=false"
flag, but this is not recommended."""

UNLOCK_ERROR_MESSAGE = """Error message: {}

groundplan acquires a lock when accessing your state to prevent others
running groundplan to potentially modify the state at the same time. An
error occurred while releasing this lock. This could mean that the lock
did or did not release properly. If the lock didn't release properly,
groundplan may not be able to run future commands since it'll appear as if
the lock is held.

In this scenario, please call the "force-unlock" command to unlock the
state manually. This is a very dangerous operation since if it is done
erroneously it could result in two people modifying state at the same time.
Only call this command if you're certain that the unlock above failed and
that no one else is holding a lock."""

_EAGAIN_TEXT = "resource temporarily unavailable"  # Go's text for EAGAIN/EWOULDBLOCK


def _who() -> str:
    try:
        import pwd

        user = pwd.getpwuid(os.getuid()).pw_name
    except (ImportError, KeyError):
        user = os.environ.get("USER", "")
    return f"{user}@{os.uname().nodename}"  # gethostname(), without importing socket


# ------------------------------------------------------------------------------ time formats
_RFC3339 = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?"
    r"(?:([Zz])|([+-])(\d{2}):(\d{2}))$"
)


def _split_ns(ns: int) -> tuple[time.struct_time, str]:
    secs, frac = divmod(ns, 1_000_000_000)
    digits = f"{frac:09d}".rstrip("0")
    return time.gmtime(secs), ("." + digits if digits else "")


def format_rfc3339_nano(ns: int) -> str:
    """Go's `time.RFC3339Nano` for a UTC instant given in nanoseconds since the epoch."""
    tm, frac = _split_ns(ns)
    return time.strftime("%Y-%m-%dT%H:%M:%S", tm) + frac + "Z"


def format_go_time(ns: int) -> str:
    """Go's `Time.String()` for a UTC instant: `2025-05-21 11:46:36.2262448 +0000 UTC`."""
    tm, frac = _split_ns(ns)
    return time.strftime("%Y-%m-%d %H:%M:%S", tm) + frac + " +0000 UTC"


def parse_rfc3339_nano(text: str) -> int | None:
    """Nanoseconds since the epoch for an RFC 3339 timestamp, or None when it is not one."""
    m = _RFC3339.match(text)
    if m is None:
        return None
    year, month, day, hour, minute, sec = (int(m.group(i)) for i in range(1, 7))
    try:
        import calendar

        secs = calendar.timegm((year, month, day, hour, minute, sec, 0, 0, 0))
    except (ValueError, OverflowError):
        return None
    frac = int((m.group(7) or "").ljust(9, "0"))
    if m.group(9):
        offset = int(m.group(10)) * 3600 + int(m.group(11)) * 60
        secs -= offset if m.group(9) == "+" else -offset
    return secs * 1_000_000_000 + frac


# ------------------------------------------------------------------------------ lock info
@dataclass(slots=True)
class LockInfo:
    """Lock metadata, field for field Terraform's `statemgr.LockInfo`.

    `created_ns` is the lock time in nanoseconds since the epoch (UTC); `path` is set by the
    locker. `new_lock_info(operation)` fills in a fresh ID, who, version and time.
    """

    id: str = ""
    operation: str = ""
    info: str = ""
    who: str = ""
    version: str = ""
    created_ns: int = 0
    path: str = ""

    def to_json(self) -> str:
        """The compact JSON Terraform writes (`json.Marshal` of the Go struct)."""
        doc = {
            "ID": self.id,
            "Operation": self.operation,
            "Info": self.info,
            "Who": self.who,
            "Version": self.version,
            "Created": format_rfc3339_nano(self.created_ns),
            "Path": self.path,
        }
        return gojson.dumps(doc, indent=None)

    @classmethod
    def from_json(cls, text: str) -> LockInfo | None:
        """Decode lock info JSON (ours or Terraform's); None when it is not lock info."""
        try:
            doc = json.loads(text)
        except (json.JSONDecodeError, ValueError):
            return None
        if not isinstance(doc, dict):
            return None
        created = parse_rfc3339_nano(str(doc.get("Created", ""))) or 0
        return cls(
            id=str(doc.get("ID", "")),
            operation=str(doc.get("Operation", "")),
            info=str(doc.get("Info", "")),
            who=str(doc.get("Who", "")),
            version=str(doc.get("Version", "")),
            created_ns=created,
            path=str(doc.get("Path", "")),
        )

    def __str__(self) -> str:
        """The `Lock Info:` table Terraform prints (ends with a newline)."""
        return (
            "Lock Info:\n"
            f"  ID:        {self.id}\n"
            f"  Path:      {self.path}\n"
            f"  Operation: {self.operation}\n"
            f"  Who:       {self.who}\n"
            f"  Version:   {self.version}\n"
            f"  Created:   {format_go_time(self.created_ns)}\n"
            f"  Info:      {self.info}\n"
        )


def new_lock_info(operation: str = "", info: str = "") -> LockInfo:
    """A LockInfo with a random UUID, `user@host`, the version and the current time."""
    return LockInfo(
        id=str(uuid.uuid4()),
        operation=operation,
        info=info,
        who=_who(),
        version=TERRAFORM_VERSION,
        created_ns=time.time_ns(),
    )


@dataclass(slots=True)
class LockError:
    """Why a lock or unlock failed; `info` is the current holder when known.

    A LockError with holder info means "held by someone else" and is worth retrying.
    """

    message: str
    info: LockInfo | None = None

    def __str__(self) -> str:
        parts = [self.message] if self.message else []
        if self.info is not None:
            parts.append(str(self.info))
        return "\n".join(parts)


class Locker(Protocol):
    """A mutual-exclusion lock on one state (Terraform's `statemgr.Locker`)."""

    def lock(self, info: LockInfo) -> tuple[str, LockError | None]:
        """Take the lock now (no waiting); the lock ID, or why it could not be taken."""
        ...

    def unlock(self, lock_id: str) -> LockError | None:
        """Release a lock this locker holds; refuses an ID other than the one it holds."""
        ...

    def force_unlock(self, lock_id: str) -> LockError | None:
        """Remove a lock held by someone else (or left by a crash), given its exact ID."""
        ...


@runtime_checkable
class ReplaceAwareLocker(Protocol):
    """A locker that must be told when the state file was replaced (renamed over)."""

    def after_state_replaced(self) -> None: ...


# ------------------------------------------------------------------------------ fcntl locks
_OFD = getattr(fcntl, "F_OFD_SETLK", None)


def _try_write_lock(fd: int) -> bool:
    """Take a non-blocking write lock on the whole file; False when someone else holds one."""
    try:
        if _OFD is not None:
            fcntl.fcntl(fd, _OFD, struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, 0, 0, 0))
        else:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EAGAIN, errno.EACCES):
            return False
        raise
    return True


def lock_info_path(state_path: str) -> str:
    """Terraform's lock info file: `.<name>.lock.info` beside the state (one leading dot)."""
    directory, name = os.path.split(state_path)
    if name.startswith("."):
        name = name[1:]
    return os.path.join(directory, f".{name}.lock.info")


def _read_info_file(path: str) -> LockInfo | None:
    try:
        with open(path, encoding="utf-8") as fh:
            return LockInfo.from_json(fh.read())
    except OSError:
        return None


@dataclass
class FilesystemLocker:
    """The local backend's lock on the state file at `path` (see the module docstring).

    One instance holds at most one lock; it is safe to use from several threads.
    """

    path: str
    info_path: str = ""
    _mu: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _state_fd: int | None = field(default=None, repr=False)
    _info_fd: int | None = field(default=None, repr=False)
    _lock_id: str = field(default="", repr=False)
    _created: bool = field(default=False, repr=False)

    def __post_init__(self) -> None:
        if not self.info_path:
            self.info_path = lock_info_path(self.path)

    @property
    def lock_id(self) -> str:
        """The ID of the lock this locker holds, or "" when it holds none."""
        return self._lock_id

    def lock(self, info: LockInfo) -> tuple[str, LockError | None]:
        with self._mu:
            if self._lock_id:
                return "", LockError(f"state {json.dumps(self.path)} already locked")
            try:
                return self._lock(info)
            except OSError as exc:
                self._close_all()
                return "", LockError(f"{exc.filename or self.path}: {exc.strerror or exc}")

    def _lock(self, info: LockInfo) -> tuple[str, LockError | None]:
        directory = os.path.dirname(os.path.abspath(self.path))
        os.makedirs(directory, exist_ok=True)
        self._created = not os.path.exists(self.path)
        self._state_fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        if not _try_write_lock(self._state_fd):
            self._close_all()
            return "", LockError(_EAGAIN_TEXT, _read_info_file(self.info_path) or LockInfo())
        try:
            self._info_fd = os.open(
                self.info_path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600
            )
        except FileExistsError:
            # Left by a crashed holder (nobody holds its lock), by Terraform (which never
            # locks it) or held by a live groundplan process whose state-file lock moved.
            self._info_fd = os.open(self.info_path, os.O_RDWR)
        if not _try_write_lock(self._info_fd):
            holder = _read_info_file(self.info_path) or LockInfo()
            self._close_all()
            return "", LockError(_EAGAIN_TEXT, holder)
        info.path = self.path
        info.created_ns = time.time_ns()
        data = info.to_json().encode("utf-8")
        os.ftruncate(self._info_fd, 0)
        os.pwrite(self._info_fd, data, 0)
        os.fsync(self._info_fd)
        self._lock_id = info.id
        return info.id, None

    def after_state_replaced(self) -> None:
        """Re-take the state-file lock on the file now at `path` after a rename replaced it.

        Terraform locks whatever file the path names; without this, a Terraform process could
        lock the new file while we still hold the lock on the replaced one.
        """
        with self._mu:
            if not self._lock_id or self._state_fd is None:
                return
            try:
                cur = os.fstat(self._state_fd)
                now = os.stat(self.path)
                if (cur.st_dev, cur.st_ino) == (now.st_dev, now.st_ino):
                    return
                fd = os.open(self.path, os.O_RDWR)
            except OSError:
                return
            if _try_write_lock(fd):
                old, self._state_fd = self._state_fd, fd
                os.close(old)
            else:
                os.close(fd)

    def unlock(self, lock_id: str) -> LockError | None:
        with self._mu:
            if not self._lock_id:
                return LockError("LocalState not locked")
            if lock_id != self._lock_id:
                return LockError(
                    f"invalid lock id: {json.dumps(lock_id)}. "
                    f"current id: {json.dumps(self._lock_id)}",
                    _read_info_file(self.info_path),
                )
            with contextlib.suppress(OSError):
                os.unlink(self.info_path)
            self._close_all()
            self._lock_id = ""
            if self._created:
                with contextlib.suppress(OSError):
                    if os.path.getsize(self.path) == 0:
                        os.unlink(self.path)
            return None

    def force_unlock(self, lock_id: str) -> LockError | None:
        """Remove a stale lock (its holder is gone) given its ID; refuses a wrong ID.

        A lock held by this locker is released as by `unlock`. A lock held by a live process
        cannot be removed from outside (as with Terraform's local state).
        """
        if self._lock_id:
            if lock_id != self._lock_id:
                return self._mismatch(lock_id, _read_info_file(self.info_path))
            return self.unlock(lock_id)
        current = _read_info_file(self.info_path)
        if current is None:
            return LockError("LocalState not locked")
        if lock_id != current.id:
            return self._mismatch(lock_id, current)
        if self._held_elsewhere():
            return LockError("Local state cannot be unlocked by another process", current)
        with contextlib.suppress(OSError):
            os.unlink(self.info_path)
        return None

    @staticmethod
    def _mismatch(lock_id: str, current: LockInfo | None) -> LockError:
        cur_id = current.id if current is not None else ""
        return LockError(
            f"lock ID {json.dumps(lock_id)} does not match existing lock ID {json.dumps(cur_id)}",
            current,
        )

    def _held_elsewhere(self) -> bool:
        for path in (self.info_path, self.path):
            try:
                fd = os.open(path, os.O_RDWR)
            except OSError:
                continue
            try:
                if not _try_write_lock(fd):
                    return True
            finally:
                os.close(fd)  # closing our own probe releases the probe's lock
        return False

    def _close_all(self) -> None:
        for name in ("_info_fd", "_state_fd"):
            fd = getattr(self, name)
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
                setattr(self, name, None)


# ------------------------------------------------------------------------------ helpers
def acquire(
    locker: Locker,
    info: LockInfo,
    timeout: float = 0.0,
    *,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
    jitter: Callable[[], float] = random.random,
) -> tuple[str, Diagnostics]:
    """Take the lock, retrying while someone else holds it until `timeout` seconds pass.

    Back-off as Terraform's `LockWithContext`: 1 s, doubling up to 16 s (never past the
    deadline, with a last try at it), each wait jittered to between half and all of its step
    so that many waiters do not retry in step. Failure is Terraform's "Error acquiring the
    state lock".
    """
    diags = Diagnostics()
    deadline = clock() + max(timeout, 0.0)
    delay = 1.0
    while True:
        lock_id, err = locker.lock(info)
        if err is None:
            return lock_id, diags
        remaining = deadline - clock()
        if err.info is None or not err.info.id or remaining <= 0:
            diags.append(error("Error acquiring the state lock", LOCK_ERROR_MESSAGE.format(err)))
            return "", diags
        sleep(min(delay * (0.5 + jitter() / 2), remaining))
        delay = min(delay * 2, 16.0)


def release(locker: Locker, lock_id: str) -> Diagnostics:
    """Release a lock; Terraform's "Error releasing the state lock" when that fails."""
    diags = Diagnostics()
    if not lock_id:
        return diags
    err = locker.unlock(lock_id)
    if err is not None:
        diags.append(error("Error releasing the state lock", UNLOCK_ERROR_MESSAGE.format(err)))
    return diags


def force_unlock(locker: Locker, lock_id: str) -> Diagnostics:
    """`force-unlock LOCK_ID`: "Failed to unlock state: <why>" when refused."""
    diags = Diagnostics()
    err = locker.force_unlock(lock_id)
    if err is not None:
        detail = str(err.info) if err.info is not None else ""
        diags.append(error(f"Failed to unlock state: {err.message}", detail))
    return diags
