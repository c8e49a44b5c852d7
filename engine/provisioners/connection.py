"""Connections of the `file` and `remote-exec` provisioners, as far as groundplan goes.

`CONNECTION_SCHEMA` is terraform's superset schema of `connection` block arguments (every
argument of every communicator; `host` required). `ConnInfo.from_value(v)` reads an evaluated
block with terraform's defaults: `type` ssh (or winrm), `user` root / Administrator, `port` 22 /
5985 (5986 with `https`), `timeout` 5m, `target_platform` unix.

`connect(info, output, stop)` does what terraform's communicator.Retry around Connect does up
to the transport: it shows the communicator's "Connecting to remote host via SSH..." block when
`output` is given, then dials the host's TCP port, retrying with terraform's backoff (1 s
doubling to at most 20 s) until the timeout, and returns terraform's error text:
`timeout - last error: dial tcp H:P: connect: connection refused` (for WinRM wrapped as the
HTTP client words it), or `interrupted - last error: ...` when `stop` is set. groundplan has no
SSH or WinRM client: when the port does answer, the result is an error saying so, never a
pretend success. Errors are strings; the provisioner wraps them in its diagnostic.
"""

from __future__ import annotations

import errno
import os
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any

from engine.gocompat.duration import DurationError, parse_seconds
from engine.provisioners.base import OutputFn
from engine.provisioners.schema import AttributeSpec, ConfigSchema
from engine.values import BOOL, NUMBER, STRING, Value

_S = ("type", "user", "password", "timeout", "script_path", "target_platform", "private_key",
      "certificate", "host_key", "agent_identity", "proxy_scheme", "proxy_host",
      "proxy_user_name", "proxy_user_password", "bastion_host", "bastion_host_key",
      "bastion_user", "bastion_password", "bastion_private_key", "bastion_certificate", "cacert")
_N = ("port", "proxy_port", "bastion_port")
_B = ("agent", "https", "insecure", "use_ntlm")

CONNECTION_SCHEMA = ConfigSchema(
    (
        AttributeSpec("host", STRING, required=True),
        *(AttributeSpec(n, STRING) for n in _S),
        *(AttributeSpec(n, NUMBER) for n in _N),
        *(AttributeSpec(n, BOOL) for n in _B),
    )
)

_INITIAL_DELAY = 1.0
_MAX_DELAY = 20.0
def parse_duration(text: str) -> float | None:
    """Seconds in a Go duration string (`5m`, `1m30s`, `500ms`), or None if it is not one."""
    try:
        return parse_seconds(text)
    except DurationError:
        return None


@dataclass(frozen=True, slots=True)
class ConnInfo:
    """What a connection block says, with terraform's defaults filled in."""

    type: str
    host: str
    port: int
    user: str
    password: bool
    private_key: bool
    certificate: bool
    agent: bool
    host_key: bool
    target_platform: str
    https: bool
    insecure: bool
    ntlm: bool
    cacert: bool
    timeout: float

    @classmethod
    def from_value(cls, conn: Value) -> tuple[ConnInfo | None, str]:
        """The connection described by an unmarked evaluated block, or None and terraform's
        error text for a type it does not support or a bad timeout."""
        attrs: dict[str, Any] = {}
        if isinstance(conn.v, dict):
            attrs = {k: v.v for k, v in conn.v.items() if v.is_known and not v.is_null}
        kind = str(attrs.get("type") or "ssh")
        if kind not in ("ssh", "winrm"):
            return None, f"connection type '{kind}' not supported"
        https = bool(attrs.get("https", False))
        default_port = 22 if kind == "ssh" else (5986 if https else 5985)
        timeout_text = str(attrs.get("timeout") or "5m")
        timeout = parse_duration(timeout_text)
        if timeout is None:
            return None, f'time: invalid duration "{timeout_text}"'
        agent = attrs.get("agent")
        if agent is None:
            agent = kind == "ssh" and bool(os.environ.get("SSH_AUTH_SOCK")) and not (
                attrs.get("password") or attrs.get("private_key"))
        return cls(
            type=kind,
            host=str(attrs.get("host", "")),
            port=int(attrs.get("port") or default_port),
            user=str(attrs.get("user") or ("root" if kind == "ssh" else "Administrator")),
            password=bool(attrs.get("password")),
            private_key=bool(attrs.get("private_key")),
            certificate=bool(attrs.get("certificate")),
            agent=bool(agent),
            host_key=bool(attrs.get("host_key")),
            target_platform=str(attrs.get("target_platform") or "unix"),
            https=https,
            insecure=bool(attrs.get("insecure", False)),
            ntlm=bool(attrs.get("use_ntlm", False)),
            cacert=bool(attrs.get("cacert")),
            timeout=timeout,
        ), ""

    @property
    def host_port(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    def banner(self) -> str:
        """The communicator's "Connecting to remote host" message."""
        t = _go_bool
        if self.type == "winrm":
            return (f"Connecting to remote host via WinRM...\n  Host: {self.host}\n"
                    f"  Port: {self.port}\n  User: {self.user}\n  Password: {t(self.password)}\n"
                    f"  HTTPS: {t(self.https)}\n  Insecure: {t(self.insecure)}\n"
                    f"  NTLM: {t(self.ntlm)}\n  CACert: {t(self.cacert)}")
        return (f"Connecting to remote host via SSH...\n  Host: {self.host}\n  User: {self.user}\n"
                f"  Password: {t(self.password)}\n  Private key: {t(self.private_key)}\n"
                f"  Certificate: {t(self.certificate)}\n  SSH Agent: {t(self.agent)}\n"
                f"  Checking Host Key: {t(self.host_key)}\n"
                f"  Target Platform: {self.target_platform}\n")


def _go_bool(b: bool) -> str:
    return "true" if b else "false"


def _dial_error(info: ConnInfo, exc: OSError) -> str:
    if isinstance(exc, socket.gaierror):
        text = f"dial tcp: lookup {info.host}: no such host"
    elif isinstance(exc, TimeoutError) or exc.errno == errno.ETIMEDOUT:
        text = f"dial tcp {info.host_port}: i/o timeout"
    else:
        reason = os.strerror(exc.errno) if exc.errno else str(exc)
        reason = reason[0].lower() + reason[1:] if reason else reason
        text = f"dial tcp {info.host_port}: connect: {reason}"
    if info.type == "winrm":
        scheme = "https" if info.https else "http"
        return f'unknown error Post "{scheme}://{info.host_port}/wsman": {text}'
    return text


def _no_client(info: ConnInfo) -> str:
    proto = "SSH" if info.type == "ssh" else "WinRM"
    return (f"{info.host_port} accepted the connection, but groundplan has no {proto} client, "
            f"so it cannot run {proto} provisioners")


def _try(info: ConnInfo, deadline: float) -> tuple[bool, str]:
    wait = max(0.05, min(10.0, deadline - time.monotonic()))
    try:
        with socket.create_connection((info.host, info.port), timeout=wait):
            return True, _no_client(info)
    except OSError as exc:
        return False, _dial_error(info, exc)


def connect(info: ConnInfo, output: OutputFn | None, stop: threading.Event) -> str:
    """Terraform's retry loop around the communicator's Connect (see the module docstring);
    the error text to report (there is no success)."""
    deadline = time.monotonic() + info.timeout
    delay = 0.0
    last = ""
    while True:
        if stop.wait(max(0.0, min(delay, deadline - time.monotonic()))):
            return f"interrupted - last error: {last or '<nil>'}"
        if time.monotonic() >= deadline:
            return f"timeout - last error: {last or '<nil>'}"
        if output is not None:  # each attempt, as terraform's Connect
            output(info.banner())
        fatal, last = _try(info, deadline)
        if fatal:
            return last
        if time.monotonic() >= deadline:
            return f"timeout - last error: {last}"
        delay = _INITIAL_DELAY if delay == 0 else min(delay * 2, _MAX_DELAY)
