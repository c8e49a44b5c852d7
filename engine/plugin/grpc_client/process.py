"""A provider plugin process: start it, read its handshake, drain its output, end it.

`PluginProcess.start(name, path, versions, ...)` starts the binary with the go-plugin
environment and waits (up to `start_timeout`) for the handshake line. It raises
`PluginStartError` naming the provider when the binary is missing or not executable, exits
before the handshake, prints no handshake in time, or prints a line that is not one.

Lifetime guarantees (a provider never outlives groundplan):
- Linux: the child asks for SIGKILL when its parent dies (`prctl(PR_SET_PDEATHSIG)`, set by a
  small `python -I -S` trampoline that then execs the provider binary: no `preexec_fn`, which
  can deadlock in a process with gRPC threads), which covers groundplan being SIGKILLed. The
  parent-death signal fires when the *thread* that forked exits, so every process is forked
  from one long-lived launcher thread, never from a short-lived worker of the graph walk.
- each provider runs in its own process group (Ctrl-C at the terminal is not delivered to it;
  we send StopProvider instead), and `kill()` signals the whole group;
- an `atexit` hook kills every provider still running at interpreter exit;
- each process gets a private temporary directory (mode 0700) as its `TMPDIR`, where go-plugin
  puts its unix socket; the directory is removed when the process ends, and directories left
  by a groundplan process that no longer exists (it was SIGKILLed) are removed at the next start.

Output: stdout after the handshake and all of stderr are read continuously by daemon threads
(an unread pipe blocks the provider mid-call). Stderr lines are hclog JSON (`@level`,
`@message`) or plain text (panics); each is logged to the `groundplan.provider` logger at its
level when that level passes TF_LOG_PROVIDER (or else TF_LOG); the last lines are kept for
crash reports (`output_tail()`).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from pathlib import Path
from typing import IO, Any

from engine.plugin.grpc_client.handshake import (
    Handshake,
    HandshakeError,
    handshake_env,
    parse_handshake,
)

__all__ = ["PluginProcess", "PluginStartError", "live_processes"]

log = logging.getLogger("groundplan.provider")

_TMP_PREFIX = "groundplan-plugin-"
_LEVELS = {
    "trace": 5, "debug": logging.DEBUG, "info": logging.INFO, "warn": logging.WARNING,
    "warning": logging.WARNING, "error": logging.ERROR, "off": logging.CRITICAL + 10,
}
_TAIL_LINES = 200


class PluginStartError(RuntimeError):
    """The plugin could not be started; the message names the provider and the cause."""


# ----------------------------------------------------------------------- launcher thread
# The parent-death signal is set by a tiny Python trampoline that then execs the provider
# (PR_SET_PDEATHSIG survives execve). A `preexec_fn` would run Python code in the forked child
# of a process with gRPC threads, which can deadlock on a lock held at fork time (seen here:
# Popen never returned); the trampoline runs in a fresh single-threaded interpreter instead.
_TRAMPOLINE = (
    "import ctypes,os,sys\n"
    "ctypes.CDLL(None,use_errno=True).prctl(1,9,0,0,0)\n"  # PR_SET_PDEATHSIG, SIGKILL
    "if os.getppid()!=int(sys.argv[1]):os._exit(1)\n"  # the parent died before prctl
    "os.execv(sys.argv[2],sys.argv[2:])\n"
)


def _command(binary: str, args: list[str]) -> list[str]:
    """The argv that runs `binary` tied to our life (Linux), or the binary itself."""
    if sys.platform.startswith("linux"):
        return [sys.executable, "-I", "-S", "-c", _TRAMPOLINE, str(os.getpid()), binary, *args]
    return [binary, *args]


_launch_queue: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]]] = queue.SimpleQueue()
_launcher: threading.Thread | None = None
_launcher_mu = threading.Lock()


def _launcher_loop() -> None:
    while True:
        fn, fut = _launch_queue.get()
        if not fut.set_running_or_notify_cancel():
            continue
        try:
            fut.set_result(fn())
        except BaseException as e:
            fut.set_exception(e)


def _in_launcher(fn: Callable[[], Any]) -> Any:
    """Run `fn` on the launcher thread (which lives as long as the interpreter)."""
    global _launcher
    with _launcher_mu:
        if _launcher is None or not _launcher.is_alive():
            _launcher = threading.Thread(
                target=_launcher_loop, name="groundplan-plugin-launcher", daemon=True
            )
            _launcher.start()
    fut: Future[Any] = Future()
    _launch_queue.put((fn, fut))
    return fut.result()


# ------------------------------------------------------------------------ process table
_live: set[PluginProcess] = set()
_live_mu = threading.Lock()


def live_processes() -> list[PluginProcess]:
    """Every plugin process started here and not yet ended."""
    with _live_mu:
        return list(_live)


@atexit.register
def _kill_all_at_exit() -> None:
    for proc in live_processes():
        proc.kill()


def _remove_stale_dirs() -> None:
    """Remove private socket directories left by groundplan processes that are gone."""
    base = Path(tempfile.gettempdir())
    with contextlib.suppress(OSError):
        for d in base.glob(_TMP_PREFIX + "*"):
            try:
                pid = int(d.name[len(_TMP_PREFIX):].split("-", 1)[0])
            except ValueError:
                continue
            if pid == os.getpid() or _pid_alive(pid):
                continue
            shutil.rmtree(d, ignore_errors=True)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _log_threshold() -> int:
    for var in ("TF_LOG_PROVIDER", "TF_LOG"):
        val = os.environ.get(var, "").strip().lower()
        if val:
            return _LEVELS.get(val, 5 if val in ("1", "true", "json") else logging.WARNING)
    return logging.CRITICAL + 10  # off


# ------------------------------------------------------------------------------ process
class PluginProcess:
    """One running plugin binary and the handshake it answered."""

    def __init__(
        self, name: str, popen: subprocess.Popen[bytes], tmpdir: str, handshake: Handshake
    ) -> None:
        self.name = name
        self.popen = popen
        self.tmpdir = tmpdir
        self.handshake = handshake
        self._tail: deque[str] = deque(maxlen=_TAIL_LINES)
        self._threshold = _log_threshold()

    @property
    def pid(self) -> int:
        return self.popen.pid

    # -- start ---------------------------------------------------------------------------
    @classmethod
    def start(
        cls,
        name: str,
        path: str | os.PathLike[str],
        versions: Iterable[int],
        *,
        start_timeout: float = 60.0,
        env: dict[str, str] | None = None,
        args: Iterable[str] = (),
    ) -> PluginProcess:
        """Start the plugin and complete the handshake (see module doc for the errors)."""
        versions = list(versions)
        binary = Path(path)
        if not binary.is_file():
            raise PluginStartError(
                f"Failed to start provider {name}: the plugin binary {str(binary)!r} "
                "does not exist"
            )
        if not os.access(binary, os.X_OK):
            raise PluginStartError(
                f"Failed to start provider {name}: the plugin binary {str(binary)!r} "
                "is not executable"
            )
        _remove_stale_dirs()
        tmpdir = tempfile.mkdtemp(prefix=f"{_TMP_PREFIX}{os.getpid()}-")
        os.chmod(tmpdir, 0o700)
        child_env = dict(os.environ if env is None else env)
        child_env.pop("PLUGIN_CLIENT_CERT", None)
        child_env.update(handshake_env(versions))
        child_env["TMPDIR"] = tmpdir
        child_env["PLUGIN_UNIX_SOCKET_DIR"] = tmpdir
        argv = _command(str(binary), list(args))

        def launch() -> subprocess.Popen[bytes]:
            return subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=child_env,
                start_new_session=True,
                close_fds=True,
            )

        try:
            popen: subprocess.Popen[bytes] = _in_launcher(launch)
        except OSError as e:
            shutil.rmtree(tmpdir, ignore_errors=True)
            raise PluginStartError(
                f"Failed to start provider {name}: could not run {str(binary)!r}: "
                f"{e.strerror or e}"
            ) from None
        proc = cls(name, popen, tmpdir, Handshake(0, "", ""))
        with _live_mu:
            _live.add(proc)
        lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        assert popen.stdout is not None and popen.stderr is not None
        threading.Thread(
            target=proc._read_stdout, args=(popen.stdout, lines), daemon=True,
            name=f"plugin-stdout-{popen.pid}",
        ).start()
        threading.Thread(
            target=proc._read_stderr, args=(popen.stderr,), daemon=True,
            name=f"plugin-stderr-{popen.pid}",
        ).start()
        try:
            proc.handshake = proc._await_handshake(lines, versions, start_timeout)
        except BaseException:
            proc.kill()
            raise
        return proc

    def _await_handshake(
        self, lines: queue.SimpleQueue[str | None], versions: list[int], timeout: float
    ) -> Handshake:
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise PluginStartError(
                    f"Failed to start provider {self.name}: the plugin printed no handshake "
                    f"within {timeout:g}s; it may not be a Terraform provider plugin"
                    + self._tail_text()
                )
            try:
                line = lines.get(timeout=min(remaining, 0.25))
            except queue.Empty:
                continue
            if line is None:
                code = self.popen.wait(timeout=5)
                self.wait_output_end()
                raise PluginStartError(
                    f"Failed to start provider {self.name}: the plugin exited with status "
                    f"{code} before the handshake; it may not be a Terraform provider plugin"
                    + self._tail_text()
                )
            try:
                return parse_handshake(line, versions)
            except HandshakeError as e:
                raise PluginStartError(
                    f"Failed to start provider {self.name}: invalid plugin handshake: {e}"
                ) from None

    # -- output --------------------------------------------------------------------------
    _stderr_done: threading.Event | None = None

    def _read_stdout(self, stream: IO[bytes], lines: queue.SimpleQueue[str | None]) -> None:
        first = True
        for raw in iter(stream.readline, b""):
            text = raw.decode("utf-8", errors="replace").rstrip("\n")
            if first:
                first = False
                lines.put(text)
            else:
                self._emit(text)
        lines.put(None)

    def _read_stderr(self, stream: IO[bytes]) -> None:
        done = self._stderr_done = threading.Event()
        try:
            for raw in iter(stream.readline, b""):
                self._emit(raw.decode("utf-8", errors="replace").rstrip("\n"))
        finally:
            done.set()

    def wait_output_end(self, timeout: float = 2.0) -> None:
        """Wait (bounded) until all of stderr has been read; for an exited process."""
        deadline = time.monotonic() + timeout
        while self._stderr_done is None and time.monotonic() < deadline:
            time.sleep(0.01)
        if self._stderr_done is not None:
            self._stderr_done.wait(max(0.0, deadline - time.monotonic()))

    def _emit(self, line: str) -> None:
        if not line:
            return
        level, message = logging.ERROR, line
        if line.startswith("{"):
            try:
                rec = json.loads(line)
                message = str(rec.get("@message", line))
                level = _LEVELS.get(str(rec.get("@level", "")).lower(), logging.INFO)
                # the SDK's own level is often inside the text: "[DEBUG] ..."
                for tag, lv in (("[TRACE]", 5), ("[DEBUG]", logging.DEBUG),
                                ("[INFO]", logging.INFO), ("[WARN]", logging.WARNING),
                                ("[ERROR]", logging.ERROR)):
                    if message.startswith(tag) or f" {tag} " in message[:60]:
                        level = lv
                        break
            except ValueError:
                pass
        self._tail.append(message)
        if level >= self._threshold:
            log.log(level, "%s: %s", self.name, message)

    def output_tail(self) -> str:
        """The provider's last lines of output (stderr, plain text)."""
        return "\n".join(self._tail)

    def _tail_text(self) -> str:
        tail = self.output_tail().strip()
        return f"\n\nPlugin output:\n{tail}" if tail else ""

    # -- end -----------------------------------------------------------------------------
    def exited(self) -> int | None:
        """The exit status when the process has ended (reaped), else None."""
        return self.popen.poll()

    def wait(self, timeout: float) -> int | None:
        try:
            return self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def terminate(self, grace: float = 2.0) -> int | None:
        """SIGTERM, then SIGKILL after `grace` seconds; reaps and cleans up."""
        if self.popen.poll() is None:
            self._signal(signal.SIGTERM)
            if self.wait(grace) is None:
                self._signal(signal.SIGKILL)
                self.wait(5.0)
        self._cleanup()
        return self.popen.returncode

    def kill(self) -> None:
        """SIGKILL the process group at once; reap and clean up."""
        if self.popen.poll() is None:
            self._signal(signal.SIGKILL)
            self.wait(5.0)
        self._cleanup()

    def _signal(self, sig: signal.Signals) -> None:
        try:
            os.killpg(self.popen.pid, sig)
        except (ProcessLookupError, PermissionError):
            with contextlib.suppress(ProcessLookupError):
                self.popen.send_signal(sig)

    def _cleanup(self) -> None:
        """Reaped or not, forget the process and remove its private directory (socket)."""
        if self.popen.poll() is not None:
            with _live_mu:
                _live.discard(self)
        shutil.rmtree(self.tmpdir, ignore_errors=True)
