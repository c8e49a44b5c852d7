"""Built-in functions: the filesystem (abspath, basename, dirname, pathexpand, file, filebase64,
fileexists, fileset, the file hash functions and templatefile).

`filesystem_functions(base_dir)` builds the functions for a module in `base_dir`: relative
paths are joined to it (and cleaned, as Go's `filepath.Join` does), `~` expands to `$HOME`.
Error texts name the joined path exactly as Terraform's do. `abspath` works from the process's
working directory, as in Terraform. `fileset` globbing lives in `doublestar`.
"""

from __future__ import annotations

import base64
import os
import posixpath
import stat as _stat
from collections.abc import Callable, Sequence

from engine.lang.functions.base import Function, FunctionError, Param, refine_results, static_return
from engine.lang.functions.crypto import b64_digest, hex_digest
from engine.lang.functions.doublestar import GlobSyntaxError, glob
from engine.lang.functions.encoding import redact
from engine.values import (
    BOOL,
    STRING,
    SetType,
    Type,
    Value,
    boolean,
    set_,
    string,
)

FUNCTIONS: list[Function] = []  # every function here depends on the module directory


def go_clean(path: str) -> str:
    """Go's `filepath.Clean` on a slash-separated path."""
    if path == "":
        return "."
    cleaned = posixpath.normpath(path)
    if cleaned.startswith("//"):
        cleaned = "/" + cleaned.lstrip("/")
    return cleaned


def go_join(*parts: str) -> str:
    """Go's `filepath.Join`: join the non-empty parts and clean the result."""
    nonempty = [p for p in parts if p]
    if not nonempty:
        return ""
    return go_clean("/".join(nonempty))


def go_base(path: str) -> str:
    """Go's `filepath.Base`."""
    if path == "":
        return "."
    path = path.rstrip("/")
    if path == "":
        return "/"
    return path.rsplit("/", 1)[-1]


def go_dir(path: str) -> str:
    """Go's `filepath.Dir`."""
    i = path.rfind("/")
    return go_clean(path[: i + 1])


def expand_home(path: str) -> str:
    """go-homedir's Expand: a leading `~` or `~/` becomes the home directory."""
    if not path.startswith("~"):
        return path
    if len(path) > 1 and path[1] not in "/\\":
        raise FunctionError("cannot expand user-specific home dir")
    home = os.environ.get("HOME") or os.path.expanduser("~")
    return go_join(home, path[1:])


def resolve(base_dir: str, path: str) -> str:
    """The cleaned path a file function opens for `path` in a module at `base_dir`."""
    try:
        path = expand_home(path)
    except FunctionError as exc:
        raise FunctionError(f"failed to expand ~: {exc.message}") from None
    if not path.startswith("/"):
        path = go_join(base_dir, path)
    return go_clean(path)


def read_file(base_dir: str, path: str, marks: frozenset[str]) -> bytes:
    """The bytes of a configuration file, with Terraform's errors (argument 0's fault)."""
    full = resolve(base_dir, path)
    if not os.path.lexists(full) or not os.path.exists(full):
        raise FunctionError(
            f"no file exists at {redact(path, marks)}; this function works only with files "
            "that are distributed as part of the configuration source code, so if this file "
            "will be created by a resource in this configuration you must instead obtain this "
            "result from an attribute of that resource",
            0,
        )
    if os.path.isdir(full):
        raise FunctionError(f"failed to read file: read {full}: is a directory", 0)
    try:
        with open(full, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise FunctionError(f"open {full}: {exc.strerror.lower() if exc.strerror else exc}", 0) from None


def _file_fn(base_dir: str, name: str, encode_base64: bool) -> Function:
    def _impl(args: Sequence[Value], ret: Type) -> Value:
        arg, marks = args[0].unmark()
        data = read_file(base_dir, arg.v, marks)
        if encode_base64:
            return string(base64.b64encode(data).decode("ascii")).with_marks(marks)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise FunctionError(
                f"contents of {redact(arg.v, marks)} are not valid UTF-8; use the filebase64 "
                "function to obtain the Base64 encoded contents or the other file functions "
                "(e.g. filemd5, filesha256) to obtain file hashing results instead"
            ) from None
        return string(text).with_marks(marks)

    return Function(name, (Param("path", STRING, allow_marked=True),), _impl, static_return(STRING))


def _file_hash_fn(base_dir: str, name: str, digest: Callable[[bytes], str]) -> Function:
    def _impl(args: Sequence[Value], ret: Type) -> Value:
        full = resolve(base_dir, args[0].v)
        if os.path.isdir(full):
            raise FunctionError(f"read {full}: is a directory")
        try:
            with open(full, "rb") as fh:
                data = fh.read()
        except FileNotFoundError:
            raise FunctionError(f"open {full}: no such file or directory") from None
        except OSError as exc:
            raise FunctionError(f"open {full}: {(exc.strerror or str(exc)).lower()}") from None
        return string(digest(data))

    return Function(name, (Param("path", STRING),), _impl, static_return(STRING))


def _fileexists_fn(base_dir: str) -> Function:
    def _impl(args: Sequence[Value], ret: Type) -> Value:
        arg, marks = args[0].unmark()
        try:
            path = expand_home(arg.v)
        except FunctionError as exc:
            raise FunctionError(f"failed to expand ~: {exc.message}") from None
        if not path.startswith("/"):
            path = go_join(base_dir, path)
        path = go_clean(path)
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return boolean(False).with_marks(marks)
        except NotADirectoryError:
            return boolean(False).with_marks(marks)
        except OSError:
            raise FunctionError(f"failed to stat {redact(path, marks)}") from None
        mode = st.st_mode
        if _stat.S_ISREG(mode):
            return boolean(True).with_marks(marks)
        shown = redact(path, marks)
        if _stat.S_ISDIR(mode):
            msg = f"{shown} is a directory, not a file"
        elif _stat.S_ISBLK(mode) or _stat.S_ISCHR(mode):
            msg = f"{shown} is a device node, not a regular file"
        elif _stat.S_ISFIFO(mode):
            msg = f"{shown} is a named pipe, not a regular file"
        elif _stat.S_ISSOCK(mode):
            msg = f"{shown} is a unix domain socket, not a regular file"
        else:
            msg = f"{shown} is not a regular file"
        raise FunctionError(msg)

    return Function(
        "fileexists", (Param("path", STRING, allow_marked=True),), _impl, static_return(BOOL)
    )


def _fileset_fn(base_dir: str) -> Function:
    def _impl(args: Sequence[Value], ret: Type) -> Value:
        path_arg, path_marks = args[0].unmark()
        pat_arg, pat_marks = args[1].unmark()
        marks = path_marks | pat_marks
        path: str = path_arg.v
        if not path.startswith("/"):
            path = go_join(base_dir, path)
        pattern = go_join(path, pat_arg.v)
        try:
            matches = glob(pattern)
        except GlobSyntaxError:
            raise FunctionError(
                f"failed to glob pattern {redact(pattern, marks)}: syntax error in pattern"
            ) from None
        found: list[Value] = []
        for match in matches:
            try:
                if not os.path.isfile(match):
                    continue
            except OSError:
                continue
            rel = os.path.relpath(match, path or ".")
            found.append(string(rel.replace(os.sep, "/")))
        return set_(found, STRING).with_marks(marks)

    return Function(
        "fileset",
        (Param("path", STRING, allow_marked=True), Param("pattern", STRING, allow_marked=True)),
        _impl,
        static_return(SetType(STRING)),
    )


def _abspath(args: Sequence[Value], ret: Type) -> Value:
    p: str = args[0].v
    if not p.startswith("/"):
        p = go_join(os.getcwd(), p)
    return string(go_clean(p))


def _basename(args: Sequence[Value], ret: Type) -> Value:
    return string(go_base(args[0].v))


def _dirname(args: Sequence[Value], ret: Type) -> Value:
    return string(go_dir(args[0].v))


def _pathexpand(args: Sequence[Value], ret: Type) -> Value:
    return string(expand_home(args[0].v))


def _templatefile_fn(base_dir: str) -> Function:
    from engine.lang.functions.templatefile import make_templatefile

    return make_templatefile(base_dir, _file_fn(base_dir, "file", False))


def filesystem_functions(base_dir: str) -> list[Function]:
    """The filesystem functions for a module whose directory is `base_dir`."""
    return refine_results([
        Function("abspath", (Param("path", STRING),), _abspath, static_return(STRING)),
        Function("basename", (Param("path", STRING),), _basename, static_return(STRING)),
        Function("dirname", (Param("path", STRING),), _dirname, static_return(STRING)),
        Function("pathexpand", (Param("path", STRING),), _pathexpand, static_return(STRING)),
        _file_fn(base_dir, "file", False),
        _file_fn(base_dir, "filebase64", True),
        _file_hash_fn(base_dir, "filebase64sha256", b64_digest("sha256")),
        _file_hash_fn(base_dir, "filebase64sha512", b64_digest("sha512")),
        _fileexists_fn(base_dir),
        _fileset_fn(base_dir),
        _file_hash_fn(base_dir, "filemd5", hex_digest("md5")),
        _file_hash_fn(base_dir, "filesha1", hex_digest("sha1")),
        _file_hash_fn(base_dir, "filesha256", hex_digest("sha256")),
        _file_hash_fn(base_dir, "filesha512", hex_digest("sha512")),
        _templatefile_fn(base_dir),
    ], unrefined=("templatefile",))

