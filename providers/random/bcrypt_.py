"""bcrypt (`$2a$`, as Go's golang.org/x/crypto/bcrypt writes it), in pure Python.

`bcrypt_hash(password, cost)` hashes the password's UTF-8 bytes, truncated to 72 bytes as
hashicorp/random does, with a random 16-byte salt; `bcrypt_check(password, hashed)` verifies.
Blowfish's initial P-array and S-boxes are the hexadecimal digits of pi, computed here once
(Machin's formula in integer arithmetic) instead of being tabulated.
"""

from __future__ import annotations

import functools
import hmac
import secrets

__all__ = ["DEFAULT_COST", "bcrypt_check", "bcrypt_hash"]

# Go's bcrypt.DefaultCost is 10; in pure Python that takes ~10 s, so random_password uses 6
# (~0.2 s). The cost is recorded in the hash, so any bcrypt verifier accepts it.
DEFAULT_COST = 6
_ALPHABET = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_MAGIC = b"OrpheanBeholderScryDoubt"
_MASK = 0xFFFFFFFF


def _atan_inv(x: int, scale: int) -> int:
    """atan(1/x) * scale, in integers."""
    total = term = scale // x
    x2, n, sign = x * x, 3, -1
    while term:
        term //= x2
        total += sign * (term // n)
        n += 2
        sign = -sign
    return total


@functools.cache
def _pi_words() -> tuple[int, ...]:
    """The first 1042 32-bit words of pi's fractional part (Blowfish's initial state)."""
    bits = 1042 * 32
    guard = 64
    scale = 1 << (bits + guard)
    pi = 16 * _atan_inv(5, scale) - 4 * _atan_inv(239, scale)
    frac = (pi - 3 * scale) >> guard
    return tuple((frac >> (bits - 32 * (i + 1))) & _MASK for i in range(1042))


def _words(data: bytes, count: int) -> list[int]:
    """`count` big-endian words read cyclically from `data` (Blowfish's key stream)."""
    out, j, n = [], 0, len(data)
    for _ in range(count):
        w = 0
        for _ in range(4):
            w = (w << 8) | data[j]
            j = (j + 1) % n
        out.append(w)
    return out


class _Blowfish:
    __slots__ = ("p", "s0", "s1", "s2", "s3")

    def __init__(self) -> None:
        w = _pi_words()
        self.p = list(w[:18])
        self.s0, self.s1 = list(w[18:274]), list(w[274:530])
        self.s2, self.s3 = list(w[530:786]), list(w[786:1042])

    def encrypt(self, left: int, right: int) -> tuple[int, int]:
        p, s0, s1, s2, s3 = self.p, self.s0, self.s1, self.s2, self.s3
        left ^= p[0]
        for i in range(1, 17, 2):
            right ^= ((((s0[left >> 24] + s1[(left >> 16) & 0xFF]) & _MASK)
                       ^ s2[(left >> 8) & 0xFF]) + s3[left & 0xFF]) & _MASK ^ p[i]
            left ^= ((((s0[right >> 24] + s1[(right >> 16) & 0xFF]) & _MASK)
                      ^ s2[(right >> 8) & 0xFF]) + s3[right & 0xFF]) & _MASK ^ p[i + 1]
        return right ^ p[17], left

    def expand(self, key_words: list[int], salt_words: list[int] | None) -> None:
        """Blowfish key expansion; with salt words it is eksblowfish's salted expansion."""
        p = self.p
        for i in range(18):
            p[i] ^= key_words[i]
        left = right = 0
        k = 0
        for table in (p, self.s0, self.s1, self.s2, self.s3):
            for i in range(0, len(table), 2):
                if salt_words is not None:
                    left ^= salt_words[k % 4]
                    right ^= salt_words[(k + 1) % 4]
                    k += 2
                left, right = self.encrypt(left, right)
                table[i], table[i + 1] = left, right


def _b64(data: bytes) -> str:
    out, bits, n = [], 0, 0
    for b in data:
        bits, n = (bits << 8) | b, n + 8
        while n >= 6:
            n -= 6
            out.append(_ALPHABET[(bits >> n) & 0x3F])
    if n:
        out.append(_ALPHABET[(bits << (6 - n)) & 0x3F])
    return "".join(out)


def _unb64(text: str) -> bytes:
    out, bits, n = bytearray(), 0, 0
    for c in text:
        bits, n = (bits << 6) | _ALPHABET.index(c), n + 6
        if n >= 8:
            n -= 8
            out.append((bits >> n) & 0xFF)
    return bytes(out)


def _raw_hash(password: bytes, salt: bytes, cost: int) -> bytes:
    key = password[:72] + b"\x00"
    key_words, salt_words, salt18 = _words(key, 18), _words(salt, 4), _words(salt, 18)
    bf = _Blowfish()
    bf.expand(key_words, salt_words)
    for _ in range(1 << cost):
        bf.expand(key_words, None)
        bf.expand(salt18, None)
    ctext = _words(_MAGIC, 6)
    for _ in range(64):
        for i in (0, 2, 4):
            ctext[i], ctext[i + 1] = bf.encrypt(ctext[i], ctext[i + 1])
    return b"".join(w.to_bytes(4, "big") for w in ctext)[:23]


def bcrypt_hash(password: str, cost: int = DEFAULT_COST, salt: bytes | None = None) -> str:
    """`$2a$<cost>$<22 salt chars><31 hash chars>` for `password` (see the module docstring)."""
    if not 4 <= cost <= 31:
        raise ValueError("bcrypt cost must be between 4 and 31")
    salt = salt if salt is not None else secrets.token_bytes(16)
    raw = _raw_hash(password.encode()[:72], salt, cost)
    return f"$2a${cost:02d}${_b64(salt)}{_b64(raw)}"


def bcrypt_check(password: str, hashed: str) -> bool:
    """Whether `hashed` (`$2a$`/`$2b$`/`$2y$`) is a bcrypt hash of `password`."""
    parts = hashed.split("$")
    if len(parts) != 4 or parts[1] not in ("2a", "2b", "2y") or len(parts[3]) != 53:
        return False
    cost, salt = int(parts[2]), _unb64(parts[3][:22])[:16]
    expect = _b64(_raw_hash(password.encode()[:72], salt, cost))
    return hmac.compare_digest(expect, parts[3][22:])
