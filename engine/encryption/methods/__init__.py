"""Encryption methods: what turns a payload into ciphertext with a key provider's keys.

`aes_gcm` encrypts; `unencrypted` stands for plaintext and is only meaningful in a target's
method list (writing plaintext as primary, or reading plaintext as a fallback during a
migration): the target never calls it.
"""

from __future__ import annotations

from dataclasses import dataclass


class MethodError(Exception):
    """Encrypting or decrypting with one method failed (wrong key, tampered data, ...)."""


@dataclass(frozen=True)
class Unencrypted:
    """`method "unencrypted"`: the payload stays plaintext."""

    addr: str

    @property
    def key_provider_addrs(self) -> tuple[str, ...]:
        return ()
