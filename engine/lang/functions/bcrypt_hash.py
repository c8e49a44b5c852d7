"""bcrypt password hashing ($2a$), as Go's `golang.org/x/crypto/bcrypt` GenerateFromPassword.

Blowfish's initial P-array and S-boxes are the hexadecimal digits of pi, computed here once
(Machin's formula in integer arithmetic) rather than tabulated. The result is
`$2a$<cost>$<22-char salt><31-char hash>` in bcrypt's base64 alphabet.

The pure-Python hash takes seconds at the default cost, so when the host's libcrypt offers
bcrypt (through the standard `crypt` module) it computes the identical digest instead.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from functools import lru_cache

MIN_COST = 4
MAX_COST = 31
DEFAULT_COST = 10
_ALPHABET = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_MAGIC = b"OrpheanBeholderScryDoubt"
_M32 = 0xFFFFFFFF


class BcryptError(ValueError):
    """GenerateFromPassword refused its input; the message is Go's."""


@lru_cache(maxsize=1)
def _pi_words() -> tuple[int, ...]:
    """The first 18 + 4*256 32-bit words of pi's fractional part."""
    count = 18 + 4 * 256
    bits = count * 32 + 64
    one = 1 << bits

    def arctan_inv(x: int) -> int:
        x2 = x * x
        term = one // x
        total = term
        k = 1
        sign = -1
        while term:
            term //= x2
            total += sign * (term // (2 * k + 1))
            sign = -sign
            k += 1
        return total

    pi = 4 * (4 * arctan_inv(5) - arctan_inv(239))
    frac = pi - (3 << bits)
    return tuple((frac >> (bits - 32 * (i + 1))) & _M32 for i in range(count))


def _stream_words(data: bytes, count: int) -> list[int]:
    """`count` big-endian words read cyclically from `data` (Blowfish's key stream)."""
    out = []
    j = 0
    n = len(data)
    for _ in range(count):
        w = 0
        for _ in range(4):
            w = (w << 8) | data[j]
            j = (j + 1) % n
        out.append(w)
    return out


class _State:
    __slots__ = ("p", "s0", "s1", "s2", "s3")

    def __init__(self) -> None:
        words = _pi_words()
        self.p = list(words[:18])
        self.s0 = list(words[18:274])
        self.s1 = list(words[274:530])
        self.s2 = list(words[530:786])
        self.s3 = list(words[786:1042])

    def encrypt(self, left: int, right: int) -> tuple[int, int]:
        p, s0, s1, s2, s3 = self.p, self.s0, self.s1, self.s2, self.s3
        left ^= p[0]
        for i in range(1, 17, 2):
            right ^= (
                ((s0[left >> 24] + s1[(left >> 16) & 0xFF]) ^ s2[(left >> 8) & 0xFF])
                + s3[left & 0xFF]
            ) & _M32
            right ^= p[i]
            left ^= (
                ((s0[right >> 24] + s1[(right >> 16) & 0xFF]) ^ s2[(right >> 8) & 0xFF])
                + s3[right & 0xFF]
            ) & _M32
            left ^= p[i + 1]
        return right ^ p[17], left

    def expand(self, key_words: list[int], salt_words: list[int] | None) -> None:
        """Blowfish's key schedule mixed with a salt (EksBlowfish's ExpandKey)."""
        p = self.p
        for i in range(18):
            p[i] ^= key_words[i]
        left = right = 0
        si = 0
        encrypt = self.encrypt
        for box in (p, self.s0, self.s1, self.s2, self.s3):
            for i in range(0, len(box), 2):
                if salt_words is not None:
                    left ^= salt_words[si]
                    right ^= salt_words[si + 1]
                    si = (si + 2) % 4
                left, right = encrypt(left, right)
                box[i] = left
                box[i + 1] = right


def _b64(data: bytes) -> str:
    out = []
    bits = 0
    nbits = 0
    for byte in data:
        bits = (bits << 8) | byte
        nbits += 8
        while nbits >= 6:
            nbits -= 6
            out.append(_ALPHABET[(bits >> nbits) & 0x3F])
    if nbits:
        out.append(_ALPHABET[(bits << (6 - nbits)) & 0x3F])
    return "".join(out)


def bcrypt_raw(password: bytes, salt: bytes, cost: int) -> bytes:
    """The 23 hash bytes bcrypt keeps for `password` (NUL-terminated key), 16-byte `salt`."""
    key = password + b"\x00"
    key_words = _stream_words(key, 18)
    salt_words = _stream_words(salt, 4)
    state = _State()
    state.expand(key_words, salt_words)
    salt_key_words = _stream_words(salt, 18)
    for _ in range(1 << cost):
        state.expand(key_words, None)
        state.expand(salt_key_words, None)
    words = [int.from_bytes(_MAGIC[i : i + 4], "big") for i in range(0, 24, 4)]
    for i in range(0, 6, 2):
        left, right = words[i], words[i + 1]
        for _ in range(64):
            left, right = state.encrypt(left, right)
        words[i], words[i + 1] = left, right
    return b"".join(w.to_bytes(4, "big") for w in words)[:23]


def bcrypt_hash(password: bytes, cost: int = DEFAULT_COST, salt: bytes | None = None) -> str:
    """`$2a$` hash of `password`; a cost below 4 means the default, as in Go."""
    if len(password) > 72:
        raise BcryptError("bcrypt: password length exceeds 72 bytes")
    if cost < MIN_COST:
        cost = DEFAULT_COST
    if cost > MAX_COST:
        raise BcryptError(
            f"crypto/bcrypt: cost {cost} is outside allowed range ({MIN_COST},{MAX_COST})"
        )
    if salt is None:
        salt = os.urandom(16)
    prefix = f"$2a${cost:02d}${_b64(salt)}"
    native = _native_crypt()
    if native is not None and b"\x00" not in password:
        try:
            out = native(password.decode("utf-8"), prefix)
        except (UnicodeDecodeError, OSError):
            out = None
        if out and out.startswith(prefix) and len(out) == len(prefix) + 31:
            return out
    return prefix + _b64(bcrypt_raw(password, salt, cost))


@lru_cache(maxsize=1)
def _native_crypt() -> Callable[[str, str], str | None] | None:
    """libcrypt's crypt(3) when it implements `$2a$` correctly, else None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import crypt  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    fn: Callable[[str, str], str | None] = crypt.crypt
    probe = "$2a$04$" + _b64(bytes(16))
    try:
        expected = probe + _b64(bcrypt_raw(b"probe", bytes(16), 4))
        return fn if fn("probe", probe) == expected else None
    except OSError:
        return None


def bcrypt_salt_from_text(text: str) -> bytes:
    """Decode a 22-character bcrypt-base64 salt to its 16 bytes (for checking known hashes)."""
    bits = 0
    nbits = 0
    out = bytearray()
    for ch in text:
        bits = (bits << 6) | _ALPHABET.index(ch)
        nbits += 6
        if nbits >= 8:
            nbits -= 8
            out.append((bits >> nbits) & 0xFF)
    return bytes(out[:16])
