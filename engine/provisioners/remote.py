"""The `file` and `remote-exec` provisioners, which work over a `connection` (SSH; WinRM only
as far as connecting).

Validation is terraform's ValidateProvisionerConfig: `file` needs exactly one of `source` and
`content` ("Cannot set both 'source' and 'content'" / "Must provide one of 'source' or
'content'", sourceless, no detail) and `destination`; `remote-exec` needs exactly one of
`inline`, `script`, `scripts` ("Invalid remote-exec provisioner configuration").

At apply, as terraform's, in this order; any failure is the error "<type> provisioner error"
with terraform's text as the detail:

1. "Missing connection configuration for provisioner." without a connection block; the
   connection's own problems (`engine.provisioners.connection`, then the SSH communicator's:
   unreadable keys, the SSH agent).
2. The local inputs. `remote-exec`: `inline` lines joined with newlines (plus a final one) into
   one script; `script` / `scripts` files read (`Failed to open script 'x': open x: no such
   file or directory`, `invalid empty string in 'scripts'`). `file`: `content`, or `source`
   with a leading `~/` expanded.
3. Connecting, retried until the connection's `timeout` (`engine.provisioners.retry`); the
   "Connecting to remote host via SSH..." lines and "Connected!" are shown for `remote-exec`
   only (terraform's `file` gives Connect no output).
4. `remote-exec`: each script is uploaded to the connection's `script_path` (`%RAND%` drawn
   anew per script), made executable and run; its output is shown line by line; an exit other
   than 0 is `error executing "PATH": Process exited with status N`; then an empty file is
   uploaded over the script (best effort). `file`: `stat SOURCE: ...` for a missing source, a
   directory is uploaded with scp -r (its contents only when the source ends with `/`), a file
   with scp (`Upload failed: ...`).

The connection is closed at the end, and when the user asks the operation to stop.
"""

from __future__ import annotations

import contextlib
import os
import threading
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

from engine.diags import Diagnostic, Diagnostics, error
from engine.provisioners.base import OutputFn
from engine.provisioners.connection import ConnInfo
from engine.provisioners.lines import LineSplitter
from engine.provisioners.schema import FILE_SCHEMA, REMOTE_EXEC_SCHEMA, ConfigSchema
from engine.values import Value

if TYPE_CHECKING:
    from engine.provisioners.ssh.communicator import Communicator

_NO_CONNECTION = "Missing connection configuration for provisioner."


def _attr(config: Value, name: str) -> Value | None:
    """The attribute, or None when it is null (unknown counts as set)."""
    attrs = config.v if isinstance(config.v, dict) else {}
    v = attrs.get(name)
    if v is None or (v.is_known and v.is_null):
        return None
    return v


def _errno_text(exc: OSError) -> str:
    text = os.strerror(exc.errno) if exc.errno else str(exc)
    return text[0].lower() + text[1:] if text else text


class _Failure(Exception):
    """A provisioner failure; `str(exc)` is the diagnostic's detail."""


class _Remote(ABC):
    type_name = ""
    _schema: ConfigSchema

    @property
    def schema(self) -> ConfigSchema:
        return self._schema

    def _fail(self, detail: str) -> Diagnostics:
        return Diagnostics([error(f"{self.type_name} provisioner error", detail)])

    def provision(self, config: Value, output: OutputFn, stop: threading.Event,
                  connection: Value | None = None) -> Diagnostics:
        """Run the provisioner (see the module docstring)."""
        if connection is None or connection.is_null:
            return self._fail(_NO_CONNECTION)
        info, problem = ConnInfo.from_value(connection)
        if info is None:
            return self._fail(problem)
        try:
            if info.type == "winrm":
                self._winrm(config, info, output, stop)
            else:
                self._ssh(config, info, output, stop)
        except _Failure as exc:
            return self._fail(str(exc))
        return Diagnostics()

    @abstractmethod
    def _winrm(self, config: Value, info: ConnInfo, output: OutputFn,
               stop: threading.Event) -> None:
        """Fail as terraform's WinRM communicator would, up to connecting (raises _Failure)."""

    @abstractmethod
    def _ssh(self, config: Value, info: ConnInfo, output: OutputFn,
             stop: threading.Event) -> None:
        """Provision over SSH (raises _Failure)."""


def _communicator(info: ConnInfo) -> Communicator:
    """The SSH communicator (paramiko is imported only now, when one is needed)."""
    from engine.provisioners.ssh.communicator import CommError, Communicator

    try:
        return Communicator.new(info)
    except CommError as exc:
        raise _Failure(str(exc)) from None


def _connect(comm: Communicator, info: ConnInfo, output: OutputFn | None,
             stop: threading.Event) -> None:
    from engine.provisioners.retry import retry

    problem = retry(lambda: comm.connect(output), info.timeout, stop, comm.abort)
    if problem is not None:
        raise _Failure(problem)


def _expand_home(path: str) -> str:
    """go-homedir's Expand."""
    if not path.startswith("~"):
        return path
    if len(path) > 1 and path[1] not in "/\\":
        raise _Failure("cannot expand user-specific home dir")
    return os.path.expanduser("~") + path[1:]


class FileProvisioner(_Remote):
    """The `file` provisioner."""

    type_name = "file"
    _schema = FILE_SCHEMA

    def validate(self, config: Value) -> Diagnostics:
        """terraform's checks of `source` / `content`."""
        source, content = _attr(config, "source"), _attr(config, "content")
        if source is not None and content is not None:
            return Diagnostics([error("Cannot set both 'source' and 'content'")])
        if source is None and content is None:
            return Diagnostics([error("Must provide one of 'source' or 'content'")])
        return Diagnostics()

    @staticmethod
    def _source(config: Value) -> tuple[str, bytes | None]:
        """(source path, None) or ("", content bytes)."""
        content = _attr(config, "content")
        if content is not None:
            return "", str(content.v).encode()
        source = _attr(config, "source")
        return _expand_home(str(source.v) if source is not None else ""), None

    def _winrm(self, config: Value, info: ConnInfo, output: OutputFn,
               stop: threading.Event) -> None:
        from engine.provisioners.winrm import connect_winrm

        self._source(config)
        raise _Failure(connect_winrm(info, None, stop))

    def _ssh(self, config: Value, info: ConnInfo, output: OutputFn,
             stop: threading.Event) -> None:
        from engine.provisioners.ssh.communicator import CommError

        comm = _communicator(info)
        source, content = self._source(config)
        destination = str(config.v["destination"].v)
        try:
            _connect(comm, info, None, stop)
            if content is not None:
                comm.upload(destination, content, stop=stop)
                return
            try:
                st = os.stat(source)
            except OSError as exc:
                raise _Failure(f"stat {source}: {_errno_text(exc)}") from None
            if os.path.isdir(source):
                comm.upload_dir(destination, source, stop=stop)
                return
            try:
                f = open(source, "rb")  # noqa: SIM115 (closed below; open errors worded apart)
            except OSError as exc:
                raise _Failure(f"open {source}: {_errno_text(exc)}") from None
            with f:
                comm.upload(destination, f, st.st_size, stop=stop)
        except CommError as exc:
            raise _Failure(f"Upload failed: {exc}") from None
        finally:
            comm.disconnect()


class RemoteExec(_Remote):
    """The `remote-exec` provisioner."""

    type_name = "remote-exec"
    _schema = REMOTE_EXEC_SCHEMA

    def validate(self, config: Value) -> Diagnostics:
        """Exactly one of `inline`, `script`, `scripts`."""
        given = [n for n in ("inline", "script", "scripts") if _attr(config, n) is not None]
        if len(given) == 1:
            return Diagnostics()
        diag: Diagnostic = error(
            "Invalid remote-exec provisioner configuration",
            'Only one of "inline", "script", or "scripts" must be set',
        )
        return Diagnostics([diag])

    @staticmethod
    def _scripts(config: Value) -> list[bytes]:
        """terraform's collectScripts: the scripts' contents, in order."""
        inline = _attr(config, "inline")
        if inline is not None:
            lines: list[str] = []
            for line in inline.elements():
                if line.is_null:
                    raise _Failure("invalid null string in 'scripts'")
                if line.v == "":
                    raise _Failure("invalid empty string in 'scripts'")
                lines.append(str(line.v))
            return ["\n".join([*lines, ""]).encode()]
        paths: list[str] = []
        script = _attr(config, "script")
        if script is not None:
            if script.v == "":
                raise _Failure("invalid empty string in 'script'")
            paths.append(str(script.v))
        scripts = _attr(config, "scripts")
        if scripts is not None:
            for s in scripts.elements():
                if s.is_null:
                    raise _Failure("invalid null string in 'script'")
                if s.v == "":
                    raise _Failure("invalid empty string in 'script'")
                paths.append(str(s.v))
        contents: list[bytes] = []
        for path in paths:
            try:
                with open(path, "rb") as f:
                    contents.append(f.read())
            except OSError as exc:
                raise _Failure(
                    f"Failed to open script '{path}': open {path}: {_errno_text(exc)}") from None
        return contents

    def _winrm(self, config: Value, info: ConnInfo, output: OutputFn,
               stop: threading.Event) -> None:
        from engine.provisioners.winrm import connect_winrm

        self._scripts(config)
        raise _Failure(connect_winrm(info, output, stop))

    def _ssh(self, config: Value, info: ConnInfo, output: OutputFn,
             stop: threading.Event) -> None:
        from engine.provisioners.ssh.communicator import CommError

        comm = _communicator(info)
        scripts = self._scripts(config)
        try:
            _connect(comm, info, output, stop)
            for script in scripts:
                path = info.script_path()
                try:
                    comm.upload_script(path, script, stop)
                except CommError as exc:
                    raise _Failure(f"Failed to upload script: {exc}") from None
                try:
                    cmd = comm.run(path, LineSplitter(output), LineSplitter(output), stop)
                except CommError as exc:
                    raise _Failure(f"Error starting script: {exc}") from None
                problem = cmd.error()
                if problem is not None:
                    raise _Failure(problem)
                with contextlib.suppress(CommError):  # best effort, as terraform's
                    comm.upload(path, b"", stop=stop)  # leave no script contents behind
        finally:
            comm.disconnect()


FILE = FileProvisioner()
REMOTE_EXEC = RemoteExec()
