"""`method "aes_gcm"`: AES in Galois/Counter Mode, as OpenTofu's method/aesgcm.

The ciphertext is `nonce (12 random bytes) || AES-GCM-Seal(key, nonce, data, aad)` (the
16-byte tag at the end); keys of 16, 24 or 32 bytes (AES-128/192/256) come from the key
provider named by `keys`; `aad` (a list of byte values) is the additional authenticated data.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from engine.encryption.keyproviders import KeyProvider, KeyProviderError
from engine.encryption.methods import MethodError

NONCE_SIZE = 12
VALID_KEY_LENGTHS = (16, 24, 32)


def key_length_problem(length: int, which: str) -> str | None:
    """OpenTofu's message for a key of the wrong length, or None."""
    if length in VALID_KEY_LENGTHS:
        return None
    return (f"AES-GCM requires the key length to be one of: [16 24 32], received {length} bytes "
            f"in the {which} key")


@dataclass
class AesGcm:
    """A configured aes_gcm method over `keys` (a key provider)."""

    addr: str
    keys: KeyProvider
    aad: bytes = b""

    @property
    def key_provider_addrs(self) -> tuple[str, ...]:
        return chain_addrs(self.keys)

    def encrypt(self, data: bytes, out_meta: dict[str, bytes]) -> bytes:
        key = self.keys.encryption_key(out_meta)
        problem = key_length_problem(len(key), "encryption")
        if problem:
            raise KeyProviderError(problem)
        nonce = os.urandom(NONCE_SIZE)
        return nonce + AESGCM(key).encrypt(nonce, data, self.aad or None)

    def decrypt(self, data: bytes, in_meta: dict[str, bytes]) -> bytes:
        key = self.keys.decryption_key(in_meta)
        if not key:
            raise MethodError("the decryption key is not available (the payload holds no "
                              f"metadata for {self.keys.meta_key})")
        problem = key_length_problem(len(key), "decryption")
        if problem:
            raise MethodError(problem)
        if not data:
            raise MethodError("cannot decrypt empty data")
        if len(data) < NONCE_SIZE:
            raise MethodError("cannot decrypt data because it is too small (likely data "
                              "corruption)")
        try:
            return AESGCM(key).decrypt(data[:NONCE_SIZE], data[NONCE_SIZE:], self.aad or None)
        except InvalidTag:
            raise MethodError("cipher: message authentication failed") from None


def chain_addrs(kp: KeyProvider) -> tuple[str, ...]:
    """`kp`'s address and those of the providers it chains from, outermost first."""
    out = [kp.addr]
    chained = getattr(kp, "chain", None)
    while chained is not None:
        out.append(chained.addr)
        chained = getattr(chained, "chain", None)
    return tuple(out)
