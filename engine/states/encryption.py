"""What state and plan storage needs from an encryption: bytes in, bytes out.

Storage calls `encrypt` on the serialized document before it is written anywhere and
`decrypt` on what it read before parsing it; a failure is an `EncryptionError` carrying the
diagnostics to report (naming the target and the key provider), raised by these methods only
and turned into diagnostics by the storage that called them. `PASSTHROUGH` is the identity
used when no encryption is configured. The implementations (OpenTofu's key providers and
methods, configured by `terraform { encryption { ... } }`) are engine.encryption, which
ranks above the configuration and evaluation packages it reads; storage ranks below them
and knows only this seam.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

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


class OperationEncryption(Protocol):
    """The encryption of one operation, built from its configuration and root inputs (as
    OpenTofu's command/meta_encryption.go): what an operation request carries so that the
    operation checks the `encryption` block with the configuration, records the root input
    values it configures from, and encrypts saved plans. The state's encryption is the
    backend's (built lazily through this same object, so the recorded inputs count)."""

    def check_encryption(self, config: Any) -> Diagnostics:
        """The problems of `config`'s encryption configuration (file and line), values not
        given yet unknown; remembers the configuration."""
        ...

    def record_encryption_inputs(self, values: Mapping[str, Any]) -> None:
        """The operation's root input values (the encryption is rebuilt with them)."""
        ...

    def plan_encryption(self) -> PlanEncryption:
        """What saved plan files are encrypted and decrypted with."""
        ...


class _Passthrough:
    """No encryption: what is given is what is stored."""

    def encrypt(self, data: bytes) -> bytes:
        return data

    def decrypt(self, data: bytes) -> bytes:
        return data


PASSTHROUGH: StateEncryption = _Passthrough()

__all__ = ["PASSTHROUGH", "EncryptionError", "OperationEncryption", "PlanEncryption",
           "StateEncryption"]
