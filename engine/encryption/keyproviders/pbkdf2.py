"""`key_provider "pbkdf2"`: a key derived from a passphrase (or a chained provider's key) with
PBKDF2-HMAC, as OpenTofu's keyprovider/pbkdf2.

Metadata (the payload's `meta["key_provider.pbkdf2.NAME"]`, base64 of this JSON):
`{"salt":"<base64>","iterations":600000,"hash_function":"sha512","key_length":32}`.
Defaults: key_length 32, iterations 600,000 (at least 200,000), salt_length 32, sha512;
passphrases (and chained keys) of at least 16 bytes.

A writer derives its key once, with a fresh random salt, and keeps it for every write of the
process (OpenTofu sets its method up once per run the same way); a reader derives the key of
each (passphrase, salt, parameters) once per process and caches it.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import threading
from dataclasses import dataclass, field

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

from engine.encryption.keyproviders import KeyProvider, KeyProviderError, go_json, put_meta

DEFAULT_KEY_LENGTH = 32
DEFAULT_ITERATIONS = 600_000
DEFAULT_SALT_LENGTH = 32
DEFAULT_HASH = "sha512"
MINIMUM_ITERATIONS = 200_000
MINIMUM_PASSPHRASE_LENGTH = 16
HASH_FUNCTIONS = {"sha256": hashes.SHA256, "sha512": hashes.SHA512}

_cache_lock = threading.Lock()
_derived: dict[tuple[bytes, bytes, int, str, int], bytes] = {}
derivations = 0  # how many PBKDF2 derivations this process ran (the benchmark reports it)


def derive(passphrase: bytes, salt: bytes, iterations: int, hash_name: str, length: int) -> bytes:
    """PBKDF2-HMAC(`hash_name`) of `passphrase`; each distinct input derived once a process."""
    global derivations
    key = (passphrase, salt, iterations, hash_name, length)
    with _cache_lock:
        found = _derived.get(key)
    if found is not None:
        return found
    kdf = PBKDF2HMAC(algorithm=HASH_FUNCTIONS[hash_name](), length=length, salt=salt,
                     iterations=iterations)
    out = kdf.derive(passphrase)
    with _cache_lock:
        _derived[key] = out
        derivations += 1
    return out


def check_settings(key_length: int, iterations: int, salt_length: int, hash_function: str,
                   passphrase: str | None) -> str | None:
    """What is wrong with these settings (OpenTofu's Config.Build messages), or None."""
    if passphrase is not None and len(passphrase.encode()) < MINIMUM_PASSPHRASE_LENGTH:
        return f"passphrase is too short (minimum {MINIMUM_PASSPHRASE_LENGTH} characters)"
    if key_length <= 0:
        return "the key length must be larger than zero"
    if iterations <= 0:
        return "the number of iterations must be larger than zero"
    if iterations < MINIMUM_ITERATIONS:
        return (f"the number of iterations is dangerously low (<{MINIMUM_ITERATIONS}), "
                "refusing to generate key")
    if salt_length <= 0:
        return "the salt length must be larger than zero"
    if hash_function not in HASH_FUNCTIONS:
        return ("please specify a hash function" if not hash_function
                else f"invalid hash function name: {hash_function}")
    return None


@dataclass
class Pbkdf2KeyProvider:
    """A configured pbkdf2 key provider: `passphrase` or `chain`, never both."""

    addr: str
    meta_key: str
    passphrase: str | None = None
    chain: KeyProvider | None = None
    key_length: int = DEFAULT_KEY_LENGTH
    iterations: int = DEFAULT_ITERATIONS
    salt_length: int = DEFAULT_SALT_LENGTH
    hash_function: str = DEFAULT_HASH
    _enc: tuple[bytes, dict[str, bytes]] | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def _upstream(self, key: bytes | None, which: str) -> bytes | None:
        if key is None:
            return None
        if len(key) < MINIMUM_PASSPHRASE_LENGTH:
            raise KeyProviderError(
                f"upstream key provider supplied an {which} key that is too short (minimum "
                f"{MINIMUM_PASSPHRASE_LENGTH} characters)")
        return key

    def encryption_key(self, out_meta: dict[str, bytes]) -> bytes:
        with self._lock:
            if self._enc is None:
                contributed: dict[str, bytes] = {}
                if self.chain is not None:
                    secret = self._upstream(self.chain.encryption_key(contributed), "encryption")
                    if secret is None:
                        raise KeyProviderError("no encryption key provided from upstream key "
                                               "provider")
                elif self.passphrase:
                    secret = self.passphrase.encode()
                else:
                    raise KeyProviderError("no passphrase provided and no chained provider "
                                           "defined")
                salt = os.urandom(self.salt_length)
                key = derive(secret, salt, self.iterations, self.hash_function, self.key_length)
                put_meta(contributed, self.meta_key, go_json({
                    "salt": base64.b64encode(salt).decode(), "iterations": self.iterations,
                    "hash_function": self.hash_function, "key_length": self.key_length}))
                self._enc = (key, contributed)
            key, contributed = self._enc
        for k, v in contributed.items():
            put_meta(out_meta, k, v)
        return key

    def decryption_key(self, in_meta: dict[str, bytes]) -> bytes | None:
        raw = in_meta.get(self.meta_key)
        if raw is None:
            return None
        try:
            doc = json.loads(raw)
            salt = base64.b64decode(doc.get("salt") or "", validate=True)
            iterations = int(doc.get("iterations") or 0)
            hash_name = str(doc.get("hash_function") or "")
            length = int(doc.get("key_length") or 0)
        except (ValueError, TypeError, AttributeError, binascii.Error) as exc:
            raise KeyProviderError(
                f"Unable to decode encrypted metadata (did you change your encryption config?): "
                f"metadata decoder for {self.meta_key} failed with error: {exc}") from None
        if not (salt and iterations and hash_name and length):
            return None
        if iterations < 0:
            raise KeyProviderError(f"invalid number of iterations ({iterations})")
        if length < 0:
            raise KeyProviderError(f"invalid key length ({length})")
        if hash_name not in HASH_FUNCTIONS:
            raise KeyProviderError(f"invalid hash function name: {hash_name}")
        if self.chain is not None:
            secret = self._upstream(self.chain.decryption_key(in_meta), "decryption")
            if secret is None:
                return None
        elif self.passphrase:
            secret = self.passphrase.encode()
        else:
            raise KeyProviderError("no passphrase provided and no chained provider defined")
        return derive(secret, salt, iterations, hash_name, length)
