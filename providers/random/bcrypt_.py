"""bcrypt for `random_password.bcrypt_hash`, as hashicorp/random writes it.

hashicorp/random hashes the result's UTF-8 bytes, truncated to 72 bytes (bcrypt's limit),
with Go's `bcrypt.GenerateFromPassword(..., bcrypt.DefaultCost)`: a `$2a$10$` hash with a
random salt. The digest comes from the `bcrypt` library (pyca).
"""

from __future__ import annotations

import bcrypt

__all__ = ["DEFAULT_COST", "bcrypt_check", "bcrypt_hash"]

DEFAULT_COST = 10  # Go's bcrypt.DefaultCost


def bcrypt_hash(password: str, cost: int = DEFAULT_COST) -> str:
    """`$2a$<cost>$<22 salt chars><31 hash chars>` for `password`'s first 72 bytes."""
    if not 4 <= cost <= 31:
        raise ValueError("bcrypt cost must be between 4 and 31")
    salt = bcrypt.gensalt(rounds=cost, prefix=b"2a")
    return bcrypt.hashpw(password.encode("utf-8")[:72], salt).decode("ascii")


def bcrypt_check(password: str, hashed: str) -> bool:
    """Whether `hashed` (`$2a$`/`$2b$`/`$2y$`) is a bcrypt hash of `password`'s first 72 bytes."""
    try:
        return bcrypt.checkpw(password.encode("utf-8")[:72], hashed.encode("ascii"))
    except ValueError:
        return False
