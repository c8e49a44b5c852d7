"""bcrypt as Go's `golang.org/x/crypto/bcrypt` writes it: `$2a$<cost>$<22 salt><31 hash>`.

The digest itself comes from the `bcrypt` library (pyca); this module keeps Go's rules
around it: `GenerateFromPassword` refuses passwords over 72 bytes, treats a cost below 4 as
the default (10) and refuses one above 31, with Go's messages.
"""

from __future__ import annotations

import os

import bcrypt as _pyca

__all__ = ["DEFAULT_COST", "MAX_COST", "MIN_COST", "BcryptError", "compare_hash_and_password",
           "generate_from_password"]

MIN_COST = 4
MAX_COST = 31
DEFAULT_COST = 10
_ALPHABET = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


class BcryptError(ValueError):
    """`GenerateFromPassword` refused its input; `str()` is Go's message."""


def encode_salt(salt: bytes) -> str:
    """16 salt bytes in bcrypt's base64 alphabet (22 characters, no padding)."""
    bits = int.from_bytes(salt, "big") << 4  # 128 bits -> 132 = 22 sextets
    return "".join(_ALPHABET[(bits >> (6 * i)) & 0x3F] for i in range(21, -1, -1))


def generate_from_password(password: bytes, cost: int = DEFAULT_COST,
                           salt: bytes | None = None) -> str:
    """The `$2a$` hash of `password` with a random (or the given 16-byte) salt."""
    if len(password) > 72:
        raise BcryptError("bcrypt: password length exceeds 72 bytes")
    if cost < MIN_COST:
        cost = DEFAULT_COST
    if cost > MAX_COST:
        raise BcryptError(
            f"crypto/bcrypt: cost {cost} is outside allowed range ({MIN_COST},{MAX_COST})"
        )
    setting = f"$2a${cost:02d}${encode_salt(salt if salt is not None else os.urandom(16))}"
    return _pyca.hashpw(password, setting.encode("ascii")).decode("ascii")


def compare_hash_and_password(hashed: str, password: bytes) -> bool:
    """Whether `hashed` (`$2a$`, `$2b$`, `$2y$`) is a bcrypt hash of `password`."""
    try:
        return _pyca.checkpw(password, hashed.encode("ascii"))
    except ValueError:
        return False
