"""Who the SSH client says it is and whom it trusts: terraform's buildSSHClientConfig and the
client side of x/crypto/ssh's authentication, over paramiko.

`client_settings(...)` turns one host's connection arguments into `ClientSettings`, or raises
`SettingsError` with terraform's text (these are not retried):

- `private_key`: the first PEM block of the text (none: `Failed to read ssh private key: no
  key found`; a `Proc-Type: 4,ENCRYPTED` one: the "password protected keys are not supported"
  text), parsed as PKCS#1, SEC1, PKCS#8 or OpenSSH (`Failed to parse ssh private key: ...`).
  With a `certificate` (an OpenSSH `*-cert.pub` line) the key authenticates with the
  certificate (`failed to parse private key: ...`, `failed to parse certificate ...`,
  `failed to create cert signer: ssh: signer and cert have different public key`); unlike
  terraform the key itself is never quoted in the message.
- `password`: the `password` method, then `keyboard-interactive` answering every question
  with the password.
- `agent`: every key of the SSH agent at SSH_AUTH_SOCK (`SSH agent requested but SSH_AUTH_SOCK
  not-specified`, `Error connecting to SSH_AUTH_SOCK: dial unix ...`), those matching
  `agent_identity` first.
- `host_key`: checked as terraform's known_hosts line `@cert-authority HOST:PORT <host_key>` is
  (the key type word is ignored): the server's host key must be that key (else `knownhosts: key
  mismatch`), or a host certificate it signed (`engine.provisioners.ssh.hostcert`). As
  x/crypto, host certificates are asked for first; plain keys of the given key's type next.

`authenticate(transport, user, methods)` runs x/crypto/ssh's loop: `none` first, then each
configured method the server still allows that has not failed yet, in configuration order; when
none is left the error is `ssh: unable to authenticate, attempted methods [none password], no
supported methods remain`.
"""

from __future__ import annotations

import base64
import io
import os
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import paramiko
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from paramiko.pkey import PublicBlob

from engine.provisioners.ssh import wire
from engine.provisioners.ssh.hostcert import CertError, check_certificate

_PEM = re.compile(r"-----BEGIN ([^-\n]+)-----\r?\n(.*?)-----END \1-----", re.S)
_ENCRYPTED = ("Failed to read ssh private key: password protected keys are\n"
              "not supported. Please decrypt the key prior to use.")
# host key algorithms to prefer for a known key of each type
_HOST_KEY_ALGORITHMS = {
    "ssh-rsa": ("rsa-sha2-512", "rsa-sha2-256", "ssh-rsa"),
    "ssh-ed25519": ("ssh-ed25519",),
    "ecdsa-sha2-nistp256": ("ecdsa-sha2-nistp256",),
    "ecdsa-sha2-nistp384": ("ecdsa-sha2-nistp384",),
    "ecdsa-sha2-nistp521": ("ecdsa-sha2-nistp521",),
}


CERT_SUFFIX = "-cert-v01@openssh.com"


class SettingsError(Exception):
    """A connection argument is unusable; `str(exc)` is terraform's text."""


class AuthError(Exception):
    """Authentication (or the host key check) failed; `str(exc)` is x/crypto's text."""


def _ssh_string(data: bytes, offset: int) -> tuple[bytes, int]:
    if offset + 4 > len(data):
        raise ValueError("short blob")
    n = int.from_bytes(data[offset:offset + 4], "big")
    end = offset + 4 + n
    if end > len(data):
        raise ValueError("short blob")
    return data[offset + 4:end], end


@dataclass(frozen=True, slots=True)
class KnownHostKey:
    """The public key a host must present."""

    key_type: str
    blob: bytes

    @classmethod
    def parse(cls, text: str) -> KnownHostKey:
        """`<type> <base64> [comment]` as knownhosts reads it (the type word is ignored)."""
        words = text.split()
        if len(words) < 2:
            raise SettingsError("knownhosts: host_key: knownhosts: missing key type pattern")
        try:
            blob = base64.b64decode(words[1], validate=True)
            key_type = _ssh_string(blob, 0)[0].decode()
        except (ValueError, UnicodeDecodeError) as exc:
            raise SettingsError(f"knownhosts: host_key: {exc}") from None
        return cls(key_type, blob)

    def algorithms(self, available: tuple[str, ...]) -> tuple[str, ...]:
        """The host key algorithms to offer, of `available` (paramiko's plain ones): as
        x/crypto, certificates first; then this key's type, then the rest."""
        mine = _HOST_KEY_ALGORITHMS.get(self.key_type, (self.key_type,))
        plain = tuple(a for a in available if not a.endswith(CERT_SUFFIX))
        return (tuple(a + CERT_SUFFIX for a in plain) + tuple(a for a in plain if a in mine)
                + tuple(a for a in plain if a not in mine))

    def check(self, presented: paramiko.PKey, host_port: str) -> None:
        """Raise `AuthError` unless `presented` is this key, or a host certificate this key
        signed that is good for `host_port` (`engine.provisioners.ssh.hostcert`)."""
        cert = presented.public_blob
        if cert is not None and cert.key_type.endswith(CERT_SUFFIX):
            try:
                check_certificate(cert.key_blob, self.blob, host_port)
            except CertError as exc:
                raise AuthError(str(exc)) from None
            return
        if presented.asbytes() != self.blob:
            raise AuthError("knownhosts: key mismatch")


def _pkey_from_crypto(key: Any) -> paramiko.PKey:
    """A paramiko key for a cryptography private key."""
    if isinstance(key, rsa.RSAPrivateKey):
        return paramiko.RSAKey(key=key)
    if isinstance(key, ec.EllipticCurvePrivateKey):
        return paramiko.ECDSAKey(vals=(key, key.public_key()))
    if isinstance(key, ed25519.Ed25519PrivateKey):
        data = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH,
                                 serialization.NoEncryption()).decode()
        return paramiko.Ed25519Key.from_private_key(io.StringIO(data))
    raise ValueError(f"ssh: unsupported key type {type(key).__name__}")


def _load_key(text: str) -> paramiko.PKey:
    data = text.encode()
    try:
        if b"OPENSSH PRIVATE KEY" in data:
            crypto_key: Any = serialization.load_ssh_private_key(data, password=None)
        else:
            crypto_key = serialization.load_pem_private_key(data, password=None)
    except TypeError:
        raise ValueError("ssh: this private key is passphrase protected") from None
    except (ValueError, paramiko.SSHException) as exc:
        raise ValueError(f"ssh: {exc}") from None
    return _pkey_from_crypto(crypto_key)


def read_private_key(text: str) -> paramiko.PKey:
    """terraform's readPrivateKey (see the module docstring)."""
    block = _PEM.search(text)
    if block is None:
        raise SettingsError("Failed to read ssh private key: no key found")
    if "Proc-Type: 4,ENCRYPTED" in block.group(2).split("\n\n", 1)[0]:
        raise SettingsError(_ENCRYPTED)
    try:
        return _load_key(block.group(0))
    except ValueError as exc:
        raise SettingsError(f"Failed to parse ssh private key: {exc}") from None


def _cert_signer(key_text: str, certificate: str) -> paramiko.PKey:
    block = _PEM.search(key_text)
    if block is None:
        raise SettingsError("failed to parse private key: ssh: no key found")
    try:
        key = _load_key(block.group(0))
    except ValueError as exc:
        raise SettingsError(f"failed to parse private key: {exc}") from None
    try:
        blob = PublicBlob.from_string(certificate.strip())
        cert_type, rest = blob.key_type, blob.key_blob
        _, offset = _ssh_string(rest, 0)  # the type again
        _, offset = _ssh_string(rest, offset)  # the nonce
    except (ValueError, IndexError) as exc:
        raise SettingsError(f"failed to parse certificate {certificate!r}: {exc}") from None
    if "-cert-v01@openssh.com" not in cert_type:
        raise SettingsError(f"failed to parse certificate {certificate!r}: not a certificate")
    plain = key.asbytes()
    _, plain_fields = _ssh_string(plain, 0)
    if not rest[offset:].startswith(plain[plain_fields:]):
        raise SettingsError(
            "failed to create cert signer: ssh: signer and cert have different public key")
    key.public_blob = blob
    return key


def connect_agent() -> paramiko.Agent:
    """The SSH agent at SSH_AUTH_SOCK (see the module docstring)."""
    path = os.environ.get("SSH_AUTH_SOCK", "")
    if not path:
        raise SettingsError("SSH agent requested but SSH_AUTH_SOCK not-specified")
    try:
        with socket.socket(socket.AF_UNIX) as probe:
            probe.connect(path)
    except OSError as exc:
        reason = os.strerror(exc.errno) if exc.errno else str(exc)
        reason = reason[0].lower() + reason[1:] if reason else reason
        raise SettingsError(
            f"Error connecting to SSH_AUTH_SOCK: dial unix {path}: connect: {reason}") from None
    return paramiko.Agent()


def _identity_blob(identity: str) -> bytes | None:
    """The public key blob of terraform's agent_identity file (or its .pub), if readable."""
    path = os.path.abspath(identity)
    for candidate in (path,) if path.endswith(".pub") else (path, path + ".pub"):
        try:
            with open(candidate) as f:
                text = f.read()
        except OSError:
            continue
        try:
            return read_private_key(text).asbytes()
        except SettingsError:
            pass
        try:
            return PublicBlob.from_string(text.strip()).key_blob
        except ValueError:
            continue
    return None


def sort_agent_keys(keys: list[paramiko.AgentKey], identity: str) -> list[paramiko.AgentKey]:
    """terraform's sortSigners: the key matching `identity` first, near matches after it."""
    if not identity or len(keys) < 2:
        return keys
    keys = list(keys)
    wanted = _identity_blob(identity)
    head = 0
    for i, key in enumerate(keys):
        comment = str(getattr(key, "comment", "") or "")
        if key.asbytes() == wanted or comment == identity:
            keys[0], keys[i] = keys[i], keys[0]
            break
        if comment.endswith(identity):
            keys[head], keys[i] = keys[i], keys[head]
            head += 1
    return keys


@dataclass(frozen=True, slots=True)
class AuthMethod:
    """One way of authenticating; `run(transport, user)` returns paramiko's list of methods
    still allowed (partial success) or raises paramiko's authentication exceptions."""

    name: str
    run: Callable[[paramiko.Transport, str], list[str]] = field(repr=False)


def _publickey(keys: Callable[[], list[paramiko.PKey]]) -> AuthMethod:
    def run(t: paramiko.Transport, user: str) -> list[str]:
        failure: Exception = paramiko.AuthenticationException("no keys")
        for key in keys():
            try:
                return list(t.auth_publickey(user, key))
            except paramiko.BadAuthenticationType:
                raise
            except paramiko.AuthenticationException as exc:
                failure = exc
        raise failure

    return AuthMethod("publickey", run)


def _password(password: str) -> AuthMethod:
    return AuthMethod("password",
                      lambda t, user: list(t.auth_password(user, password, fallback=False)))


def _keyboard_interactive(password: str) -> AuthMethod:
    def answer(title: str, instructions: str, prompts: list[tuple[str, bool]]) -> list[str]:
        return [password for _ in prompts]

    return AuthMethod("keyboard-interactive",
                      lambda t, user: list(t.auth_interactive(user, answer)))


@dataclass(frozen=True, slots=True)
class ClientSettings:
    """terraform's ssh.ClientConfig for one host."""

    user: str
    host_port: str
    methods: tuple[AuthMethod, ...]
    host_key: KnownHostKey | None = None


def client_settings(*, user: str, host_port: str, private_key: str, password: str,
                    host_key: str, certificate: str,
                    agent: paramiko.Agent | None, agent_identity: str = "") -> ClientSettings:
    """terraform's buildSSHClientConfig (see the module docstring)."""
    known = KnownHostKey.parse(host_key) if host_key else None
    methods: list[AuthMethod] = []
    if private_key:
        key = (_cert_signer(private_key, certificate) if certificate
               else read_private_key(private_key))
        methods.append(_publickey(lambda: [key]))
    if password:
        methods += [_password(password), _keyboard_interactive(password)]
    if agent is not None:
        held = agent

        def agent_keys() -> list[paramiko.PKey]:
            return list(sort_agent_keys(list(held.get_keys()), agent_identity))

        methods.append(_publickey(agent_keys))
    return ClientSettings(user, host_port, tuple(methods), known)


def _transport_error(exc: BaseException) -> str:
    if isinstance(exc, EOFError) or "Error reading SSH protocol banner" in str(exc):
        return "EOF"
    return str(exc) or type(exc).__name__


def _attempt(method: AuthMethod, t: paramiko.Transport,
             user: str) -> tuple[str, list[str] | None, str | None]:
    """(outcome, allowed methods or None, error) of one method."""
    try:
        remaining = method.run(t, user)
    except paramiko.BadAuthenticationType as exc:
        return "failure", list(exc.allowed_types), None
    except paramiko.AuthenticationException:
        return "failure", None, None
    except (paramiko.SSHException, EOFError, OSError) as exc:
        return "failure", None, _transport_error(exc)
    if remaining:
        return "partial", remaining, None
    return "success", None, None


def _none(t: paramiko.Transport, user: str) -> list[str]:
    return list(t.auth_none(user))


NONE_METHOD = AuthMethod("none", _none)


def authenticate(t: paramiko.Transport, settings: ClientSettings) -> None:
    """x/crypto/ssh's client authentication loop (see the module docstring)."""
    tried: list[str] = []
    allowed: list[str] = []
    current: AuthMethod | None = NONE_METHOD
    while current is not None:
        outcome, methods, error = _attempt(current, t, settings.user)
        if outcome == "success":
            return
        if outcome == "failure" and current.name not in tried:
            tried.append(current.name)
        allowed = methods if methods is not None else allowed
        current = next((m for m in settings.methods
                        if m.name not in tried and m.name in allowed), None)
        if current is None and error is not None:
            raise AuthError(error)
    raise AuthError(f"ssh: unable to authenticate, attempted methods [{' '.join(tried)}], "
                    "no supported methods remain")


def handshake(sock: Any, settings: ClientSettings) -> paramiko.Transport:
    """An authenticated transport over `sock` (a socket or a channel), or `AuthError` with the
    text after terraform's `ssh: handshake failed: ` prefix."""
    t = paramiko.Transport(sock)
    wire.keep_details(t)
    try:
        if settings.host_key is not None:
            options = t.get_security_options()
            options.key_types = settings.host_key.algorithms(tuple(options.key_types))
        try:
            t.start_client()
        except (paramiko.SSHException, EOFError, OSError) as exc:
            raise AuthError(_transport_error(exc)) from None
        if settings.host_key is not None:
            settings.host_key.check(t.get_remote_server_key(), settings.host_port)
        authenticate(t, settings)
    except BaseException:
        t.close()
        raise
    return t
