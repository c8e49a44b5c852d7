"""OpenSSH host certificates checked as x/crypto/ssh's CertChecker checks them.

terraform writes `host_key` into a known_hosts line marked `@cert-authority`, so a host may
present either that very key or a host certificate signed by it. `check_certificate(blob,
authority, host)` takes the certificate a server presented (its wire blob), the authority's
public key blob and the host name the connection was made to, and raises `CertError` with Go's
text unless:

- the certificate is a host certificate (`ssh: certificate presented as a host key has type 1`);
- it is signed by `authority` (`ssh: no authorities for hostname: HOST:PORT`);
- it has no critical options (`ssh: unsupported critical option "x" in certificate`);
- its principals, when it lists any, include the host (`ssh: principal "h" not in the set of
  valid principals for given certificate: ["a" "b"]`);
- now is within its validity (`ssh: cert is not yet valid`, `ssh: cert has expired`);
- the signature verifies (`ssh: certificate signature does not verify`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from paramiko.message import Message
from paramiko.pkey import PKey

HOST_CERT = 2
_INFINITY = 2**64 - 1
# public key fields after the nonce, by certificate type prefix
_KEY_FIELDS = {"ssh-ed25519": 1, "ecdsa-sha2-": 2, "ssh-rsa": 2, "rsa-sha2-": 2}


class CertError(Exception):
    """The certificate is not acceptable; `str(exc)` is x/crypto's text."""


def _go_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise CertError("ssh: short read")
        chunk = self.data[self.at:self.at + n]
        self.at += n
        return chunk

    def uint(self, size: int) -> int:
        return int.from_bytes(self.take(size), "big")

    def string(self) -> bytes:
        return self.take(self.uint(4))


def _strings(packed: bytes) -> list[bytes]:
    r, out = _Reader(packed), []
    while r.at < len(packed):
        out.append(r.string())
    return out


@dataclass(frozen=True, slots=True)
class Certificate:
    """The fields of an OpenSSH certificate that matter for checking it."""

    cert_type: int
    principals: tuple[str, ...]
    valid_after: int
    valid_before: int
    critical_options: tuple[str, ...]
    signature_key: bytes
    signature: bytes
    signed: bytes

    @classmethod
    def parse(cls, blob: bytes) -> Certificate:
        r = _Reader(blob)
        kind = r.string().decode()
        r.string()  # nonce
        fields = next((n for prefix, n in _KEY_FIELDS.items() if kind.startswith(prefix)), None)
        if fields is None or not kind.endswith("-cert-v01@openssh.com"):
            raise CertError(f"ssh: unsupported certificate type {kind}")
        for _ in range(fields):
            r.string()
        r.uint(8)  # serial
        cert_type = r.uint(4)
        r.string()  # key id
        principals = tuple(p.decode() for p in _strings(r.string()))
        valid_after, valid_before = r.uint(8), r.uint(8)
        options = _strings(r.string())
        critical = tuple(options[i].decode() for i in range(0, len(options), 2))
        r.string()  # extensions
        r.string()  # reserved
        signature_key = r.string()
        signed = blob[:r.at]
        return cls(cert_type, principals, valid_after, valid_before, critical, signature_key,
                   r.string(), signed)


def check_certificate(blob: bytes, authority: bytes, host_port: str,
                      now: float | None = None) -> None:
    """Raise `CertError` unless the certificate is good for the host (module docstring)."""
    cert = Certificate.parse(blob)
    if cert.cert_type != HOST_CERT:
        raise CertError(f"ssh: certificate presented as a host key has type {cert.cert_type}")
    if cert.signature_key != authority:
        raise CertError(f"ssh: no authorities for hostname: {host_port}")
    if cert.critical_options:
        raise CertError(f"ssh: unsupported critical option {_go_quote(cert.critical_options[0])}"
                        " in certificate")
    host = host_port.rpartition(":")[0].strip("[]")
    if cert.principals and host not in cert.principals:
        listed = " ".join(_go_quote(p) for p in cert.principals)
        raise CertError(f"ssh: principal {_go_quote(host)} not in the set of valid principals "
                        f"for given certificate: [{listed}]")
    unix_now = int(time.time() if now is None else now)
    if cert.valid_after >= 2**63 or unix_now < cert.valid_after:
        raise CertError("ssh: cert is not yet valid")
    if cert.valid_before != _INFINITY and (unix_now >= cert.valid_before
                                           or cert.valid_before >= 2**63):
        raise CertError("ssh: cert has expired")
    try:
        kind = _Reader(authority).string().decode()
        key = PKey.from_type_string(kind, authority)
        good = key.verify_ssh_sig(cert.signed, Message(cert.signature))
    except Exception:
        good = False
    if not good:
        raise CertError("ssh: certificate signature does not verify")
