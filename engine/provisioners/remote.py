"""The `file` and `remote-exec` provisioners, which work over a `connection` (SSH or WinRM).

Validation is terraform's ValidateProvisionerConfig: `file` needs exactly one of `source` and
`content` ("Cannot set both 'source' and 'content'" / "Must provide one of 'source' or
'content'", sourceless, no detail) and `destination`; `remote-exec` needs exactly one of
`inline`, `script`, `scripts` ("Invalid remote-exec provisioner configuration").

At apply both fail as terraform's do, with the error "<type> provisioner error" whose detail is
the communicator's text: "Missing connection configuration for provisioner." without a
connection block, `connection type 'x' not supported`, the local problems of `remote-exec`
(`Failed to open script 'x': open x: no such file or directory`, `invalid empty string in
'scripts'`), then the connection attempt of `engine.provisioners.connection` (which shows the
"Connecting to remote host" lines for `remote-exec` only, as terraform's `file` passes no
output to Connect). groundplan has no SSH/WinRM client, so a host that answers is an error too.
"""

from __future__ import annotations

import os
import threading

from engine.diags import Diagnostic, Diagnostics, error
from engine.provisioners.base import OutputFn
from engine.provisioners.connection import ConnInfo, connect
from engine.provisioners.schema import FILE_SCHEMA, REMOTE_EXEC_SCHEMA, ConfigSchema
from engine.values import Value

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


class _Remote:
    type_name = ""
    _schema: ConfigSchema
    _shows_connecting = False

    @property
    def schema(self) -> ConfigSchema:
        return self._schema

    def _fail(self, detail: str) -> Diagnostics:
        return Diagnostics([error(f"{self.type_name} provisioner error", detail)])

    def _prepare(self, config: Value) -> str:
        """A local problem found before connecting, as terraform words it, or ""."""
        return ""

    def provision(self, config: Value, output: OutputFn, stop: threading.Event,
                  connection: Value | None = None) -> Diagnostics:
        """Fail as terraform fails (see the module docstring)."""
        if connection is None or connection.is_null:
            return self._fail(_NO_CONNECTION)
        info, problem = ConnInfo.from_value(connection)
        if info is None:
            return self._fail(problem)
        problem = self._prepare(config)
        if problem:
            return self._fail(problem)
        return self._fail(connect(info, output if self._shows_connecting else None, stop))


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


class RemoteExec(_Remote):
    """The `remote-exec` provisioner."""

    type_name = "remote-exec"
    _schema = REMOTE_EXEC_SCHEMA
    _shows_connecting = True

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

    def _prepare(self, config: Value) -> str:
        inline = _attr(config, "inline")
        if inline is not None:
            for line in inline.elements():
                if line.is_null:
                    return "invalid null string in 'scripts'"
                if line.v == "":
                    return "invalid empty string in 'scripts'"
            return ""
        paths: list[str] = []
        script = _attr(config, "script")
        if script is not None:
            if script.v == "":
                return "invalid empty string in 'script'"
            paths.append(str(script.v))
        scripts = _attr(config, "scripts")
        if scripts is not None:
            for s in scripts.elements():
                if s.is_null:
                    return "invalid null string in 'script'"
                if s.v == "":
                    return "invalid empty string in 'script'"
                paths.append(str(s.v))
        for path in paths:
            try:
                with open(path, "rb"):
                    pass
            except OSError as exc:
                return f"Failed to open script '{path}': open {path}: {_errno_text(exc)}"
        return ""


FILE = FileProvisioner()
REMOTE_EXEC = RemoteExec()
