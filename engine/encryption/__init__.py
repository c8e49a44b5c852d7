"""State and plan encryption, configured as OpenTofu's `terraform { encryption { ... } }`.

The seam every storage uses is `StateEncryption` / `PlanEncryption`: bytes in, bytes out.
Storage calls `encrypt` on the serialized document before it is written anywhere and
`decrypt` on what it read before parsing it; a failure is an `EncryptionError` carrying the
diagnostics to report (naming the target and the key provider), raised by these methods only
and turned into diagnostics by the storage that called them. `PASSTHROUGH` is the identity
used when no encryption is configured.
"""

from __future__ import annotations

from typing import Protocol

from engine.diags import Diagnostics


class EncryptionError(Exception):
    """Encrypting or decrypting a payload failed; `diags` says why, for the user."""

    def __init__(self, diags: Diagnostics) -> None:
        super().__init__("; ".join(f"{d.summary}: {d.detail}" if d.detail else d.summary
                                   for d in diags))
        self.diags = diags


class StateEncryption(Protocol):
    """Encrypts and decrypts state payloads (terraform v4 JSON in, stored bytes out)."""

    def encrypt(self, data: bytes) -> bytes: ...

    def decrypt(self, data: bytes) -> bytes: ...


class PlanEncryption(Protocol):
    """Encrypts and decrypts saved plan files (the zip archive in, stored bytes out)."""

    def encrypt(self, data: bytes) -> bytes: ...

    def decrypt(self, data: bytes) -> bytes: ...


class _Passthrough:
    """No encryption: what is given is what is stored."""

    def encrypt(self, data: bytes) -> bytes:
        return data

    def decrypt(self, data: bytes) -> bytes:
        return data


PASSTHROUGH: StateEncryption = _Passthrough()

__all__ = ["PASSTHROUGH", "EncryptionError", "PlanEncryption", "StateEncryption"]
