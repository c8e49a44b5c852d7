"""The apply journal: an append-only record of provider calls and their results.

One JSON object per line (Go-style compact JSON, so attribute numbers keep their exact
digits), each written with a single `write` and made durable with `fdatasync` before the call
returns. Record kinds:

- `intent`  — written before a provider call: `seq`, `addr`, `action`, `deposed`;
- `result`  — written after it: `seq`, `addr`, `deposed`, `status`, `provider` and the new
  `object` (`null` when the call removed the object);
- `persist` — written just before a snapshot is stored: the highest serial it may get.

Every record carries the `lineage` and `serial` of the persisted snapshot it applies on top
of ("" and 0 before the first snapshot of a new state).

`read_journal` tolerates a torn last line (a crash in the middle of a write) and reports any
other unreadable line. `replay` applies the recorded results, in order, over the last persisted
state; because each result sets or removes one object, replaying a result the snapshot already
holds changes nothing. It also names every instance whose operation began (an intent) without
a recorded result.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.addrs import AbsResourceInstance, AddressSyntaxError, parse_abs_resource_instance
from engine.diags import Diagnostics, error
from engine.gocompat import json as gojson
from engine.states.state import ResourceInstanceObject, State
from engine.states.sync import SyncState

INTENT = "intent"
RESULT = "result"
PERSIST = "persist"


def journal_path(state_path: str) -> str:
    """The default journal file for a state file: `<state path>.journal`."""
    return state_path + ".journal"


# ------------------------------------------------------------------------------ objects
def object_to_json(obj: ResourceInstanceObject) -> dict[str, Any]:
    """A resource instance object as journal JSON data (every field kept)."""
    return {
        "schema_version": obj.schema_version,
        "attributes": obj.attributes,
        "attributes_flat": obj.attributes_flat,
        "sensitive_attributes": obj.sensitive_attributes,
        "private": obj.private,
        "dependencies": obj.dependencies,
        "create_before_destroy": obj.create_before_destroy,
        "status": obj.status,
    }


def object_from_json(data: dict[str, Any]) -> ResourceInstanceObject:
    """The inverse of `object_to_json` (numbers stay exact `RawNumber`s)."""
    flat = data.get("attributes_flat")
    return ResourceInstanceObject(
        schema_version=int(data.get("schema_version") or 0),
        attributes=data.get("attributes"),
        attributes_flat=dict(flat) if isinstance(flat, dict) else None,
        sensitive_attributes=list(data.get("sensitive_attributes") or []),
        private=data.get("private"),
        dependencies=list(data.get("dependencies") or []),
        create_before_destroy=bool(data.get("create_before_destroy", False)),
        status=str(data.get("status") or ""),
    )


# ------------------------------------------------------------------------------ records
@dataclass(slots=True)
class Record:
    """One journal line, decoded. Fields a kind does not use keep their defaults."""

    kind: str
    lineage: str = ""
    serial: int = 0
    seq: int = 0
    addr: str = ""
    action: str = ""
    deposed: str = ""
    status: str = ""
    provider: str = ""
    object: ResourceInstanceObject | None = None


def _record_from_json(data: Any) -> Record | None:
    if not isinstance(data, dict) or data.get("kind") not in (INTENT, RESULT, PERSIST):
        return None
    obj = data.get("object")
    return Record(
        kind=data["kind"],
        lineage=str(data.get("lineage") or ""),
        serial=int(data.get("serial") or 0),
        seq=int(data.get("seq") or 0),
        addr=str(data.get("addr") or ""),
        action=str(data.get("action") or ""),
        deposed=str(data.get("deposed") or ""),
        status=str(data.get("status") or ""),
        provider=str(data.get("provider") or ""),
        object=object_from_json(obj) if isinstance(obj, dict) else None,
    )


def read_journal(
    path: str, unseal: Callable[[bytes], bytes] | None = None
) -> tuple[list[Record], Diagnostics]:
    """All complete records in the journal at `path` ([] when there is no journal);
    `unseal` decrypts each line (the state's encryption) before it is parsed.

    A last line that is incomplete or unreadable is a write torn by a crash and is dropped;
    an unreadable line anywhere else is an error.
    """
    diags = Diagnostics()
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        return [], diags
    except OSError as exc:
        diags.append(error("Failed to read the state journal", f"{path}: {exc.strerror}"))
        return [], diags
    lines = data.split(b"\n")
    records: list[Record] = []
    last = len(lines) - 1
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        rec: Record | None
        try:
            if unseal is not None:
                line = unseal(line)
            rec = _record_from_json(gojson.loads(line.decode("utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError, ValueError, TypeError):
            rec = None
        except Exception as exc:  # the encryption's error kinds: a line that does not decrypt
            if i == last:
                continue
            diags.append(error("The state journal could not be decrypted",
                               f"Line {i + 1} of {path}: {exc}"))
            return records, diags
        if rec is None:
            # Each record is one write ending in its newline, so only the final segment (no
            # newline after it) can be a torn write; a line ended by a newline must read.
            if i == last:
                continue
            diags.append(
                error(
                    "The state journal is corrupt",
                    f"Line {i + 1} of {path} is not a journal record. The journal cannot be "
                    "replayed; inspect it, then move it aside to continue.",
                )
            )
            return records, diags
        records.append(rec)
    return records, diags


def replay(
    records: list[Record], state: State | None
) -> tuple[State, list[AbsResourceInstance]]:
    """`state` with the recorded results applied in order, and the instances begun unrecorded.

    The second list names, in the order they began and once each, every instance with an
    intent whose `seq` has no result. Records whose address does not parse are skipped (they
    cannot have been written by the journal, which writes only parsed addresses).
    """
    work = SyncState(state)
    pending: dict[int, str] = {}
    for rec in records:
        if rec.kind == INTENT:
            pending[rec.seq] = rec.addr
        elif rec.kind == RESULT:
            pending.pop(rec.seq, None)
            try:
                addr = parse_abs_resource_instance(rec.addr)
            except AddressSyntaxError:
                continue
            if rec.deposed:
                if rec.object is None:
                    work.remove_deposed(addr, rec.deposed)
                else:
                    work.set_deposed(addr, rec.deposed, rec.object, rec.provider)
            elif rec.object is None:
                work.remove_current(addr)
            else:
                work.set_current(addr, rec.object, rec.provider)
    begun: list[AbsResourceInstance] = []
    seen: set[AbsResourceInstance] = set()
    for seq in sorted(pending):
        try:
            addr = parse_abs_resource_instance(pending[seq])
        except AddressSyntaxError:
            continue
        if addr not in seen:
            seen.add(addr)
            begun.append(addr)
    return work.snapshot(), begun


# ------------------------------------------------------------------------------ writing
class Journal:
    """An open journal file that appends durable records; safe to use from many threads.

    `lineage` and `serial` are the snapshot the next records apply to; the state manager
    updates them (`set_base`) after each snapshot it persists.
    """

    def __init__(self, path: str, lineage: str = "", serial: int = 0,
                 seal: Callable[[bytes], bytes] | None = None) -> None:
        self.path = path
        self.seal = seal  # the state's encryption, applied to each record (one line each)
        self.lineage = lineage
        self.serial = serial
        self._fd: int | None = None
        self._mu = threading.Lock()
        self._sync_mu = threading.Lock()
        self._written = 0  # records written (in order) ...
        self._synced = 0  # ... and how many of them are known durable
        self.records_written = 0

    def open(self) -> Diagnostics:
        """Open (creating if needed) the journal for appending."""
        diags = Diagnostics()
        try:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        except OSError as exc:
            diags.append(error("Failed to open the state journal", f"{self.path}: {exc.strerror}"))
        return diags

    def set_base(self, lineage: str, serial: int) -> None:
        """Records from now on apply on top of the snapshot (`lineage`, `serial`)."""
        with self._mu:
            self.lineage, self.serial = lineage, serial

    def intent(
        self, addr: AbsResourceInstance, action: str, seq: int, deposed: str = ""
    ) -> Diagnostics:
        """Record that operation `seq` (`action` on `addr`) is about to call the provider."""
        return self._append(
            {"kind": INTENT, "seq": seq, "addr": str(addr), "action": action, "deposed": deposed}
        )

    def result(
        self,
        addr: AbsResourceInstance,
        seq: int,
        obj: ResourceInstanceObject | None,
        status: str = "ok",
        *,
        provider: str = "",
        deposed: str = "",
    ) -> Diagnostics:
        """Record the outcome of operation `seq`: the new object, or None for a removal."""
        return self._append(
            {
                "kind": RESULT,
                "seq": seq,
                "addr": str(addr),
                "deposed": deposed,
                "status": status,
                "provider": provider,
                "object": None if obj is None else object_to_json(obj),
            }
        )

    def persisting(self, serial: int) -> Diagnostics:
        """Record that a snapshot with serial at most `serial` is about to be stored."""
        return self._append({"kind": PERSIST}, serial=serial)

    def _append(self, doc: dict[str, Any], serial: int | None = None) -> Diagnostics:
        """Write one record and return once it is durable.

        Writes are serialised; the `fdatasync` is shared (group commit): a writer whose bytes
        another thread's sync already covered returns without syncing again.
        """
        diags = Diagnostics()
        with self._mu:
            doc["lineage"] = self.lineage
            doc["serial"] = self.serial if serial is None else serial
            line = gojson.dumps(doc, indent=None).encode("utf-8")
            if self.seal is not None:
                try:
                    line = self.seal(line)
                except Exception as exc:  # the encryption's own error kinds: nothing written
                    diags.append(error("Failed to write the state journal", str(exc)))
                    return diags
            line += b"\n"
            fd = self._fd
            if fd is None:
                diags.append(error("Failed to write the state journal", "It is not open."))
                return diags
            try:
                view = memoryview(line)
                while view:
                    n = os.write(fd, view)
                    view = view[n:]
            except OSError as exc:
                diags.append(
                    error("Failed to write the state journal", f"{self.path}: {exc.strerror}")
                )
                return diags
            self._written += 1
            mine = self._written
            self.records_written += 1
        with self._sync_mu:
            if self._synced >= mine:
                return diags
            target = self._written
            try:
                os.fdatasync(fd)
            except OSError as exc:
                diags.append(
                    error("Failed to write the state journal", f"{self.path}: {exc.strerror}")
                )
                return diags
            self._synced = target
        return diags

    def close(self) -> None:
        with self._mu, self._sync_mu:
            if self._fd is not None:
                with contextlib.suppress(OSError):
                    os.close(self._fd)
                self._fd = None

    def delete(self) -> Diagnostics:
        """Close and remove the journal file."""
        self.close()
        return delete_journal(self.path)


def delete_journal(path: str) -> Diagnostics:
    """Remove the journal at `path` (and make the removal durable)."""
    diags = Diagnostics()
    try:
        os.unlink(path)
    except FileNotFoundError:
        return diags
    except OSError as exc:
        diags.append(error("Failed to remove the state journal", f"{path}: {exc.strerror}"))
        return diags
    with contextlib.suppress(OSError):
        dfd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    return diags
