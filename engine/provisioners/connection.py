"""Connections of the `file` and `remote-exec` provisioners: the `connection` block read as
terraform's communicators read it.

`CONNECTION_SCHEMA` is terraform's superset schema of `connection` block arguments (every
argument of every communicator; `host` required). `ConnInfo.from_value(v)` reads an evaluated,
unmarked block as terraform 1.11's parseConnectionInfo does, returning the settings or
terraform's error text:

- `type` ssh (the default) or winrm, else `connection type 'x' not supported`;
- a port (`port`, `bastion_port`, `proxy_port`) that is not a whole number in 0..65535 is
  `value must be a whole number, between 0 and 65535 inclusive`;
- ssh: `user` defaults to root, an empty `host` is `host for provisioner cannot be empty`, an
  IPv6 host is bracketed (`[::1]`), `port` defaults to 22, `target_platform` to unix (anything
  but unix/windows is an error), `script_path` to `/tmp/terraform_%RAND%.sh` (windows:
  `C:/windows/temp/terraform_%RAND%.cmd`), `agent` to whether SSH_AUTH_SOCK is set when not
  given, and with a `bastion_host` the bastion's user, password, private key, certificate and
  port default to the target's;
- winrm: `user` Administrator, `port` 5985 (5986 with `https`), `script_path`
  `C:/Temp/terraform_%RAND%.cmd`;
- `timeout` is a Go duration; one that does not parse means the default, 5m (terraform's
  safeDuration), it is not an error.

`banner()` / `bastion_banner()` / `proxy_banner()` are the communicator's "Connecting to
remote host" messages; `script_path()` gives the script path with `%RAND%` replaced by a random
non-negative 31-bit number (the same one for every occurrence). Secrets (passwords, private
keys) are kept for the communicator but never shown: they are left out of `repr`.
"""

from __future__ import annotations

import ipaddress
import os
import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.gocompat.duration import DurationError, parse_seconds
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

DEFAULT_TIMEOUT = 300.0
UNIX_SCRIPT_PATH = "/tmp/terraform_%RAND%.sh"
WINDOWS_SCRIPT_PATH = "C:/windows/temp/terraform_%RAND%.cmd"
WINRM_SCRIPT_PATH = "C:/Temp/terraform_%RAND%.cmd"
_PORT_ERROR = "value must be a whole number, between 0 and 65535 inclusive"
_RANDOM = random.SystemRandom()


def parse_duration(text: str) -> float | None:
    """Seconds in a Go duration string (`5m`, `1m30s`, `500ms`), or None if it is not one."""
    try:
        return parse_seconds(text)
    except DurationError:
        return None


def ip_format(host: str) -> str:
    """terraform's shared.IpFormat: an IPv6 address in brackets, anything else as it is."""
    try:
        addr = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is None:
        return f"[{host}]"
    return host


def _port(value: Any) -> int | None:
    """A port number as terraform decodes one into a uint16, or None if it does not fit.

    A whole number fits when in 0..65535. A fraction that a float64 holds exactly reaches
    terraform's communicator as that float and is then truncated, if it is at least 1 (`22.5`
    is port 22); any other fraction (`22.7`, `0.5`) is an error, as terraform's is."""
    try:
        number = Fraction(value)
    except (TypeError, ValueError, OverflowError):
        return None
    if number.denominator != 1:
        try:
            exact = Fraction(float(number)) == number
        except OverflowError:
            exact = False
        if not exact or number < 1:
            return None
        number = Fraction(int(number))
    return int(number) if 0 <= number <= 65535 else None


def _go_bool(b: bool) -> str:
    return "true" if b else "false"


@dataclass(frozen=True, slots=True)
class ConnInfo:
    """What a connection block says, with terraform's defaults filled in."""

    type: str
    host: str
    port: int
    user: str
    timeout: float
    script_path_template: str
    target_platform: str = "unix"
    password: str = field(default="", repr=False)
    private_key: str = field(default="", repr=False)
    certificate: str = ""
    host_key: str = ""
    agent: bool = False
    agent_identity: str = ""
    proxy_scheme: str = ""
    proxy_host: str = ""
    proxy_port: int = 0
    proxy_user_name: str = ""
    proxy_user_password: str = field(default="", repr=False)
    bastion_host: str = ""
    bastion_host_key: str = ""
    bastion_port: int = 0
    bastion_user: str = ""
    bastion_password: str = field(default="", repr=False)
    bastion_private_key: str = field(default="", repr=False)
    bastion_certificate: str = ""
    https: bool = False
    insecure: bool = False
    ntlm: bool = False
    cacert: bool = False

    @classmethod
    def from_value(cls, conn: Value) -> tuple[ConnInfo | None, str]:
        """The connection described by an unmarked evaluated block, or None and terraform's
        error text (see the module docstring)."""
        attrs: dict[str, Any] = {}
        if isinstance(conn.v, dict):
            attrs = {k: v.v for k, v in conn.v.items() if v.is_known and not v.is_null}
        kind = str(attrs.get("type") or "ssh")
        if kind not in ("ssh", "winrm"):
            return None, f"connection type '{kind}' not supported"
        ports: dict[str, int] = {}
        for name in _N if kind == "ssh" else ("port",):
            if name in attrs:
                port = _port(attrs[name])
                if port is None:
                    return None, _PORT_ERROR
                ports[name] = port
        text = {k: str(v) for k, v in attrs.items() if isinstance(v, str)}
        timeout = parse_duration(text["timeout"]) if text.get("timeout") else None
        if timeout is None:
            timeout = DEFAULT_TIMEOUT
        if kind == "winrm":
            return cls._winrm(attrs, text, ports.get("port", 0), timeout)
        return cls._ssh(attrs, text, ports, timeout)

    @classmethod
    def _winrm(cls, attrs: dict[str, Any], text: dict[str, str], port: int,
               timeout: float) -> tuple[ConnInfo | None, str]:
        script_path = text.get("script_path", "")
        if script_path.replace("\\", "/").startswith("C:/Windows/Temp"):
            return None, ("Using the C:\\Windows\\Temp folder is not supported. Please use a "
                          "different 'script_path'.")
        https = bool(attrs.get("https", False))
        return cls(
            type="winrm", host=ip_format(text.get("host", "")),
            port=port or (5986 if https else 5985),
            user=text.get("user") or "Administrator", timeout=timeout,
            script_path_template=script_path or WINRM_SCRIPT_PATH,
            password=text.get("password", ""), https=https,
            insecure=bool(attrs.get("insecure", False)), ntlm=bool(attrs.get("use_ntlm", False)),
            cacert=bool(text.get("cacert")),
        ), ""

    @classmethod
    def _ssh(cls, attrs: dict[str, Any], text: dict[str, str], ports: dict[str, int],
             timeout: float) -> tuple[ConnInfo | None, str]:
        agent = attrs.get("agent")
        if agent is None:
            agent = bool(os.environ.get("SSH_AUTH_SOCK"))
        user = text.get("user") or "root"
        if not text.get("host"):
            return None, "host for provisioner cannot be empty"
        platform = text.get("target_platform") or "unix"
        if platform not in ("unix", "windows"):
            return None, "target_platform for provisioner has to be either unix or windows"
        script_path = text.get("script_path") or (
            UNIX_SCRIPT_PATH if platform == "unix" else WINDOWS_SCRIPT_PATH)
        port = ports.get("port") or 22
        bastion_host = text.get("bastion_host", "")
        bastion: dict[str, Any] = {}
        if bastion_host:
            bastion = {
                "bastion_host": ip_format(bastion_host),
                "bastion_user": text.get("bastion_user") or user,
                "bastion_password": text.get("bastion_password") or text.get("password", ""),
                "bastion_private_key": (text.get("bastion_private_key")
                                        or text.get("private_key", "")),
                "bastion_certificate": (text.get("bastion_certificate")
                                        or text.get("certificate", "")),
                "bastion_port": ports.get("bastion_port") or port,
            }
        return cls(
            type="ssh", host=ip_format(text["host"]), port=port, user=user, timeout=timeout,
            script_path_template=script_path, target_platform=platform,
            password=text.get("password", ""), private_key=text.get("private_key", ""),
            certificate=text.get("certificate", ""), host_key=text.get("host_key", ""),
            agent=bool(agent), agent_identity=text.get("agent_identity", ""),
            proxy_scheme=text.get("proxy_scheme", ""), proxy_host=text.get("proxy_host", ""),
            proxy_port=ports.get("proxy_port", 0),
            proxy_user_name=text.get("proxy_user_name", ""),
            proxy_user_password=text.get("proxy_user_password", ""),
            bastion_host_key=text.get("bastion_host_key", "") if bastion_host else "",
            **bastion,
        ), ""

    @property
    def host_port(self) -> str:
        """`host:port` as Go formats it (the host already bracketed when IPv6)."""
        return f"{self.host}:{self.port}"

    def script_path(self) -> str:
        """The script path with `%RAND%` replaced by one random number."""
        return self.script_path_template.replace("%RAND%", str(_RANDOM.randrange(2**31)))

    def banner(self) -> str:
        """The communicator's "Connecting to remote host" message."""
        t = _go_bool
        if self.type == "winrm":
            return (f"Connecting to remote host via WinRM...\n  Host: {self.host}\n"
                    f"  Port: {self.port}\n  User: {self.user}\n"
                    f"  Password: {t(bool(self.password))}\n"
                    f"  HTTPS: {t(self.https)}\n  Insecure: {t(self.insecure)}\n"
                    f"  NTLM: {t(self.ntlm)}\n  CACert: {t(self.cacert)}")
        return (f"Connecting to remote host via SSH...\n  Host: {self.host}\n  User: {self.user}\n"
                f"  Password: {t(bool(self.password))}\n"
                f"  Private key: {t(bool(self.private_key))}\n"
                f"  Certificate: {t(bool(self.certificate))}\n  SSH Agent: {t(self.agent)}\n"
                f"  Checking Host Key: {t(bool(self.host_key))}\n"
                f"  Target Platform: {self.target_platform}\n")

    def bastion_banner(self) -> str:
        """The "Using configured bastion host" message ("" without a bastion)."""
        if not self.bastion_host:
            return ""
        t = _go_bool
        return (f"Using configured bastion host...\n  Host: {self.bastion_host}\n"
                f"  User: {self.bastion_user}\n  Password: {t(bool(self.bastion_password))}\n"
                f"  Private key: {t(bool(self.bastion_private_key))}\n"
                f"  Certificate: {t(bool(self.bastion_certificate))}\n"
                f"  SSH Agent: {t(self.agent)}\n"
                f"  Checking Host Key: {t(bool(self.bastion_host_key))}")

    def proxy_banner(self) -> str:
        """The "Using configured proxy host" message ("" without a proxy)."""
        if not self.proxy_host:
            return ""
        return (f"Using configured proxy host...\n  ProxyHost: {self.proxy_host}\n"
                f"  ProxyPort: {self.proxy_port}\n  ProxyUserName: {self.proxy_user_name}\n"
                f"  ProxyUserPassword: {_go_bool(bool(self.proxy_user_password))}")
