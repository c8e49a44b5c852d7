"""Throwaway OpenSSH servers on 127.0.0.1 for the SSH provisioner tests, and an HTTP CONNECT
proxy to reach them through.

`Keys(tmp)` makes key pairs with `ssh-keygen` (`.user(name, type)`, `.ca(name)`,
`.certify(key, ca, principals, host=False)`). `SSHServer.start(tmp, ...)` writes an `sshd_config` and a host key
(with `host_ca`, also a host certificate for `host_principals`) into its own directory and runs Debian's `/usr/sbin/sshd -D -e -f CONFIG` as the current user
(root) on 127.0.0.1 at a free port; `start` returns once sshd has said it is listening (read
from its log as it writes it) and a connection has been answered with an SSH banner.

The machine is left as it was: sshd runs inside a private mount namespace (`unshare -m`) in
which a tmpfs over `/run` holds the privilege separation directory it insists on, the login
records (`/var/log/wtmp`, `btmp`, `lastlog`) are bind-mounted from files in the server's
directory, and - for password logins - `/etc/shadow` is a copy whose root entry carries the
test password. Nothing outside the namespace sees any of it; `stop()` (and the context manager)
ends the server's process group.

`ConnectProxy()` is a small threaded HTTP proxy that answers CONNECT (optionally requiring
Basic credentials) and records every request head it received. `SocksProxy()` is a SOCKS5
proxy (RFC 1928, with RFC 1929 user name/password when given credentials) that records the
methods each client offered and the credentials it sent.
"""

from __future__ import annotations

import base64
import contextlib
import os
import shlex
import signal
import socket
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

SSHD = "/usr/sbin/sshd"
ROOT_PASSWORD = "test-password-1"


def require_sshd() -> None:
    """Fail loudly (never skip) when openssh-server is not installed."""
    if not os.path.exists(SSHD):
        raise AssertionError(
            f"{SSHD} is missing: install Debian's openssh-server (`make test` does)")


def free_port() -> int:
    """A TCP port on 127.0.0.1 nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class KeyPair:
    """A key pair on disk: the private key file, its public line (and certificate, if any)."""

    path: Path
    public: str
    certificate: str = ""

    @property
    def private(self) -> str:
        return self.path.read_text()


class Keys:
    """Key pairs made with ssh-keygen under one directory."""

    def __init__(self, base: Path) -> None:
        self.base = base / "keys"
        self.base.mkdir(parents=True, exist_ok=True)

    def user(self, name: str, kind: str = "ed25519", pem: bool = False) -> KeyPair:
        path = self.base / name
        args = ["ssh-keygen", "-q", "-t", kind, "-N", "", "-C", name, "-f", str(path)]
        if kind == "rsa":
            args += ["-b", "2048"]
        if pem:
            args += ["-m", "PEM"]
        subprocess.run(args, check=True, capture_output=True)
        return KeyPair(path, path.with_suffix(".pub").read_text().strip())

    def ca(self, name: str) -> KeyPair:
        return self.user(name)

    def certify(self, key: KeyPair, ca: KeyPair, principal: str = "root",
                host: bool = False) -> KeyPair:
        args = ["ssh-keygen", "-q", "-s", str(ca.path), "-I", key.path.name, "-n", principal,
                "-V", "-5m:+1h"]
        if host:
            args.append("-h")
        subprocess.run([*args, str(key.path) + ".pub"], check=True, capture_output=True)
        cert = Path(str(key.path) + "-cert.pub").read_text().strip()
        return KeyPair(key.path, key.public, cert)


@dataclass
class SSHServer:
    """A running sshd; see the module docstring."""

    directory: Path
    port: int
    host_key: KeyPair
    process: subprocess.Popen[bytes]
    log: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, base: Path, name: str = "sshd", *, authorized: tuple[KeyPair, ...] = (),
              password: bool = False, trusted_ca: KeyPair | None = None,
              forwarding: bool = True, host_key_type: str = "ed25519",
              host_ca: KeyPair | None = None, host_principals: str = "127.0.0.1") -> SSHServer:
        require_sshd()
        directory = base / name
        directory.mkdir(parents=True)
        directory.chmod(0o700)
        host_key = Keys(directory).user("host_key", host_key_type)
        if host_ca is not None:  # a host certificate for these principals, signed by host_ca
            host_key = Keys(directory).certify(host_key, host_ca, host_principals, host=True)
        (directory / "authorized_keys").write_text("".join(k.public + "\n" for k in authorized))
        for record in ("wtmp", "btmp", "lastlog"):
            (directory / record).touch()
        if password:
            _write_shadow(directory / "shadow")
        last: AssertionError | None = None
        for _ in range(5):  # a port taken between choosing and binding: choose again
            port = free_port()
            config = _config(directory, port, host_key, password, trusted_ca, forwarding)
            (directory / "sshd_config").write_text(config)
            proc = subprocess.Popen(
                ["unshare", "-m", "--propagation", "private", "/bin/sh", "-c",
                 _namespace_script(directory, password)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                start_new_session=True)
            server = cls(directory, port, host_key, proc)
            try:
                server._wait_listening()
                return server
            except AssertionError as exc:
                server.stop()
                last = exc
        raise AssertionError(f"sshd did not start: {last}")

    def _wait_listening(self) -> None:
        """Read sshd's log until it says it listens (or exits), then check it answers."""
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            line = raw.decode(errors="replace").rstrip()
            self.log.append(line)
            if "Server listening on" in line:
                break
        else:
            raise AssertionError("\n".join(self.log))
        threading.Thread(target=self._drain, daemon=True).start()
        with socket.create_connection(("127.0.0.1", self.port), timeout=30) as sock:
            banner = sock.makefile("rb").readline()
        assert banner.startswith(b"SSH-2.0-"), banner

    def _drain(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self.log.append(raw.decode(errors="replace").rstrip())

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=30)

    def __enter__(self) -> SSHServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _config(directory: Path, port: int, host_key: KeyPair, password: bool,
            trusted_ca: KeyPair | None, forwarding: bool) -> str:
    lines = [
        "ListenAddress 127.0.0.1",
        f"Port {port}",
        f"HostKey {host_key.path}",
        "PidFile none",
        "UsePAM no",
        "StrictModes no",
        "PermitRootLogin yes",
        f"PasswordAuthentication {'yes' if password else 'no'}",
        "KbdInteractiveAuthentication no",
        "PubkeyAuthentication yes",
        f"AuthorizedKeysFile {directory / 'authorized_keys'}",
        f"AllowTcpForwarding {'yes' if forwarding else 'no'}",
        "PrintMotd no",
        "PrintLastLog no",
        "UseDNS no",
        "LogLevel VERBOSE",
    ]
    if host_key.certificate:
        lines.append(f"HostCertificate {host_key.path}-cert.pub")
    if trusted_ca is not None:
        ca = directory / "trusted_ca.pub"
        ca.write_text(trusted_ca.public + "\n")
        lines.append(f"TrustedUserCAKeys {ca}")
    return "\n".join(lines) + "\n"


def _namespace_script(directory: Path, password: bool) -> str:
    d = shlex.quote(str(directory))
    steps = ["set -e", "mount -t tmpfs tmpfs /run", "mkdir -m 0755 /run/sshd"]
    for record in ("wtmp", "btmp", "lastlog"):
        if os.path.exists(f"/var/log/{record}"):
            steps.append(f"mount --bind {d}/{record} /var/log/{record}")
    if password:
        steps.append(f"mount --bind {d}/shadow /etc/shadow")
    steps.append(f"exec {SSHD} -D -e -f {d}/sshd_config")
    return "; ".join(steps)


def _write_shadow(path: Path) -> None:
    digest = subprocess.run(["openssl", "passwd", "-6", ROOT_PASSWORD], check=True,
                            capture_output=True, text=True).stdout.strip()
    lines = []
    for line in Path("/etc/shadow").read_text().splitlines():
        parts = line.split(":")
        if parts[0] == "root":
            parts[1] = digest
        lines.append(":".join(parts))
    path.write_text("\n".join(lines) + "\n")
    path.chmod(0o640)


class ConnectProxy:
    """An HTTP proxy on 127.0.0.1 that tunnels CONNECT requests (see the module docstring)."""

    def __init__(self, credentials: tuple[str, str] | None = None) -> None:
        self.credentials = credentials
        self.requests: list[str] = []
        self._listener = _Listener(self._handle)
        self.port = self._listener.port

    def _handle(self, client: socket.socket) -> None:
        with client:
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = client.recv(4096)
                if not chunk:
                    return
                head += chunk
            text = head.split(b"\r\n\r\n", 1)[0].decode()
            self.requests.append(text)
            request_line, *headers = text.split("\r\n")
            method, target, _ = request_line.split(" ", 2)
            if method != "CONNECT":
                client.sendall(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
                return
            if self.credentials is not None:
                token = base64.b64encode(":".join(self.credentials).encode()).decode()
                if f"Proxy-Authorization: Basic {token}" not in headers:
                    client.sendall(b"HTTP/1.1 407 Proxy Authentication Required\r\n"
                                   b"Content-Length: 0\r\n\r\n")
                    return
            host, port = target.rsplit(":", 1)
            try:
                upstream = socket.create_connection((host, int(port)), timeout=30)
            except OSError:
                client.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
                return
            with upstream:
                upstream.settimeout(None)
                client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                pump = threading.Thread(target=_pump, args=(upstream, client), daemon=True)
                pump.start()
                _pump(client, upstream)
                pump.join()

    def close(self) -> None:
        self._listener.close()

    def __enter__(self) -> ConnectProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Listener:
    """A threaded TCP server on 127.0.0.1 handing each connection to `handle`."""

    def __init__(self, handle: Callable[[socket.socket], None]) -> None:
        self._handle = handle
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._server.getsockname()[1])
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            threading.Thread(target=self._handle, args=(client,), daemon=True).start()

    def close(self) -> None:
        self._server.close()


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


class SocksProxy:
    """A SOCKS5 proxy (see the module docstring)."""

    def __init__(self, credentials: tuple[str, str] | None = None) -> None:
        self.credentials = credentials
        self.offered: list[bytes] = []
        self.logins: list[tuple[str, str]] = []
        self._listener = _Listener(self._handle)
        self.port = self._listener.port

    def close(self) -> None:
        self._listener.close()

    def __enter__(self) -> SocksProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _handle(self, client: socket.socket) -> None:
        with client, contextlib.suppress(EOFError, OSError):
            _, count = _recv_exact(client, 2)
            methods = _recv_exact(client, count)
            self.offered.append(methods)
            wanted = 2 if self.credentials is not None else 0
            if wanted not in methods:
                client.sendall(b"\x05\xff")
                return
            client.sendall(bytes([5, wanted]))
            if wanted == 2:
                _, ulen = _recv_exact(client, 2)
                user = _recv_exact(client, ulen).decode()
                plen = _recv_exact(client, 1)[0]
                password = _recv_exact(client, plen).decode()
                self.logins.append((user, password))
                if (user, password) != self.credentials:
                    client.sendall(b"\x01\x01")
                    return
                client.sendall(b"\x01\x00")
            _, _command, _, kind = _recv_exact(client, 4)
            if kind == 1:
                host = socket.inet_ntoa(_recv_exact(client, 4))
            elif kind == 3:
                host = _recv_exact(client, _recv_exact(client, 1)[0]).decode()
            else:
                host = socket.inet_ntop(socket.AF_INET6, _recv_exact(client, 16))
            port = int.from_bytes(_recv_exact(client, 2), "big")
            try:
                upstream = socket.create_connection((host, port), timeout=30)
            except OSError:
                client.sendall(b"\x05\x05\x00\x01" + bytes(6))  # connection refused
                return
            with upstream:
                upstream.settimeout(None)
                client.sendall(b"\x05\x00\x00\x01" + bytes(6))
                pump = threading.Thread(target=_pump, args=(upstream, client), daemon=True)
                pump.start()
                _pump(client, upstream)
                pump.join()


def _pump(src: socket.socket, dst: socket.socket) -> None:
    try:
        while chunk := src.recv(65536):
            dst.sendall(chunk)
    except OSError:
        pass
    with contextlib.suppress(OSError):
        dst.shutdown(socket.SHUT_WR)


__all__ = ["ROOT_PASSWORD", "ConnectProxy", "KeyPair", "Keys", "SSHServer", "SocksProxy",
           "free_port", "require_sshd"]
