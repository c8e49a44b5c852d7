"""The dependency lock file (`.terraform.lock.hcl`): see `engine.depsfile.locks`."""

from __future__ import annotations

from engine.depsfile.locks import (
    LOCK_FILE,
    Locks,
    ProviderLock,
    load_locks,
    parse_locks,
    render_locks,
    save_locks,
)

__all__ = ["LOCK_FILE", "Locks", "ProviderLock", "load_locks", "parse_locks", "render_locks", "save_locks"]
