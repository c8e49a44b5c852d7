"""The sending side of the SCP protocol, as terraform's SSH communicator speaks it to a remote
`scp -t` (sink) process, plus the path and quoting rules it uses. No SSH here: the protocol runs
over any `ScpStream`.

- `scp_command(args, platform)` quotes `scp -vt DIR` / `scp -rvt DIR` for the remote shell:
  unix as go-shquot's POSIXShell (the program name always single-quoted, other words passed
  through, backslash-escaped, or single-quoted when they hold whitespace); windows as
  WindowsArgvSplit (`scp` verbatim, arguments in MSVC argv quoting).
- `go_dir(p)` / `go_base(p)` are Go's filepath.Dir / filepath.Base: `Upload(path)` sends the
  file named `go_base(path)` into directory `go_dir(path)`, so a destination `/d/` writes
  `/d/d`.
- `send_file(stream, name, data, size)`: `C0644 SIZE NAME\\n`, the bytes, `\\0` (every file is
  mode 0644, whatever its mode here). `send_tree(stream, source)`: a local directory, entries in
  directory order, subdirectories as `D0755 0 NAME\\n` ... `E\\n`; a symlink to a directory is
  sent as a directory. `send_directory(stream, source)` wraps the tree in a `D` record named
  after `source` unless `source` ends with `/` (then only its contents go).
- Each record is acknowledged by the sink: a zero byte, or 1/2 followed by a message line,
  which becomes `ScpError(message)` (e.g. `scp: /x/y: No such file or directory`). The sink's
  greeting (the zero byte it sends when it starts) is read by `start(stream)`. End of stream
  while waiting is `EOFError` (the caller then looks at scp's exit status, as terraform does).
"""

from __future__ import annotations

import os
import posixpath
from typing import BinaryIO, Protocol

_POSIX_META = "|&;<>(){}[]$`\\\"'*?!#~=%"
_POSIX_SPACE = " \n\t"
_CHUNK = 32768


class ScpError(Exception):
    """The remote scp reported a problem; `str(exc)` is its message."""


class ScpStream(Protocol):
    """The remote scp's standard input and output."""

    def write(self, data: bytes) -> None: ...

    def read(self, n: int) -> bytes:
        """Up to `n` bytes (at least one), or b"" at the end of the stream."""
        ...


def _single_quoted(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def _posix_word(word: str) -> str:
    if not word:
        return "''"
    if any(c in _POSIX_SPACE for c in word):
        return _single_quoted(word)
    return "".join("\\" + c if c in _POSIX_META else c for c in word)


def posix_shell(args: list[str]) -> str:
    """go-shquot's POSIXShell."""
    if not args:
        return ""
    return " ".join([_single_quoted(args[0]), *(_posix_word(a) for a in args[1:])])


def _windows_word(word: str) -> str:
    if word and not any(c in word for c in " \t\n\v\""):
        return word
    out = ['"']
    backslashes = 0
    for c in word:
        if c == "\\":
            backslashes += 1
            continue
        if c == '"':
            out.append("\\" * (backslashes * 2 + 1) + c)
        else:
            out.append("\\" * backslashes + c)
        backslashes = 0
    out.append("\\" * (backslashes * 2) + '"')
    return "".join(out)


def windows_argv_split(args: list[str]) -> tuple[str, str]:
    """go-shquot's WindowsArgvSplit: the program verbatim and the quoted arguments."""
    if not args:
        return "", ""
    return args[0], " ".join(_windows_word(a) for a in args[1:])


def scp_command(args: list[str], platform: str) -> str:
    """terraform's quoteScpCommand (platform is "unix" or "windows")."""
    if platform == "unix":
        return posix_shell(args)
    if platform == "windows":
        cmd, rest = windows_argv_split(args)
        return f"{cmd} {rest}"
    raise ScpError(f"Cannot quote scp command, target platform unknown: {platform}")


def go_clean(path: str) -> str:
    """Go's filepath.Clean on a slash-separated path."""
    if not path:
        return "."
    cleaned = posixpath.normpath(path)
    if cleaned.startswith("//"):
        cleaned = "/" + cleaned.lstrip("/")
    return cleaned


def go_dir(path: str) -> str:
    """Go's filepath.Dir."""
    return go_clean(path[: path.rfind("/") + 1])


def go_base(path: str) -> str:
    """Go's filepath.Base."""
    if not path:
        return "."
    stripped = path.rstrip("/")
    if not stripped:
        return "/"
    return stripped[stripped.rfind("/") + 1 :]


def _read_line(stream: ScpStream) -> bytes:
    line = bytearray()
    while True:
        b = stream.read(1)
        if not b:
            raise ScpError("Error reading error message: EOF")
        if b == b"\n":
            return bytes(line)
        line += b


def check_status(stream: ScpStream) -> None:
    """Read one acknowledgement: nothing for a zero byte, `ScpError` for a message."""
    code = stream.read(1)
    if not code:
        raise EOFError
    if code != b"\x00":
        raise ScpError(_read_line(stream).decode("utf-8", errors="replace").rstrip("\r"))


def start(stream: ScpStream) -> None:
    """Read the sink's greeting."""
    check_status(stream)


def file_record(name: str, size: int) -> bytes:
    """The record that announces a file."""
    return f"C0644 {size} {name}\n".encode()


def dir_record(name: str) -> bytes:
    """The record that opens a directory."""
    return f"D0755 0 {name}\n".encode()


END_RECORD = b"E\n"


def send_file(stream: ScpStream, name: str, data: BinaryIO, size: int) -> None:
    """Send one file of `size` bytes read from `data`."""
    stream.write(file_record(name, size))
    check_status(stream)
    remaining = size
    while remaining > 0:
        chunk = data.read(min(_CHUNK, remaining))
        if not chunk:
            raise ScpError(f"unexpected end of local file {name!r}")
        stream.write(chunk)
        remaining -= len(chunk)
    stream.write(b"\x00")
    check_status(stream)


def _errno_text(exc: OSError) -> str:
    text = os.strerror(exc.errno) if exc.errno else str(exc)
    return text[0].lower() + text[1:] if text else text


def _is_dir(path: str, entry: os.DirEntry[str]) -> bool:
    if not entry.is_symlink():
        return entry.is_dir(follow_symlinks=False)
    try:
        return os.path.isdir(os.path.realpath(path, strict=True))
    except OSError as exc:
        raise ScpError(f"lstat {exc.filename or path}: {_errno_text(exc)}") from None


def send_tree(stream: ScpStream, root: str) -> None:
    """Send the entries of local directory `root` (recursively)."""
    try:
        entries = list(os.scandir(root))
    except OSError as exc:
        raise ScpError(f"open {root}: {_errno_text(exc)}") from None
    for entry in entries:
        path = os.path.join(root, entry.name)
        if _is_dir(path, entry):
            stream.write(dir_record(entry.name))
            check_status(stream)
            send_tree(stream, path)
            stream.write(END_RECORD)
            check_status(stream)
            continue
        try:
            f = open(path, "rb")  # noqa: SIM115 (closed below; open errors worded apart)
        except OSError as exc:
            raise ScpError(f"open {path}: {_errno_text(exc)}") from None
        with f:
            send_file(stream, entry.name, f, os.fstat(f.fileno()).st_size)


def send_directory(stream: ScpStream, source: str) -> None:
    """terraform's UploadDir protocol for local directory `source` (see module docstring)."""
    if source.endswith("/"):
        send_tree(stream, source)
        return
    stream.write(dir_record(go_base(source)))
    check_status(stream)
    send_tree(stream, source)
    stream.write(END_RECORD)
    check_status(stream)
