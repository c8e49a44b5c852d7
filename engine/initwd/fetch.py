"""Remote module packages: addresses as terraform normalises them, and fetching them.

`normalize_remote(raw)` is terraform's parseModuleSourceRemote: go-getter's detectors turn
shorthands into full package addresses (`github.com/org/repo//sub?ref=v1` ->
`git::https://github.com/org/repo.git?ref=v1` with sub-directory `sub`; `bitbucket.org/...`;
`git@host:path` -> `git::ssh://git@host/path`; an absolute path -> `file:///path`) and splits
off the `//subdir`; it raises `ValueError` with terraform's message.

`PackageFetcher(environ).fetch(dest, package)` puts a package's files in `dest`, as terraform's
go-getter client does for the getters it ships that groundplan supports: `git::` (the `git`
binary: `clone`, `?ref=` checked out, `?depth=` shallow), `http(s)` (an archive by its
extension or `?archive=`, else the `X-Terraform-Get` header or `terraform-get` meta tag of the
page, a full address, followed up to 10 times), `file` (an archive is unpacked, a directory linked).
Archives are unpacked by `engine.initwd.archive` (no entry may leave `dest`). A package
already fetched during this `init` is copied from its first directory. Failures raise
`FetchError` whose text is go-getter's.
"""

from __future__ import annotations

import os
import posixpath
import re
import shutil
import subprocess
import tempfile
import urllib.parse
from dataclasses import dataclass, field
from html.parser import HTMLParser

from engine.configs.registry_addrs import split_package_subdir
from engine.initwd.archive import ArchiveError, archive_kind, extract
from engine.initwd.registry_client import http_download, http_get, ssl_context

_FORCED = re.compile(r"^([A-Za-z0-9]+)::(.+)$")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
_SSH = re.compile(r"^(?:([^@]+)@)?([^:]+):/?(.+)$")
_XTG_LIMIT = 10
_MAX_ARCHIVE = 1 << 30


class FetchError(Exception):
    """A package that could not be fetched; str() is go-getter's error text."""


class MaybeRelativePath(ValueError):
    """A source that looks like a relative path without `./` (terraform's MaybeRelativePathErr)."""


def _forced(src: str) -> tuple[str, str]:
    m = _FORCED.match(src)
    return (m.group(1), m.group(2)) if m else ("", src)


def _detect_github(src: str) -> str | None:
    if not src.startswith("github.com/"):
        return None
    src, _, query = src.partition("?")
    parts = src.split("/")
    if len(parts) < 3:
        raise ValueError("GitHub URLs should be github.com/username/repo")
    path = "/" + "/".join(parts[1:3])
    if not path.endswith(".git"):
        path += ".git"
    if len(parts) > 3:
        path += "//" + "/".join(parts[3:])
    return f"git::https://github.com{path}" + (f"?{query}" if query else "")


def _detect_git_ssh(src: str) -> str | None:
    m = _SSH.match(src)
    if not m or m.group(1) != "git":
        return None
    path, _, query = m.group(3).partition("?")
    out = f"git::ssh://git@{m.group(2)}/{path}"
    if query:
        pairs = sorted(urllib.parse.parse_qsl(query, keep_blank_values=True))
        out += "?" + urllib.parse.urlencode(pairs)
    return out


def _detect_bitbucket(src: str) -> str | None:
    if not src.startswith("bitbucket.org/"):
        return None
    u = urllib.parse.urlsplit("https://" + src)
    path = u.path if u.path.endswith(".git") else u.path + ".git"
    return "git::" + urllib.parse.urlunsplit(("https", u.netloc, path, u.query, u.fragment))


def _detect_cloud_storage(src: str) -> str | None:
    """go-getter's GCS and S3 shorthands (the address only: groundplan fetches neither)."""
    if "googleapis.com/" in src:
        return "gcs::https://" + src
    if ".amazonaws.com/" in src:
        return "s3::https://" + src
    return None


def _detect(src: str) -> str:
    """go-getter's detection (terraform's detectRemoteSourceShorthands)."""
    force, get_src = _forced(src)
    get_src, subdir = split_package_subdir(get_src)
    if _SCHEME.match(get_src):
        return src
    result = None
    for detector in (_detect_github, _detect_git_ssh, _detect_bitbucket, _detect_cloud_storage):
        result = detector(get_src)
        if result is not None:
            break
    if result is None:
        if get_src.startswith("/"):
            result = "file:///" + get_src[1:]
        elif get_src:
            raise MaybeRelativePath(
                f"groundplan cannot detect a supported external module source type for {get_src}")
        else:
            raise ValueError(f"invalid source address: {src}")
    detect_force, result = _forced(result)
    result, detect_subdir = split_package_subdir(result)
    if detect_subdir:
        subdir = posixpath.join(detect_subdir, subdir) if subdir else detect_subdir
    if subdir:
        base, q, query = result.partition("?")
        result = base + "//" + subdir + (q + query if q else "")
    force = force or detect_force
    return f"{force}::{result}" if force else result


def normalize_remote(raw: str) -> tuple[str, str]:
    """(package address, sub-directory) of a remote module source (module docstring)."""
    raw, subdir = split_package_subdir(raw)
    if subdir.startswith("../"):
        raise ValueError(f'subdirectory path "{subdir}" leads outside of the module package')
    package, more = split_package_subdir(_detect(raw))
    if more:
        subdir = posixpath.normpath(posixpath.join(more, subdir)) if subdir else posixpath.normpath(more)
        if subdir.startswith("../"):
            raise ValueError(f'detected subdirectory path "{subdir}" of "{package}" leads outside of the module package')
    return package, subdir


def remote_string(package: str, subdir: str) -> str:
    """terraform's ModuleSourceRemote.String(): the sub-directory before any query."""
    if not subdir:
        return package
    base, q, query = package.partition("?")
    return base + "//" + subdir + (q + query if q else "")


class _MetaParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.source = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "meta" and a.get("name") == "terraform-get" and not self.source:
            self.source = a.get("content") or ""


def _redact(url: str) -> str:
    u = urllib.parse.urlsplit(url)
    if u.password:
        netloc = f"{u.username}:redacted@{u.hostname}" + (f":{u.port}" if u.port else "")
        return urllib.parse.urlunsplit(u._replace(netloc=netloc))
    return url


@dataclass
class PackageFetcher:
    """Fetches packages for one `init` (see the module docstring)."""

    environ: dict[str, str]
    _done: dict[str, str] = field(default_factory=dict)

    def fetch(self, dest: str, package: str) -> None:
        if package in self._done and os.path.isdir(self._done[package]):
            shutil.copytree(self._done[package], dest, symlinks=True)
            return
        self._get(dest, package, 1)
        self._done[package] = dest

    def _get(self, dest: str, src: str, depth: int) -> None:
        force, src = _forced(src)
        src, subdir = split_package_subdir(src)
        if subdir:
            if ".." in subdir.split("/"):
                raise FetchError("subdirectory component contain path traversal out of the repository")
            with tempfile.TemporaryDirectory(prefix="getter") as td:
                inner = os.path.join(td, "pkg")
                self._get(inner, f"{force}::{src}" if force else src, depth)
                found = os.path.join(inner, subdir.lstrip("/"))
                if not os.path.isdir(found):
                    raise FetchError(f"{subdir}: no such file or directory")
                shutil.copytree(found, dest, symlinks=True)
            return
        u = urllib.parse.urlsplit(src)
        getter = force or u.scheme
        if getter not in ("http", "https", "git", "file"):
            raise FetchError(f"download not supported for scheme '{getter}'")
        query = urllib.parse.parse_qsl(u.query, keep_blank_values=True)
        archive = next((v for k, v in query if k == "archive"), "")
        if archive:
            query = [(k, v) for k, v in query if k != "archive"]
            if archive.lower() in ("0", "f", "false"):
                archive = "-"
        u = u._replace(query=urllib.parse.urlencode(sorted(query)))
        kind = archive if archive and archive != "-" else ("" if archive else archive_kind(u.path))
        if kind:
            self._get_archive(dest, getter, u, kind)
            return
        try:
            if getter == "git":
                self._git(dest, u)
            elif getter == "file":
                self._file_dir(dest, u)
            else:
                self._http_dir(dest, u, depth)
        except FetchError as exc:
            raise FetchError(f"error downloading '{_redact(urllib.parse.urlunsplit(u))}': {exc}") from None

    def _get_archive(self, dest: str, getter: str, u: urllib.parse.SplitResult, kind: str) -> None:
        with tempfile.TemporaryDirectory(prefix="getter") as td:
            path = os.path.join(td, "archive")
            if getter == "file":
                path = urllib.parse.unquote(u.path)
                if not os.path.isfile(path):
                    raise FetchError(f"stat {path}: no such file or directory")
            elif getter in ("http", "https"):
                try:
                    status = http_download(urllib.parse.urlunsplit(u), ssl_context(self.environ), path, _MAX_ARCHIVE)
                except OSError as exc:
                    raise FetchError(str(getattr(exc, "reason", exc))) from None
                if not 200 <= status < 300:
                    raise FetchError(f"bad response code: {status}")
            else:
                raise FetchError(f"download not supported for scheme '{getter}'")
            try:
                extract(path, kind, dest)
            except ArchiveError as exc:
                raise FetchError(str(exc)) from None

    def _http_dir(self, dest: str, u: urllib.parse.SplitResult, depth: int) -> None:
        if depth > _XTG_LIMIT:
            raise FetchError(f"too many X-Terraform-Get redirects: {depth}")
        query = [*urllib.parse.parse_qsl(u.query, keep_blank_values=True), ("terraform-get", "1")]
        url = urllib.parse.urlunsplit(u._replace(query=urllib.parse.urlencode(sorted(query))))
        try:
            resp = http_get(url, ssl_context(self.environ))
        except OSError as exc:
            raise FetchError(str(getattr(exc, "reason", exc))) from None
        if not 200 <= resp.status < 300:
            raise FetchError(f"bad response code: {resp.status}")
        source = resp.headers.get("X-Terraform-Get") or ""
        if not source:
            parser = _MetaParser()
            parser.feed(resp.body.decode("utf-8", "replace"))
            source = parser.source
        if not source:
            raise FetchError("no source URL was returned")
        # go-getter detects the returned source with no detectors: it must be a full address
        if not _SCHEME.match(_forced(source)[1]):
            raise FetchError(f"invalid source string: {source}")
        self._get(dest, source, depth + 1)

    def _file_dir(self, dest: str, u: urllib.parse.SplitResult) -> None:
        path = urllib.parse.unquote(u.path)
        if not os.path.isdir(path):
            raise FetchError(f"source path error: stat {path}: no such file or directory")
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        os.symlink(path, dest)

    def _git(self, dest: str, u: urllib.parse.SplitResult) -> None:
        git = shutil.which("git")
        if git is None:
            raise FetchError("git must be available and on the PATH")
        query = urllib.parse.parse_qsl(u.query, keep_blank_values=True)
        params = dict(query)
        ref = params.get("ref", "")
        try:
            depth = int(params.get("depth", "0"))
        except ValueError:
            depth = 0
        rest = [(k, v) for k, v in query if k not in ("ref", "depth", "sshkey")]
        url = urllib.parse.urlunsplit(u._replace(query=urllib.parse.urlencode(sorted(rest))))
        args = ["clone"]
        if depth > 0:
            args += ["--depth", str(depth), "--branch", ref or self._default_branch(git, url)]
        self._run(git, [*args, "--", url, dest], None)
        if ref and depth < 1:
            self._run(git, ["checkout", ref], dest)
        self._run(git, ["submodule", "update", "--init", "--recursive"], dest)

    def _default_branch(self, git: str, url: str) -> str:
        proc = subprocess.run([git, "ls-remote", "--symref", url, "HEAD"], capture_output=True, text=True,
                              env=self._git_env(), check=False)
        m = re.search(r"ref: refs/heads/([^\s]+)", proc.stdout)
        return m.group(1) if m else "master"

    def _git_env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update({k: v for k, v in self.environ.items() if k.startswith(("GIT_", "SSH_", "HOME", "PATH"))})
        env.setdefault("GIT_TERMINAL_PROMPT", "0")
        return env

    def _run(self, git: str, args: list[str], cwd: str | None) -> None:
        proc = subprocess.run([git, *args], cwd=cwd, capture_output=True, env=self._git_env(), check=False)
        if proc.returncode != 0:
            output = (proc.stdout + proc.stderr).decode("utf-8", "replace")
            raise FetchError(f"{git} exited with {proc.returncode}: {output}")
