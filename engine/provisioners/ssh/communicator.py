"""terraform's SSH communicator over paramiko: connect (directly, through a bastion, through a
proxy), run commands, and upload files and directories with scp.

`Communicator.new(info)` is terraform's ssh.New: it connects to the SSH agent when `agent` is
set and builds the target's (and the bastion's) client settings, raising `CommError` with
terraform's text for unusable arguments. As terraform 1.11 does, the bastion's host key is
checked against `host_key` (the target's), not `bastion_host_key`, which only shows in the
"Using configured bastion host" banner.

- `connect(output)` is one attempt of terraform's Connect, for `engine.provisioners.retry`:
  with `output` it first shows the connecting banner (and the bastion's and the proxy's), then
  dials (`dial tcp ...` errors), for a bastion authenticates there (`Error connecting to bastion:
  ...`, through a proxy `Error connecting to proxy: ...` / `Error creating new client connection
  via proxy: ...`) and opens a tunnel (`ssh: rejected: connect failed (Connection refused)`),
  then shakes hands with the target (`SSH authentication failed (user@host:port): ssh: handshake
  failed: ...`), and shows `Connected!`. Every failure is `Retryable`.
- `run(command, stdout, stderr, stop)` starts a command as terraform's Start (a pty `xterm`
  80x40 unless the target is windows, the command trimmed and ended with a newline, an empty
  standard input), feeds its output to two `Sink`s (a `engine.provisioners.lines.LineSplitter`
  shows it line by line, a `Capture` keeps it) and returns `RemoteCmd` with the exit: an
  exit status, or a signal (`Process exited with status 137 from signal KILL`), or neither
  (`wait: remote command exited without exit status or exit signal`, also when `stop` ends it).
- `upload(path, data)`, `upload_dir(dst, src)` run `scp -vt DIR` / `scp -rvt DST` and speak
  `engine.provisioners.ssh.scp` to it; a scp that exits 127 is terraform's "SCP failed to start"
  text, another non-zero exit `Process exited with status N`.
- `upload_script(path, content)` is UploadScript: `#!/bin/sh` prepended unless the script
  starts with `#!` (unix), uploaded, then `chmod 0777 PATH`.

A session that cannot be opened on a dropped connection reconnects once, silently. Nothing here
logs secrets.
"""

from __future__ import annotations

import contextlib
import io
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, BinaryIO, Protocol

import paramiko

from engine.gocompat.strconv import quote as go_quote
from engine.provisioners.base import OutputFn
from engine.provisioners.connection import ConnInfo
from engine.provisioners.dial import DialError, ProxySettings, dial, proxy_dial, split_host_port
from engine.provisioners.lines import IDLE_FLUSH_SECONDS
from engine.provisioners.retry import Retryable
from engine.provisioners.ssh import scp, wire
from engine.provisioners.ssh.auth import (
    AuthError,
    ClientSettings,
    SettingsError,
    client_settings,
    connect_agent,
    handshake,
)

KEEPALIVE_SECONDS = 2
_POLL = 0.05
_CHUNK = 32768
_EXIT_MISSING = "wait: remote command exited without exit status or exit signal"
_SCP_MISSING = ("SCP failed to start. This usually means that SCP is not\n"
                "properly installed on the remote system.")
_SIGNALS = {"ABRT": 6, "ALRM": 14, "FPE": 8, "HUP": 1, "ILL": 4, "INT": 2, "KILL": 9,
            "PIPE": 13, "QUIT": 3, "SEGV": 11, "TERM": 15, "USR1": 10, "USR2": 12}


class Sink(Protocol):
    """Where a command's output goes: a `LineSplitter`, or a `Capture` of the raw bytes."""

    @property
    def pending(self) -> bool: ...

    def feed(self, chunk: bytes) -> None: ...

    def flush(self) -> None: ...


class Capture:
    """A `Sink` that keeps the raw bytes."""

    pending = False

    def __init__(self) -> None:
        self.data = bytearray()

    def feed(self, chunk: bytes) -> None:
        self.data += chunk

    def flush(self) -> None:
        """Nothing to do: the bytes are kept as they came."""

    def text(self) -> str:
        return bytes(self.data).decode("utf-8", errors="replace")


class CommError(Exception):
    """A communicator operation failed; `str(exc)` is terraform's text."""


@dataclass(frozen=True, slots=True)
class RemoteCmd:
    """How a remote command ended: its exit status and x/crypto's wait error (None if 0)."""

    command: str
    status: int
    wait_error: str | None

    def error(self) -> str | None:
        """terraform's remote.ExitError text, or None for success."""
        if self.wait_error is not None:
            return f"error executing {go_quote(self.command)}: {self.wait_error}"
        if self.status != 0:
            return f"{go_quote(self.command)} exit status: {self.status}"
        return None


def _wait_result(chan: paramiko.Channel, command: str) -> RemoteCmd:
    status = chan.exit_status if chan.exit_status_ready() else -1
    if status == 0:
        return RemoteCmd(command, 0, None)
    if status != -1:
        return RemoteCmd(command, status, f"Process exited with status {status}")
    sig = wire.exit_signal(chan)
    if sig is None:
        return RemoteCmd(command, -1, _EXIT_MISSING)
    name, message = sig
    status = 128 + _SIGNALS.get(name, 0)
    text = f"Process exited with status {status} from signal {name}"
    return RemoteCmd(command, status, text + (f". Reason was: {message}" if message else ""))


class _ChannelStream:
    """A channel's stdin/stdout as an `scp.ScpStream`; stderr is drained as it comes."""

    def __init__(self, chan: paramiko.Channel, stop: threading.Event) -> None:
        self.chan = chan
        self.stop = stop
        self.stderr = bytearray()
        chan.settimeout(_POLL)

    def _drain_stderr(self) -> None:
        while self.chan.recv_stderr_ready():
            self.stderr += self.chan.recv_stderr(_CHUNK)

    def drain(self) -> None:
        """Read and drop whatever scp still writes (so its window never fills)."""
        self._drain_stderr()
        while self.chan.recv_ready():
            self.chan.recv(_CHUNK)

    def write(self, data: bytes) -> None:
        self._drain_stderr()
        try:
            self.chan.sendall(data)
        except (OSError, paramiko.SSHException) as exc:
            raise EOFError from exc

    def read(self, n: int) -> bytes:
        while True:
            self._drain_stderr()
            if self.stop.is_set():
                return b""
            try:
                return self.chan.recv(n)
            except TimeoutError:
                continue


class Communicator:
    """One SSH connection to a target host, reopened on demand (see the module docstring)."""

    def __init__(self, info: ConnInfo, target: ClientSettings,
                 bastion: ClientSettings | None, proxy: ProxySettings | None,
                 agent: paramiko.Agent | None) -> None:
        self.info = info
        self._target = target
        self._bastion = bastion
        self._proxy = proxy
        self._agent = agent
        self._lock = threading.RLock()
        self._transport: paramiko.Transport | None = None
        self._bastion_transport: paramiko.Transport | None = None
        self._sock: Any = None

    @classmethod
    def new(cls, info: ConnInfo) -> Communicator:
        """terraform's ssh.New for `info` (see the module docstring)."""
        try:
            agent = connect_agent() if info.agent else None
            target = client_settings(
                user=info.user, host_port=info.host_port, private_key=info.private_key,
                password=info.password, host_key=info.host_key, certificate=info.certificate,
                agent=agent, agent_identity=info.agent_identity)
            bastion = None
            if info.bastion_host:
                bastion = client_settings(
                    user=info.bastion_user, host_port=f"{info.bastion_host}:{info.bastion_port}",
                    private_key=info.bastion_private_key, password=info.bastion_password,
                    host_key=info.host_key, certificate=info.bastion_certificate,
                    agent=agent, agent_identity=info.agent_identity)
        except SettingsError as exc:
            raise CommError(str(exc)) from None
        proxy = None
        if info.proxy_host:
            proxy = ProxySettings(info.proxy_scheme, info.proxy_host, info.proxy_port,
                                  info.proxy_user_name, info.proxy_user_password)
        return cls(info, target, bastion, proxy, agent)

    # -- connecting ---------------------------------------------------------------------------
    def _open_bastion(self) -> paramiko.Channel:
        assert self._bastion is not None
        b = self._bastion
        if self._proxy is not None:
            try:
                sock = proxy_dial(self._proxy, b.host_port)
            except DialError as exc:
                raise Retryable(f"Error connecting to proxy: {exc}") from None
            self._sock = sock
            prefix = "Error creating new client connection via proxy: ssh: handshake failed: "
        else:
            try:
                sock = dial(b.host_port, None)
            except DialError as exc:
                raise Retryable(f"Error connecting to bastion: {exc}") from None
            self._sock = sock
            prefix = "Error connecting to bastion: ssh: handshake failed: "
        try:
            self._bastion_transport = handshake(sock, b)
        except AuthError as exc:
            sock.close()
            raise Retryable(prefix + str(exc)) from None
        host, port = split_host_port(self._target.host_port)
        try:
            return self._bastion_transport.open_channel("direct-tcpip", (host, port),
                                                        ("127.0.0.1", 0))
        except paramiko.ChannelException as exc:
            reason = {1: "administratively prohibited", 2: "connect failed",
                      3: "unknown channel type", 4: "resource shortage"}.get(
                exc.code, f"unknown reason {exc.code}")
            text = wire.open_failure(self._bastion_transport) if self._bastion_transport else None
            self._close_bastion()
            raise Retryable(f"ssh: rejected: {reason} ({text or exc.text})") from None
        except (paramiko.SSHException, OSError, EOFError) as exc:
            self._close_bastion()
            raise Retryable(str(exc) or "EOF") from None

    def _open_socket(self) -> Any:
        if self._bastion is not None:
            return self._open_bastion()
        try:
            if self._proxy is not None:
                sock = proxy_dial(self._proxy, self._target.host_port)
            else:
                sock = dial(self._target.host_port)
        except DialError as exc:
            raise Retryable(str(exc)) from None
        self._sock = sock
        return sock

    def connect(self, output: OutputFn | None) -> None:
        """One connection attempt (see the module docstring)."""
        with self._lock:
            self.abort()
            if output is not None:
                output(self.info.banner())
                for extra in (self.info.bastion_banner(), self.info.proxy_banner()):
                    if extra:
                        output(extra)
            sock = self._open_socket()
            try:
                transport = handshake(sock, self._target)
            except AuthError as exc:
                self.abort()
                raise Retryable(f"SSH authentication failed ({self._target.user}@"
                                f"{self._target.host_port}): ssh: handshake failed: {exc}"
                                ) from None
            transport.set_keepalive(KEEPALIVE_SECONDS)
            self._transport = transport
        if output is not None:
            output("Connected!")

    def _close_bastion(self) -> None:
        bastion, self._bastion_transport = self._bastion_transport, None
        if bastion is not None:
            bastion.close()

    def abort(self) -> None:
        """Close the connection, the bastion's and the socket under them, without waiting for
        a connection attempt in progress (which then fails); harmless when there is none."""
        transport, self._transport = self._transport, None
        if transport is not None:
            transport.close()
        self._close_bastion()
        sock, self._sock = self._sock, None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.close()

    def disconnect(self) -> None:
        """terraform's Disconnect: `abort()`, and let go of the SSH agent."""
        self.abort()
        if self._agent is not None:
            self._agent.close()

    def _session(self) -> paramiko.Channel:
        """A new session channel, reconnecting once if the connection is gone."""
        with self._lock:
            t = self._transport
            if t is not None and t.is_active():
                with contextlib.suppress(paramiko.SSHException, OSError, EOFError):
                    return t.open_session()
            try:
                self.connect(None)
            except Retryable as exc:
                raise CommError(str(exc)) from None
            assert self._transport is not None
            try:
                return self._transport.open_session()
            except (paramiko.SSHException, OSError, EOFError) as exc:
                raise CommError(str(exc) or "EOF") from None

    # -- commands -----------------------------------------------------------------------------
    def start(self, command: str) -> paramiko.Channel:
        """terraform's Start: a channel running `command` (CommError if it cannot start)."""
        chan = self._session()
        try:
            if self.info.target_platform != "windows":
                chan.get_pty(term="xterm", width=80, height=40)
            chan.exec_command(command.strip() + "\n")
            chan.shutdown_write()  # x/crypto sends an empty standard input
        except (paramiko.SSHException, OSError, EOFError) as exc:
            chan.close()
            raise CommError(str(exc) or "EOF") from None
        return chan

    def run(self, command: str, stdout: Sink, stderr: Sink, stop: threading.Event) -> RemoteCmd:
        """Start `command`, feed its output to the sinks as it comes, and wait for it to end."""
        chan = self.start(command)
        try:
            _pump(chan, stdout, stderr, stop)
            while not chan.status_event.wait(_POLL):
                if stop.is_set() or chan.closed:
                    break
            if stop.is_set() and not chan.exit_status_ready():
                self.abort()
                return RemoteCmd(command, -1, _EXIT_MISSING)
            return _wait_result(chan, command)
        finally:
            chan.close()

    # -- uploads ------------------------------------------------------------------------------
    def _scp(self, args: list[str], send: Callable[[scp.ScpStream], None],
             stop: threading.Event) -> None:
        try:
            command = scp.scp_command(args, self.info.target_platform)
        except scp.ScpError as exc:
            raise CommError(str(exc)) from None
        chan = self._session()
        try:
            try:
                chan.exec_command(command)
            except (paramiko.SSHException, OSError, EOFError) as exc:
                raise CommError(str(exc) or "EOF") from None
            stream = _ChannelStream(chan, stop)
            try:
                scp.start(stream)
                send(stream)
            except EOFError:
                pass  # scp ended early: its exit status tells why
            except scp.ScpError as exc:
                raise CommError(str(exc)) from None
            with contextlib.suppress(OSError, paramiko.SSHException, EOFError):
                chan.shutdown_write()
            while not chan.status_event.wait(_POLL):
                stream.drain()
                if stop.is_set() or chan.closed:
                    break
            result = _wait_result(chan, command)
            if result.status == 127:
                raise CommError(_SCP_MISSING)
            if result.wait_error is not None:
                raise CommError(result.wait_error)
        finally:
            chan.close()

    def upload(self, path: str, data: bytes | BinaryIO, size: int | None = None,
               stop: threading.Event | None = None) -> None:
        """terraform's Upload: one file to `path` (see `scp.go_dir` / `scp.go_base`)."""
        source: BinaryIO = io.BytesIO(data) if isinstance(data, bytes) else data
        length = len(data) if isinstance(data, bytes) else (size or 0)
        name = scp.go_base(path)
        self._scp(["scp", "-vt", scp.go_dir(path)],
                  lambda s: scp.send_file(s, name, source, length), stop or threading.Event())

    def upload_dir(self, dst: str, src: str, stop: threading.Event | None = None) -> None:
        """terraform's UploadDir: local directory `src` to `dst`."""
        self._scp(["scp", "-rvt", dst], lambda s: scp.send_directory(s, src),
                  stop or threading.Event())

    def upload_script(self, path: str, content: bytes, stop: threading.Event) -> None:
        """terraform's UploadScript (see the module docstring)."""
        if len(content) < 2:
            raise CommError("Error reading script: EOF")
        unix = self.info.target_platform != "windows"
        if content[:2] != b"#!" and unix:
            content = b"#!/bin/sh\n" + content
        self.upload(path, content, stop=stop)
        if not unix:
            return
        out, err = Capture(), Capture()
        try:
            cmd = self.run(f"chmod 0777 {path}", out, err, stop)
        except CommError as exc:
            raise CommError(
                f"Error chmodding script file to 0777 in remote machine: {exc}") from None
        failure = cmd.error()
        if failure is not None:
            raise CommError(f"Error chmodding script file to 0777 in remote machine {failure}: "
                            f"{out.text()} {err.text()}")


def _pump(chan: paramiko.Channel, out: Sink, err: Sink, stop: threading.Event) -> None:
    """Feed the channel's stdout and stderr to the sinks until both end (or `stop`); a
    partial line is flushed after IDLE_FLUSH_SECONDS without new bytes, as go-linereader."""
    last = {"out": time.monotonic(), "err": time.monotonic()}
    chan.settimeout(_POLL)
    while not stop.is_set():
        got = False
        if chan.recv_stderr_ready():
            err.feed(chan.recv_stderr(_CHUNK))
            last["err"] = time.monotonic()
            got = True
        try:
            data = chan.recv(_CHUNK)
        except TimeoutError:
            data = None
        if data:
            out.feed(data)
            last["out"] = time.monotonic()
            got = True
        elif data == b"" and not chan.recv_stderr_ready():
            break
        if not got:
            now = time.monotonic()
            for name, lines in (("out", out), ("err", err)):
                if lines.pending and now - last[name] >= IDLE_FLUSH_SECONDS:
                    lines.flush()
    out.flush()
    err.flush()


__all__ = ["CommError", "Communicator", "RemoteCmd"]
