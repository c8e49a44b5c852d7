"""Unpacking module packages: tar (plain, gzip, bzip2, xz) and zip archives, safely.

`extract(archive_path, kind, dest)` unpacks into `dest` (created) and refuses, with
go-getter's words where it has them, any entry that would land outside `dest`: a name with a
`..` element ("entry contains '..': NAME"), an absolute name, a symbolic or hard link (tar)
whose target leaves the tree, device and FIFO entries; and archives that unpack to more than
`MAX_BYTES` or `MAX_FILES`. `kind` is a go-getter decompressor key (`tar.gz`, `tgz`, `zip`,
...). Raises `ArchiveError`; a refused archive may leave a partial `dest`, which the caller
removes.
"""

from __future__ import annotations

import os
import shutil
import stat
import tarfile
import zipfile
from typing import Literal

MAX_BYTES = 1 << 30
MAX_FILES = 100_000
KINDS = ("tar.bz2", "tar.tbz2", "tbz2", "tar.gz", "tgz", "tar.xz", "txz", "zip")
_TAR_MODES: dict[str, Literal["r:bz2", "r:gz", "r:xz"]] = {"tar.bz2": "r:bz2", "tar.tbz2": "r:bz2", "tbz2": "r:bz2", "tar.gz": "r:gz",
              "tgz": "r:gz", "tar.xz": "r:xz", "txz": "r:xz"}


class ArchiveError(Exception):
    """An archive that cannot be unpacked (str() is the reason)."""


def archive_kind(path: str) -> str:
    """The decompressor key that ends `path` (the longest), or ""."""
    best = ""
    for k in KINDS:
        if path.endswith("." + k) and len(k) > len(best):
            best = k
    return best


def _contains_dot_dot(name: str) -> bool:
    return ".." in name.replace("\\", "/").split("/")


def _target(dest: str, name: str) -> str:
    if _contains_dot_dot(name):
        raise ArchiveError(f"entry contains '..': {name}")
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        raise ArchiveError(f"entry has an absolute path: {name}")
    path = os.path.normpath(os.path.join(dest, name))
    if path != dest and not path.startswith(dest + os.sep):
        raise ArchiveError(f"entry is outside the destination directory: {name}")
    return path


def _inside(dest: str, path: str) -> bool:
    real = os.path.realpath(path)
    return real == dest or real.startswith(dest + os.sep)


def _unpack_tar(tf: tarfile.TarFile, dest: str) -> int:
    total = 0
    count = 0
    for m in tf:
        count += 1
        if count > MAX_FILES:
            raise ArchiveError(f"tar archive contains too many files: {count} > {MAX_FILES}")
        path = _target(dest, m.name)
        if m.isdir():
            os.makedirs(path, exist_ok=True)
            continue
        if m.issym() or m.islnk():
            link = m.linkname
            base = os.path.dirname(path) if m.issym() else dest
            if os.path.isabs(link) or not _inside(dest, os.path.join(base, link)):
                raise ArchiveError(f"link {m.name} points outside the destination directory: {link}")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            if m.issym():
                os.symlink(link, path)
            else:
                os.link(_target(dest, link), path)
            continue
        if not m.isfile():
            raise ArchiveError(f"unsupported entry type in tar archive: {m.name}")
        total += m.size
        if total > MAX_BYTES:
            raise ArchiveError(f"tar archive larger than limit: {MAX_BYTES}")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if not _inside(dest, os.path.dirname(path)) or os.path.islink(path):
            raise ArchiveError(f"entry is outside the destination directory: {m.name}")
        src = tf.extractfile(m)
        if src is None:
            continue
        with src, open(path, "wb") as out:
            shutil.copyfileobj(src, out)
        os.chmod(path, (m.mode & 0o777) | stat.S_IRUSR | stat.S_IWUSR)
    return count


def _extract_tar(archive_path: str, mode: Literal["r:bz2", "r:gz", "r:xz"], dest: str) -> None:
    try:
        with tarfile.open(archive_path, mode) as tf:
            count = _unpack_tar(tf, dest)
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise ArchiveError(str(exc)) from None
    if count == 0:
        raise ArchiveError(f"empty archive: {archive_path}")


def _extract_zip(archive_path: str, dest: str) -> None:
    try:
        zf = zipfile.ZipFile(archive_path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise ArchiveError(str(exc)) from None
    with zf:
        infos = zf.infolist()
        if not infos:
            raise ArchiveError(f"empty archive: {archive_path}")
        if len(infos) > MAX_FILES:
            raise ArchiveError(f"zip archive contains too many files: {len(infos)} > {MAX_FILES}")
        total = 0
        for info in infos:
            path = _target(dest, info.filename)
            kind = (info.external_attr >> 16) & 0o170000
            if kind == stat.S_IFLNK:
                raise ArchiveError(f"zip archive contains a symbolic link: {info.filename}")
            if info.is_dir():
                os.makedirs(path, exist_ok=True)
                continue
            total += info.file_size
            if total > MAX_BYTES:
                raise ArchiveError(f"zip archive larger than limit: {MAX_BYTES}")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            try:
                with zf.open(info) as src, open(path, "wb") as out:
                    shutil.copyfileobj(src, out)
            except (zipfile.BadZipFile, OSError) as exc:
                raise ArchiveError(str(exc)) from None
            perm = (info.external_attr >> 16) & 0o777
            if perm:
                os.chmod(path, perm | stat.S_IRUSR | stat.S_IWUSR)


def extract(archive_path: str, kind: str, dest: str) -> None:
    """Unpack `archive_path` (of decompressor `kind`) into `dest` (see the module docstring)."""
    os.makedirs(dest, exist_ok=True)
    dest = os.path.realpath(dest)
    if kind == "zip":
        _extract_zip(archive_path, dest)
    elif kind in _TAR_MODES:
        _extract_tar(archive_path, _TAR_MODES[kind], dest)
    else:
        raise ArchiveError(f"unsupported archive type {kind!r}")
