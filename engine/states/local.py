"""The local state file (`terraform.tfstate`) with Terraform's persistence policy.

- Reading remembers the snapshot read; writing compares against it: when the content is the
  same nothing is written (the serial stays), otherwise the serial is incremented (the lineage
  kept), and a state created from nothing starts at serial 1 with a new lineage.
- Before the first write that replaces an existing file, its previous text is saved as
  `<path>.backup` (once per `LocalState`).
- Every file is replaced atomically: written to a temporary file in the same directory,
  flushed with fsync, then renamed over the target, so a crash never leaves half a state.
"""

from __future__ import annotations

import contextlib
import os
import tempfile

from engine.diags import Diagnostics, error
from engine.states.state import State, StateFile, new_lineage
from engine.states.statefile import read_state, states_equal, write_state


def atomic_write(path: str, text: str) -> None:
    """Replace `path` with `text` atomically (temp file, fsync, rename, fsync directory)."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-" + os.path.basename(path) + "-", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
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


class LocalState:
    """A state file on the local disk."""

    def __init__(self, path: str, backup_path: str | None = None) -> None:
        self.path = path
        self.backup_path = path + ".backup" if backup_path is None else backup_path
        self._read: StateFile | None = None
        self._read_text: str | None = None
        self._loaded = False
        self._backed_up = False

    def read(self) -> tuple[StateFile | None, Diagnostics]:
        """The current snapshot, or None when there is no state file yet."""
        diags = Diagnostics()
        try:
            with open(self.path, encoding="utf-8") as fh:
                text = fh.read()
        except FileNotFoundError:
            self._loaded = True
            self._read = None
            self._read_text = None
            return None, diags
        except OSError as exc:
            diags.append(error("Failed to load state", f"{self.path}: {exc.strerror}"))
            return None, diags
        self._loaded = True
        if not text.strip():
            # An empty file (a lock creates one) is no state: nothing to back up.
            self._read_text = None
            self._read = None
            return None, diags
        self._read_text = text
        sf, more = read_state(text)
        diags.extend(more)
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
        prev = self._read
        if prev is not None and states_equal(prev.state, state):
            return prev, diags
        if prev is None:
            sf = StateFile(state=state, lineage=new_lineage(), serial=1)
        else:
            sf = StateFile(state=state, lineage=prev.lineage, serial=prev.serial + 1)
        try:
            text = write_state(sf)
        except Exception as exc:  # a value the codec cannot encode
            diags.append(error("Failed to serialize state", str(exc)))
            return None, diags
        try:
            if self._read_text is not None and not self._backed_up and self.backup_path:
                atomic_write(self.backup_path, self._read_text)
                self._backed_up = True
            atomic_write(self.path, text)
        except OSError as exc:
            diags.append(error("Failed to save state", f"{self.path}: {exc.strerror or exc}"))
            return None, diags
        self._read = sf
        self._read_text = text
        return sf, diags
