"""The go-plugin handshake: the environment a plugin is started with and the line it answers.

A plugin binary started with the magic cookie in its environment prints exactly one line on
stdout, `CORE|APP|NETWORK|ADDRESS|PROTOCOL|CERT`:

- CORE is go-plugin's core protocol version, always 1;
- APP is the plugin protocol version it chose among `PLUGIN_PROTOCOL_VERSIONS` (5 or 6 for
  Terraform providers; old providers answer 5 whatever was asked, so the answer is checked);
- NETWORK/ADDRESS is where it listens: `unix` and a socket path, or `tcp` and `host:port`;
- PROTOCOL is `grpc` (`netrpc` is the pre-0.12 protocol, not supported);
- CERT is empty, or (only when the client sent `PLUGIN_CLIENT_CERT`) the server certificate as
  DER in standard base64 without padding.

`parse_handshake(line, accepted)` returns a `Handshake` or raises `HandshakeError` with a
message that says what is wrong with the line.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "MAGIC_COOKIE_KEY",
    "MAGIC_COOKIE_VALUE",
    "Handshake",
    "HandshakeError",
    "handshake_env",
    "parse_handshake",
]

MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE"
MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2"
CORE_PROTOCOL_VERSION = 1


class HandshakeError(ValueError):
    """A handshake line that does not follow the go-plugin format or offers nothing we speak."""


@dataclass(frozen=True, slots=True)
class Handshake:
    """What the plugin said: protocol version, where to connect, its certificate (DER) if any."""

    protocol_version: int
    network: str
    address: str
    server_cert_der: bytes | None = None

    @property
    def grpc_target(self) -> str:
        """The address in gRPC's target syntax (`unix:/path` or `host:port`)."""
        return f"unix:{self.address}" if self.network == "unix" else self.address


def handshake_env(
    protocol_versions: Iterable[int], min_port: int = 10000, max_port: int = 25000
) -> dict[str, str]:
    """The variables go-plugin reads at start (without PLUGIN_CLIENT_CERT: see the package
    docstring for why the transport is plaintext)."""
    return {
        MAGIC_COOKIE_KEY: MAGIC_COOKIE_VALUE,
        "PLUGIN_PROTOCOL_VERSIONS": ",".join(str(v) for v in protocol_versions),
        "PLUGIN_MIN_PORT": str(min_port),
        "PLUGIN_MAX_PORT": str(max_port),
    }


def parse_handshake(line: str, accepted: Iterable[int]) -> Handshake:
    """Parse the plugin's first stdout line; `accepted` are the protocol versions we speak."""
    text = line.strip()
    parts = text.split("|")
    if len(parts) < 4:
        raise HandshakeError(f"unrecognized remote plugin message: {text!r}")
    try:
        core = int(parts[0])
    except ValueError:
        raise HandshakeError(f"unrecognized remote plugin message: {text!r}") from None
    if core != CORE_PROTOCOL_VERSION:
        raise HandshakeError(
            f"incompatible core API version with plugin: plugin version {core}, "
            f"ours {CORE_PROTOCOL_VERSION}"
        )
    try:
        app = int(parts[1])
    except ValueError:
        raise HandshakeError(f"error parsing protocol version {parts[1]!r}") from None
    versions = sorted(set(accepted))
    if app not in versions:
        raise HandshakeError(
            f"the plugin speaks protocol version {app}; this client supports "
            + ", ".join(str(v) for v in versions)
        )
    network, address = parts[2], parts[3]
    if network not in ("unix", "tcp") or not address:
        raise HandshakeError(f"unknown address type {network!r} in {text!r}")
    protocol = parts[4] if len(parts) > 4 and parts[4] else "netrpc"
    if protocol != "grpc":
        raise HandshakeError(f"the plugin speaks {protocol!r}; only grpc is supported")
    cert: bytes | None = None
    if len(parts) > 5 and parts[5]:
        raw = parts[5]
        try:
            cert = base64.b64decode(raw + "=" * (-len(raw) % 4), validate=True)
        except ValueError:
            raise HandshakeError("the plugin's certificate is not valid base64") from None
    return Handshake(app, network, address, cert)
