"""Built-in functions: hashes and crypto (base64sha256, base64sha512, bcrypt, md5, rsadecrypt,
sha1, sha256, sha512, uuid, uuidv5).

Strings are hashed as their UTF-8 bytes. `uuid` and `bcrypt` give a different result on every
call (bcrypt salts randomly); `uuid` is impure, so it is unknown during plan.
"""

from __future__ import annotations

import base64
import hashlib
import uuid as _uuid
from collections.abc import Callable, Sequence

from engine.gocompat.bcrypt import BcryptError, generate_from_password
from engine.gocompat.strconv import quote as go_quote
from engine.lang.functions.base import Function, FunctionError, Param, refine_results, static_return
from engine.lang.functions.encoding import go_base64_decode
from engine.lang.functions.ipnet import whole
from engine.values import NUMBER, STRING, Type, Value, string

Digest = Callable[[bytes], str]


def hex_digest(algorithm: str) -> Digest:
    """Hash bytes with `algorithm` and give lowercase hex digits."""

    def _digest(data: bytes) -> str:
        return hashlib.new(algorithm, data).hexdigest()

    return _digest


def b64_digest(algorithm: str) -> Digest:
    """Hash bytes with `algorithm` and give standard base64 (padded)."""

    def _digest(data: bytes) -> str:
        return base64.b64encode(hashlib.new(algorithm, data).digest()).decode("ascii")

    return _digest


def _string_hash(name: str, digest: Digest) -> Function:
    def _impl(args: Sequence[Value], ret: Type) -> Value:
        return string(digest(args[0].v.encode("utf-8")))

    return Function(name, (Param("str", STRING),), _impl, static_return(STRING))


def _uuid4(args: Sequence[Value], ret: Type) -> Value:
    return string(str(_uuid.uuid4()))


_NAMESPACES = {
    "dns": _uuid.NAMESPACE_DNS,
    "url": _uuid.NAMESPACE_URL,
    "oid": _uuid.NAMESPACE_OID,
    "x500": _uuid.NAMESPACE_X500,
}


_HEX = frozenset("0123456789abcdefABCDEF")


def parse_uuid(text: str) -> _uuid.UUID:
    """Parse a UUID in the forms google/uuid's Parse accepts; ValueError with its message."""
    n = len(text)
    if n == 36:
        body = text
    elif n == 38:
        if text[0] != "{" or text[-1] != "}":
            raise ValueError("invalid UUID format")
        body = text[1:-1]
    elif n == 45:
        if text[:9].lower() != "urn:uuid:":
            raise ValueError(f"invalid urn prefix: {go_quote(text[:9])}")
        body = text[9:]
    elif n == 32:
        if not all(c in _HEX for c in text):
            raise ValueError("invalid UUID format")
        return _uuid.UUID(hex=text)
    else:
        raise ValueError(f"invalid UUID length: {n}")
    if any(body[i] != "-" for i in (8, 13, 18, 23)):
        raise ValueError("invalid UUID format")
    hexdigits = body.replace("-", "")
    if len(hexdigits) != 32 or not all(c in _HEX for c in hexdigits):
        raise ValueError("invalid UUID format")
    return _uuid.UUID(hex=hexdigits)


def _uuidv5(args: Sequence[Value], ret: Type) -> Value:
    ns_text: str = args[0].v
    namespace = _NAMESPACES.get(ns_text)
    if namespace is None:
        try:
            namespace = parse_uuid(ns_text)
        except ValueError as exc:
            raise FunctionError(f"uuidv5() doesn't support namespace {ns_text} ({exc})") from None
    return string(str(_uuid.uuid5(namespace, args[1].v)))


def _bcrypt(args: Sequence[Value], ret: Type) -> Value:
    cost = 10
    if len(args) > 1:
        cost = whole(args[1], int64=True)
    if len(args) > 2:
        raise FunctionError("bcrypt() takes no more than two arguments")
    try:
        return string(generate_from_password(args[0].v.encode("utf-8"), cost))
    except BcryptError as exc:
        raise FunctionError(f"error occured generating password {exc}") from None


def _rsadecrypt(args: Sequence[Value], ret: Type) -> Value:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import padding, rsa

    ciphertext: str = args[0].v
    key_text: str = args[1].v
    raw = go_base64_decode(ciphertext)
    if raw is None:
        raise FunctionError(
            f"failed to decode input {go_quote(ciphertext)}: cipher text must be base64-encoded", 0
        )
    data = key_text.encode("utf-8")
    if b"-----BEGIN" not in data:
        raise FunctionError("invalid private key: ssh: no key found", 1)
    key: object
    try:
        if b"OPENSSH PRIVATE KEY" in data:
            key = serialization.load_ssh_private_key(data, password=None)
        else:
            key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as exc:
        raise FunctionError(f"invalid private key: {exc}", 1) from None
    if not isinstance(key, rsa.RSAPrivateKey):
        raise FunctionError(f"invalid private key type {type(key).__name__}", 1)
    try:
        out = key.decrypt(raw, padding.PKCS1v15())
    except ValueError:
        raise FunctionError("failed to decrypt: crypto/rsa: decryption error") from None
    return string(out.decode("utf-8", "replace"))


FUNCTIONS: list[Function] = refine_results([
    _string_hash("base64sha256", b64_digest("sha256")),
    _string_hash("base64sha512", b64_digest("sha512")),
    Function(
        "bcrypt",
        (Param("str", STRING),),
        _bcrypt,
        static_return(STRING),
        var_param=Param("cost", NUMBER),
    ),
    _string_hash("md5", hex_digest("md5")),
    Function(
        "rsadecrypt",
        (Param("ciphertext", STRING), Param("privatekey", STRING)),
        _rsadecrypt,
        static_return(STRING),
    ),
    _string_hash("sha1", hex_digest("sha1")),
    _string_hash("sha256", hex_digest("sha256")),
    _string_hash("sha512", hex_digest("sha512")),
    Function("uuid", (), _uuid4, static_return(STRING), impure=True),
    Function(
        "uuidv5",
        (Param("namespace", STRING), Param("name", STRING)),
        _uuidv5,
        static_return(STRING),
    ),
])
