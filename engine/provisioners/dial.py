"""Opening TCP connections for the communicators, with Go's error texts, directly or through
a proxy as terraform's SSH communicator does.

- `dial(host_port, timeout)`: a connected socket, or `DialError` worded as Go's net.Dial
  (`dial tcp 127.0.0.1:22: connect: connection refused`, `... i/o timeout` when `timeout`
  passes, `dial tcp: lookup NAME: no such host`). `host_port` is `host:port` with an IPv6 host
  in brackets.
- `proxy_dial(proxy, target)`: a socket tunnelled to `target` through `proxy`
  (`ProxySettings`): scheme `http` (the default) or `https` is an HTTP CONNECT exchanged in
  plain text, with `Proxy-Authorization: Basic` always sent (terraform sends it even without a
  user name); a reply other than 200 is `Connection Error: StatusCode: N`. Scheme `socks5`
  (`socks5h`) is a SOCKS5 CONNECT offering "no authentication" and user name/password; its
  failures read `socks connect tcp PROXY->TARGET: ...`. Any other scheme is
  `proxy: unknown scheme: X`.

The socket returned is blocking without a timeout.
"""

from __future__ import annotations

import base64
import ipaddress
import os
import socket
import struct
from dataclasses import dataclass, field

CONNECT_TIMEOUT = 15.0


class DialError(Exception):
    """A connection could not be made; `str(exc)` is Go's text."""


@dataclass(frozen=True, slots=True)
class ProxySettings:
    """A proxy from the connection block."""

    scheme: str
    host: str
    port: int
    user: str = ""
    password: str = field(default="", repr=False)

    @property
    def host_port(self) -> str:
        return f"{self.host}:{self.port}"


def split_host_port(host_port: str) -> tuple[str, int]:
    """(`host` without brackets, port) of `host:port`."""
    host, _, port = host_port.rpartition(":")
    return host.strip("[]"), int(port)


def _errno_text(code: int) -> str:
    text = os.strerror(code)
    return text[0].lower() + text[1:] if text else text


def dial_error(host_port: str, exc: OSError) -> str:
    """Go's net.Dial error text for a failed connection to `host_port`."""
    if isinstance(exc, socket.gaierror):
        return f"dial tcp: lookup {split_host_port(host_port)[0]}: no such host"
    if isinstance(exc, TimeoutError) and exc.errno in (None, 0):
        return f"dial tcp {host_port}: i/o timeout"
    if exc.errno:
        return f"dial tcp {host_port}: connect: {_errno_text(exc.errno)}"
    return f"dial tcp {host_port}: {exc}"


def dial(host_port: str, timeout: float | None = CONNECT_TIMEOUT) -> socket.socket:
    """A TCP connection to `host_port` (see the module docstring)."""
    host, port = split_host_port(host_port)
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as exc:
        raise DialError(dial_error(host_port, exc)) from None
    sock.settimeout(None)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    return sock


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def _http_connect(proxy: ProxySettings, target: str) -> socket.socket:
    sock = dial(proxy.host_port, None)
    try:
        sock.settimeout(CONNECT_TIMEOUT)
        token = base64.b64encode(f"{proxy.user}:{proxy.password}".encode()).decode()
        request = (f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\nUser-Agent: groundplan\r\n"
                   f"Authorization: Basic {token}\r\nProxy-Authorization: Basic {token}\r\n\r\n")
        sock.sendall(request.encode())
        head = b""
        while not head.endswith(b"\r\n\r\n"):  # byte by byte: what follows belongs to SSH
            b = sock.recv(1)
            if not b:
                raise DialError("unexpected EOF" if head else "EOF")
            head += b
        status_line = head.split(b"\r\n", 1)[0].decode("latin-1")
        parts = status_line.split(" ", 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
            raise DialError(f'malformed HTTP response "{status_line}"')
        if int(parts[1]) != 200:
            raise DialError(f"Connection Error: StatusCode: {int(parts[1])}")
        sock.settimeout(None)
        return sock
    except TimeoutError:
        sock.close()
        raise DialError(f"read tcp {proxy.host_port}: i/o timeout") from None
    except OSError as exc:
        sock.close()
        reason = _errno_text(exc.errno) if exc.errno else str(exc)
        raise DialError(f"read tcp {proxy.host_port}: {reason}") from None
    except DialError:
        sock.close()
        raise


_SOCKS_REPLIES = ("succeeded", "general SOCKS server failure",
                  "connection not allowed by ruleset", "network unreachable", "host unreachable",
                  "connection refused", "TTL expired", "command not supported",
                  "address type not supported")


def _socks_address(host: str) -> bytes:
    try:
        addr = ipaddress.ip_address(host)
    except ValueError:
        name = host.encode()
        return b"\x03" + bytes([len(name)]) + name
    return (b"\x01" if addr.version == 4 else b"\x04") + addr.packed


def _socks_exchange(sock: socket.socket, proxy: ProxySettings, target: str) -> None:
    sock.sendall(b"\x05\x02\x00\x02")
    version, method = _recv_exact(sock, 2)
    if version != 5:
        raise DialError(f"unexpected protocol version {version}")
    if method == 2:
        user, password = proxy.user.encode(), proxy.password.encode()
        sock.sendall(b"\x01" + bytes([len(user)]) + user + bytes([len(password)]) + password)
        if _recv_exact(sock, 2)[1] != 0:
            raise DialError("username/password authentication failed")
    elif method != 0:
        raise DialError("no acceptable authentication methods")
    host, port = split_host_port(target)
    sock.sendall(b"\x05\x01\x00" + _socks_address(host) + struct.pack(">H", port))
    _, reply, _, kind = _recv_exact(sock, 4)
    if reply != 0:
        name = _SOCKS_REPLIES[reply] if reply < len(_SOCKS_REPLIES) else f"unknown code: {reply}"
        raise DialError(f"unknown error {name}")
    length = {1: 4, 4: 16}.get(kind) or _recv_exact(sock, 1)[0]
    _recv_exact(sock, length + 2)


def _socks5(proxy: ProxySettings, target: str) -> socket.socket:
    sock = dial(proxy.host_port, None)
    try:
        _socks_exchange(sock, proxy, target)
    except (DialError, OSError, EOFError) as exc:
        sock.close()
        text = "unexpected EOF" if isinstance(exc, EOFError) else str(exc)
        raise DialError(f"socks connect tcp {proxy.host_port}->{target}: {text}") from None
    return sock


def proxy_dial(proxy: ProxySettings, target: str) -> socket.socket:
    """A connection to `target` through `proxy` (see the module docstring)."""
    scheme = proxy.scheme or "http"
    if scheme in ("http", "https"):
        return _http_connect(proxy, target)
    if scheme in ("socks5", "socks5h"):
        return _socks5(proxy, target)
    raise DialError(f"proxy: unknown scheme: {scheme}")


__all__ = ["CONNECT_TIMEOUT", "DialError", "ProxySettings", "dial", "dial_error", "proxy_dial",
           "split_host_port"]
