"""An on-disk cache of provider schemas, keyed by the provider binary's content.

A provider's schema is a function of its binary, so the raw GetProviderSchema response bytes
are stored as `<dir>/<sha256 of the binary>-v<protocol>.pb` and a later run (another process)
reads them back instead of calling the provider. Hashing a 177 MB binary takes longer than
asking the provider, so `<dir>/index.json` remembers each binary's sha256 together with its
path, size, inode and mtime (nanoseconds): when all of those still match, the recorded hash is
used without reading the binary again (as git's index trusts stat data); any change means the
binary is hashed afresh.

Writes are atomic (temporary file + rename), so concurrent runs at worst redo work. A file that
is unreadable or corrupt is a miss, never an error. The default directory is
`$GROUNDPLAN_SCHEMA_CACHE_DIR`, else `$XDG_CACHE_HOME/groundplan/provider-schemas` (or
`~/.cache/...`); callers may pass a directory under a working directory's `.terraform/`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path

__all__ = ["SchemaCache", "default_cache_dir"]

_CHUNK = 1 << 20


def default_cache_dir() -> Path:
    explicit = os.environ.get("GROUNDPLAN_SCHEMA_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "groundplan" / "provider-schemas"


class SchemaCache:
    """Raw schema responses by binary identity, in one directory."""

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.dir = Path(directory) if directory is not None else default_cache_dir()

    # -- binary identity -----------------------------------------------------------------
    def binary_digest(self, binary: str | os.PathLike[str]) -> str:
        """The sha256 (hex) of the binary, from the index when its stat data is unchanged."""
        path = os.path.realpath(binary)
        st = os.stat(path)
        stamp = [st.st_size, st.st_ino, st.st_mtime_ns]
        index = self._read_index()
        entry = index.get(path)
        if isinstance(entry, dict) and entry.get("stat") == stamp and entry.get("sha256"):
            return str(entry["sha256"])
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(_CHUNK), b""):
                h.update(chunk)
        digest = h.hexdigest()
        index = self._read_index()  # re-read: another process may have written meanwhile
        index[path] = {"stat": stamp, "sha256": digest}
        self._write(self.dir / "index.json", json.dumps(index, sort_keys=True).encode())
        return digest

    # -- entries -------------------------------------------------------------------------
    def _entry(self, digest: str, protocol: int) -> Path:
        return self.dir / f"{digest}-v{protocol}.pb"

    def load(self, binary: str | os.PathLike[str], protocol: int) -> bytes | None:
        """The stored response bytes for this binary and protocol version, or None."""
        try:
            return self._entry(self.binary_digest(binary), protocol).read_bytes()
        except OSError:
            return None

    def store(self, binary: str | os.PathLike[str], protocol: int, data: bytes) -> None:
        """Remember `data` for this binary (errors writing the cache are ignored)."""
        with contextlib.suppress(OSError):
            self._write(self._entry(self.binary_digest(binary), protocol), data)

    def _read_index(self) -> dict[str, object]:
        try:
            data = json.loads((self.dir / "index.json").read_bytes())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, target: Path, data: bytes) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.dir, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
