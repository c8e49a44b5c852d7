"""Package checksums as Terraform records them in `.terraform.lock.hcl`.

- `h1:` (`package_hash_v1`): golang.org/x/mod's dirhash "Hash1" over a package's files: one
  line `"<sha256 hex>  <relative/path>\n"` per regular file, sorted by path; the SHA-256 of
  those lines, base64-encoded. For an unpacked directory the paths are relative to it; for a
  `.zip` archive the paths are the archive's member names, which is what hashing the unpacked
  archive gives.
- `zh:` (`package_hash_legacy_zip`): the hex SHA-256 of a `.zip` archive file itself; it can
  only be checked against the archive, never against an unpacked directory.

`package_matches(location, hashes)` answers whether a package (directory or archive) matches
any hash of a lock entry, as Terraform's `PackageMatchesAnyHash` does; unknown schemes never
match. Read errors come back as `OSError`/`zipfile.BadZipFile` to the caller.
"""

from __future__ import annotations

import base64
import hashlib
import os
import zipfile
from collections.abc import Iterable

H1 = "h1:"
ZH = "zh:"
_CHUNK = 1 << 20


def _summary_hash(lines: Iterable[tuple[str, str]]) -> str:
    summary = hashlib.sha256()
    for name, digest in sorted(lines):
        if "\n" in name:
            raise OSError(f"file name {name!r} contains a newline")
        summary.update(f"{digest}  {name}\n".encode())
    return H1 + base64.b64encode(summary.digest()).decode("ascii")


def _file_sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def hash_dir_v1(directory: str) -> str:
    """The `h1:` hash of the files under `directory` (symlinks to it are resolved first;
    symlinked files inside are hashed by content, as Go's filepath.Walk + os.Open do)."""
    root = os.path.realpath(directory)
    lines: list[tuple[str, str]] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for fn in filenames:
            full = os.path.join(dirpath, fn)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            lines.append((rel, _file_sha256(full)))
    return _summary_hash(lines)


def hash_zip_v1(archive: str) -> str:
    """The `h1:` hash that the unpacked contents of the `.zip` archive would have."""
    lines: list[tuple[str, str]] = []
    with zipfile.ZipFile(archive) as zf:
        for info in zf.infolist():
            if info.is_dir():
                continue
            h = hashlib.sha256()
            with zf.open(info) as fh:
                while chunk := fh.read(_CHUNK):
                    h.update(chunk)
            lines.append((info.filename, h.hexdigest()))
    return _summary_hash(lines)


def hash_zip_legacy(archive: str) -> str:
    """The `zh:` hash: SHA-256 of the archive file."""
    return ZH + _file_sha256(archive)


def package_hash_v1(location: str) -> str:
    """The `h1:` hash of a package: an unpacked directory or a `.zip` archive."""
    if os.path.isdir(location):
        return hash_dir_v1(location)
    return hash_zip_v1(location)


def package_matches(location: str, hashes: Iterable[str]) -> bool:
    """Whether the package at `location` matches any of `hashes` (h1:, or zh: for archives)."""
    wanted = list(hashes)
    is_dir = os.path.isdir(location)
    if not is_dir and any(h.startswith(ZH) for h in wanted) and hash_zip_legacy(location) in wanted:
        return True
    if any(h.startswith(H1) for h in wanted):
        return package_hash_v1(location) in wanted
    return False
