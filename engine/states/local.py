"""The local state file (`terraform.tfstate`) with Terraform's persistence policy.

- Reading remembers the snapshot read; writing compares against it: when the content is the
  same nothing is written (the serial stays), otherwise the serial is incremented (the lineage
  kept), and a state created from nothing starts at serial 1 with a new lineage.
- Before the first write that replaces an existing file with a different state, its previous
  text is saved as `<path>.backup` (once per `LocalState`).
- `read_path` (terraform's `-state` with `-state-out`): the first snapshot is read from there
  and every write goes to `path`; the serial follows the snapshot read, the backup is of what
  `path` held before (nothing when it did not exist), as terraform's local backend does.
- Every file is replaced atomically: written to a temporary file in the same directory,
  flushed with fsync, then renamed over the target, so a crash never leaves half a state.
"""

from __future__ import annotations

import contextlib
import os
import tempfile

from engine.diags import Diagnostics, error
from engine.states.encryption import PASSTHROUGH, EncryptionError, StateEncryption
from engine.states.state import State, StateFile, new_lineage
from engine.states.statefile import read_state, states_equal, write_state


def atomic_write(path: str, text: str | bytes) -> None:
    """Replace `path` with `text` atomically (temp file, fsync, rename, fsync directory).

    On any failure the temporary file is removed and `path` is left as it was."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-" + os.path.basename(path) + "-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8") if isinstance(text, str) else text)
            fh.flush()
            os.fsync(fh.fileno())
        with contextlib.suppress(OSError):
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):
        dfd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


def display_path(path: str) -> str:
    """`path` as Terraform names it in messages: relative to the working directory when inside it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def go_os_error(exc: OSError, path: str) -> str:
    """Go's text for an I/O error on `path` ("read terraform.tfstate: is a directory")."""
    op = "read" if isinstance(exc, IsADirectoryError) else "open"
    text = exc.strerror or str(exc)
    return f"{op} {display_path(path)}: {text[:1].lower()}{text[1:]}"


class LocalState:
    """A state file on the local disk."""

    def __init__(
        self,
        path: str,
        backup_path: str | None = None,
        encryption: StateEncryption | None = None,
        read_path: str | None = None,
    ) -> None:
        self.path = path
        self._source = path if read_path is None else read_path
        self.encryption = encryption or PASSTHROUGH
        self.backup_path = path + ".backup" if backup_path is None else backup_path
        self._read: StateFile | None = None
        self._read_text: bytes | None = None
        self._read_plain: bytes | None = None  # the decrypted document as read or written
        self._loaded = False
        self._backed_up = False
        self._unreadable = False

    def read(self) -> tuple[StateFile | None, Diagnostics]:
        """The current snapshot, or None when there is no state file yet (or it is empty).

        A file that cannot be read or decoded gives Terraform's diagnostics ("Failed to read
        state file", "Unsupported state file format", ...), never an exception."""
        diags = Diagnostics()
        self._unreadable = False
        try:
            with open(self._source, "rb") as fh:
                data = fh.read()
        except FileNotFoundError:
            self._loaded = True
            self._read = None
            self._read_text = None
            self._read_plain = None
            return None, diags
        except OSError as exc:
            self._unreadable = True
            diags.append(error("Failed to read state file",
                               f"The state file could not be read: {go_os_error(exc, self._source)}"))
            return None, diags
        self._loaded = True
        if not data:
            # An empty file (a lock creates one) is no state: nothing to back up. Only an
            # empty one: whitespace is a JSON syntax error to Terraform.
            self._read_text = None
            self._read_plain = None
            self._read = None
            return None, diags
        try:
            plain = self.encryption.decrypt(data)
        except EncryptionError as exc:
            self._unreadable = True
            diags.extend(exc.diags)
            return None, diags
        sf, more = read_state(plain)
        self._read_plain = plain
        diags.extend(more)
        self._unreadable = more.has_errors
        self._read_text = data
        self._read = sf
        return sf, diags

    def write(self, state: State) -> tuple[StateFile | None, Diagnostics]:
        """Persist `state` under the persistence policy; the snapshot now on disk."""
        diags = Diagnostics()
        if not self._loaded:
            _, more = self.read()
            diags.extend(more)
            if diags.has_errors:
                return None, diags
        if self._unreadable:
            diags.append(error("Failed to save state", (
                f"{display_path(self.path)} holds a state that could not be read; it is left as "
                "it is rather than replaced. Repair or move it aside, then try again.")))
            return None, diags
        prev = self._read
        if prev is not None and states_equal(prev.state, state):
            if self._source == self.path and self._stored_as_written(prev):
                return prev, diags
            # as terraform, which always writes: the same snapshot (serial kept) in the form
            # it writes it (entries of one resource merged, the current format version)
            return self._store(StateFile(state=state, lineage=prev.lineage, serial=prev.serial),
                               diags)
        if prev is None:
            sf = StateFile(state=state, lineage=new_lineage(), serial=1)
        else:
            sf = StateFile(state=state, lineage=prev.lineage, serial=prev.serial + 1)
        return self._store(sf, diags)

    def write_file(self, sf: StateFile) -> tuple[StateFile | None, Diagnostics]:
        """Persist `sf` with its own lineage and serial (`state push`, migrations): the
        persistence policy's serial is not applied. Nothing is written when the file already
        holds exactly this snapshot; the backup is made as for `write`."""
        diags = Diagnostics()
        if not self._loaded:
            _, more = self.read()
            diags.extend(more)
            if diags.has_errors:
                return None, diags
        if self._unreadable:
            diags.append(error("Failed to save state", (
                f"{display_path(self.path)} holds a state that could not be read; it is left as "
                "it is rather than replaced. Repair or move it aside, then try again.")))
            return None, diags
        prev = self._read
        if (prev is not None and self._source == self.path
                and (prev.lineage, prev.serial) == (sf.lineage, sf.serial)
                and states_equal(prev.state, sf.state)):
            return prev, diags
        return self._store(StateFile(sf.state, sf.lineage, sf.serial), diags)

    def _replaced(self) -> tuple[bytes | None, State | None]:
        """What `path` holds before this write (its bytes, None when absent or empty) and its
        state (None when it cannot be decoded: it is backed up all the same)."""
        if self._source == self.path:
            return self._read_text, (self._read.state if self._read is not None else None)
        try:
            with open(self.path, "rb") as fh:
                data = fh.read()
        except OSError:
            return None, None
        if not data:
            return None, None
        try:
            sf, more = read_state(self.encryption.decrypt(data))
        except EncryptionError:
            return data, None
        return data, (sf.state if sf is not None and not more.has_errors else None)

    def _stored_as_written(self, sf: StateFile) -> bool:
        """Whether the file holds `sf` (as read) exactly as `write_state` writes it."""
        if self._read_plain is None:
            return True
        try:
            return write_state(sf).encode("utf-8") == self._read_plain
        except Exception:  # a value the codec cannot encode: leave the file as it is
            return True

    def _store(self, sf: StateFile, diags: Diagnostics) -> tuple[StateFile | None, Diagnostics]:
        """Write `sf` (the backup of the file as read first, once), atomically."""
        try:
            text = write_state(sf)
        except Exception as exc:  # a value the codec cannot encode
            diags.append(error("Failed to serialize state", str(exc)))
            return None, diags
        try:
            stored = self.encryption.encrypt(text.encode("utf-8"))
        except EncryptionError as exc:
            diags.extend(exc.diags)
            return None, diags
        try:
            if not self._backed_up and self.backup_path:
                old_text, old_state = self._replaced()
                if old_text is not None and (old_state is None
                                             or not states_equal(old_state, sf.state)):
                    atomic_write(self.backup_path, old_text)
                    self._backed_up = True
            atomic_write(self.path, stored)
        except OSError as exc:
            diags.append(error("Failed to save state", f"{self.path}: {exc.strerror or exc}"))
            return None, diags
        self._source = self.path
        self._read = sf
        self._read_text = stored
        self._read_plain = text.encode("utf-8")
        return sf, diags
