"""The `local-exec` provisioner: runs a command on the machine running groundplan.

Behaviour, as Terraform 1.11's:
- `command` (required) runs as the last argument of `interpreter` (default `/bin/sh -c`, or
  `cmd /C` on Windows); interpreter elements that are null are skipped, an empty interpreter
  list means the default. A null or empty command is "Invalid local-exec provisioner command".
- The child inherits groundplan's environment plus `environment` (null values skipped; a key
  given here wins), runs in `working_dir` (default: the current directory), with stdin from
  /dev/null and stdout and stderr merged into one pipe.
- Before starting, the line `Executing: ["/bin/sh" "-c" "..."]` (the argv Go-quoted) is shown;
  with `quiet = true` it is `local-exec: Executing: Suppressed by quiet=true` instead. The
  command's output is shown line by line as it arrives (see `engine.provisioners.lines`), also
  when quiet.
- A failure is the error "local-exec provisioner error" with the detail
  `Error running command '<command>': <reason>. Output: <last 8 KiB of output>`, where the
  reason is worded as Go's os/exec: `exit status 1`, `signal: killed`, `exec: "x": executable
  file not found in $PATH`, `fork/exec /x: no such file or directory`, `chdir /d: no such file
  or directory`. The executable is looked up in groundplan's own PATH, as Go does.
- When `stop` is set the child's whole process group is killed (the child leads its own
  group), and the call returns without waiting for stray processes holding the pipe.

Unknown values (which cannot occur at apply) are treated as absent.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import threading
from dataclasses import dataclass

from engine.diags import Diagnostics, error
from engine.gocompat.strconv import quote as go_quote
from engine.provisioners.base import OutputFn
from engine.provisioners.lines import TailBuffer, read_lines
from engine.provisioners.schema import LOCAL_EXEC_SCHEMA, ConfigSchema
from engine.values import Value

QUIET_LINE = "local-exec: Executing: Suppressed by quiet=true"
_POLL = 0.05


def _go_text(message: str) -> str:
    """A C library message as Go words it (`No such file` -> `no such file`, `I/O` kept)."""
    if len(message) > 1 and message[0].isupper() and message[1].islower():
        return message[0].lower() + message[1:]
    return message


def _errno_text(exc: OSError) -> str:
    if exc.errno is None:
        return str(exc)
    return _go_text(os.strerror(exc.errno))


def exit_reason(returncode: int) -> str:
    """Go's ExitError text for a finished child: `exit status N` or `signal: killed`."""
    if returncode >= 0:
        return f"exit status {returncode}"
    try:
        name = signal.strsignal(-returncode) or f"signal {-returncode}"
    except ValueError:
        name = f"signal {-returncode}"
    return f"signal: {_go_text(name)}"


def _str(v: Value | None) -> str | None:
    if v is None or not v.is_known or v.is_null:
        return None
    return str(v.v)


@dataclass(frozen=True, slots=True)
class Invocation:
    """A decoded local-exec configuration: what to run, where, and how to show it."""

    command: str
    argv: list[str]
    environment: dict[str, str]
    working_dir: str
    quiet: bool

    @classmethod
    def from_config(cls, config: Value) -> Invocation:
        """Read an (unmarked) decoded configuration object."""
        attrs: dict[str, Value] = config.v if isinstance(config.v, dict) else {}
        command = _str(attrs.get("command")) or ""
        argv: list[str] = []
        interp = attrs.get("interpreter")
        if interp is not None and interp.is_known and not interp.is_null:
            argv = [s for s in (_str(e) for e in interp.elements()) if s is not None]
        if not argv:
            argv = ["cmd", "/C"] if os.name == "nt" else ["/bin/sh", "-c"]
        env: dict[str, str] = {}
        envv = attrs.get("environment")
        if envv is not None and envv.is_known and not envv.is_null:
            for k, e in envv.v.items():
                s = _str(e)
                if s is not None:
                    env[k] = s
        quiet = attrs.get("quiet")
        return cls(
            command=command,
            argv=[*argv, command],
            environment=env,
            working_dir=_str(attrs.get("working_dir")) or "",
            quiet=bool(quiet is not None and quiet.is_known and quiet.v is True),
        )

    def executing_line(self) -> str:
        """The line shown before the command starts."""
        if self.quiet:
            return QUIET_LINE
        return "Executing: [" + " ".join(go_quote(a) for a in self.argv) + "]"


def _resolve(name: str) -> tuple[str | None, str]:
    """The program to start, found as Go's exec.Command does, or None and the error text."""
    if os.sep in name or (os.altsep is not None and os.altsep in name):
        return name, ""
    found = shutil.which(name, path=os.environ.get("PATH", ""))
    if found is None:
        return None, f'exec: "{name}": executable file not found in $PATH'
    return found, ""


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


class LocalExec:
    """The `local-exec` provisioner (see the module docstring)."""

    type_name = "local-exec"

    @property
    def schema(self) -> ConfigSchema:
        return LOCAL_EXEC_SCHEMA

    def validate(self, config: Value) -> Diagnostics:
        """Nothing beyond the schema (as terraform's local-exec)."""
        return Diagnostics()

    def provision(
        self,
        config: Value,
        output: OutputFn,
        stop: threading.Event,
        connection: Value | None = None,
    ) -> Diagnostics:
        """Run the command; output lines go to `output`; failures come back as diagnostics.
        `connection` is not used."""
        inv = Invocation.from_config(config)
        if inv.command == "":
            return Diagnostics(
                [
                    error(
                        "Invalid local-exec provisioner command",
                        "The command must be a non-empty string.",
                    )
                ]
            )
        output(inv.executing_line())
        tail = TailBuffer()
        reason = self._run(inv, output, stop, tail)
        if reason is None:
            return Diagnostics()
        return Diagnostics(
            [
                error(
                    "local-exec provisioner error",
                    f"Error running command '{inv.command}': {reason}. Output: {tail.text()}",
                )
            ]
        )

    def _run(
        self, inv: Invocation, output: OutputFn, stop: threading.Event, tail: TailBuffer
    ) -> str | None:
        """Run `inv`; None on success, else Go's wording of what went wrong."""
        if stop.is_set():
            return "context canceled"
        exe, problem = _resolve(inv.argv[0])
        if exe is None:
            return problem
        if inv.working_dir:
            try:
                os.stat(inv.working_dir)
            except OSError as exc:
                return f"chdir {inv.working_dir}: {_errno_text(exc)}"
        env = dict(os.environ)
        env.update(inv.environment)
        rfd, wfd = os.pipe()
        try:
            proc = subprocess.Popen(
                inv.argv,
                executable=exe,
                stdin=subprocess.DEVNULL,
                stdout=wfd,
                stderr=wfd,
                cwd=inv.working_dir or None,
                env=env,
                process_group=0,
            )
        except OSError as exc:
            os.close(rfd)
            return f"fork/exec {exe}: {_errno_text(exc)}"
        finally:
            os.close(wfd)
        abandon = threading.Event()
        reader = threading.Thread(
            target=read_lines, args=(rfd, output, tail.write, abandon), daemon=True
        )
        reader.start()
        try:
            returncode = self._wait(proc, reader, stop, abandon)
        finally:
            os.close(rfd)
        return None if returncode == 0 else exit_reason(returncode)

    @staticmethod
    def _wait(
        proc: subprocess.Popen[bytes],
        reader: threading.Thread,
        stop: threading.Event,
        abandon: threading.Event,
    ) -> int:
        """Wait for the child and the end of its output, killing its group on a stop."""
        killed = False
        while proc.poll() is None:
            if not killed and stop.wait(_POLL):
                _kill_group(proc)
                killed = True
            elif killed:
                proc.wait()
        # Output may still be held open by the child's own children: keep showing it until
        # they close it, unless a stop is requested.
        while reader.is_alive():
            if stop.is_set():
                _kill_group(proc)
                abandon.set()
                reader.join()
                break
            reader.join(_POLL)
        return proc.returncode


LOCAL_EXEC = LocalExec()
