"""Re-encrypting stored state now (groundplan's `state re-encrypt`; OpenTofu rewrites state
only on its next write): each workspace's stored payload is read under its lock, decrypted
with the configured methods (primary, then fallbacks), checked to be a state, encrypted with
the primary method and replaced atomically, the previous stored form kept as
`<state>.backup`. Content, serial and lineage stay as they were. Local state files only: a
remote backend's states are re-encrypted on their next write.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.diags import Diagnostics, error
from engine.states.encryption import EncryptionError
from engine.states.local import atomic_write, display_path
from engine.states.lock import FilesystemLocker, acquire, new_lock_info, release
from engine.states.statefile import read_state


@dataclass
class Outcome:
    """What happened to one workspace's state."""

    workspace: str
    path: str
    status: str  # "re-encrypted", "no state", "failed"
    read_with: dict[str, Any] | None = None
    written_with: dict[str, Any] | None = None
    serial: int | None = None
    lineage: str = ""
    diags: Diagnostics = field(default_factory=Diagnostics)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"workspace": self.workspace, "path": self.path,
                               "status": self.status, "read_with": self.read_with,
                               "written_with": self.written_with, "serial": self.serial,
                               "lineage": self.lineage}
        if self.diags.has_errors:
            out["error"] = "\n".join(f"{d.summary}: {d.detail}" for d in self.diags.errors)
        return out


def describe(method: Any) -> dict[str, Any]:
    from engine.encryption.methods import Unencrypted

    return {"method": method.addr, "key_providers": list(method.key_provider_addrs),
            "encrypted": not isinstance(method, Unencrypted)}


def reencrypt_one(target: Any, workspace: str, path: str, lock: bool, timeout: float) -> Outcome:
    """Re-encrypt the state file at `path` with `target`'s primary method."""
    out = Outcome(workspace, display_path(path), "failed")
    locker = FilesystemLocker(path) if lock else None
    lock_id = ""
    if locker is not None:
        lock_id, ldiags = acquire(locker, new_lock_info("OperationTypeReencrypt"), timeout)
        if ldiags.has_errors:
            out.diags.extend(ldiags)
            return out
    try:
        try:
            with open(path, "rb") as fh:
                stored = fh.read()
        except FileNotFoundError:
            stored = b""
        except OSError as exc:
            out.diags.append(error("Failed to read state file", f"{path}: {exc.strerror}"))
            return out
        if not stored:
            out.status = "no state"
            return out
        try:
            plain = target.decrypt(stored)
        except EncryptionError as exc:
            out.diags.extend(exc.diags)
            return out
        sf, rdiags = read_state(plain)
        if sf is None or rdiags.has_errors:
            out.diags.extend(rdiags)
            return out
        info = target.last_read
        out.read_with = {"method": info.method, "key_providers": list(info.key_providers),
                         "encrypted": info.encrypted}
        out.serial, out.lineage = sf.serial, sf.lineage
        try:
            fresh = target.encrypt(plain)
        except EncryptionError as exc:
            out.diags.extend(exc.diags)
            return out
        try:
            atomic_write(path + ".backup", stored)
            atomic_write(path, fresh)
        except OSError as exc:
            out.diags.append(error("Failed to save state", f"{path}: {exc.strerror or exc}"))
            return out
        out.written_with = describe(target.primary)
        out.status = "re-encrypted"
        return out
    finally:
        if locker is not None:
            out.diags.extend(release(locker, lock_id))
