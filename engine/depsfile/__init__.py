"""The dependency lock file (`.terraform.lock.hcl`): see `engine.depsfile.locks`.

The parser and renderer are imported on first use (PEP 562): `version` only needs to know
whether the file exists before it reads it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.depsfile.names import LOCK_FILE
from engine.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from engine.depsfile.locks import (
        Locks,
        ProviderLock,
        load_locks,
        parse_locks,
        render_locks,
        save_locks,
    )

_LOCATIONS = {name: "engine.depsfile.locks" for name in (
    "Locks", "ProviderLock", "load_locks", "parse_locks", "render_locks", "save_locks")}

__getattr__ = lazy_exports(globals(), _LOCATIONS)

__all__ = ["LOCK_FILE", "Locks", "ProviderLock", "load_locks", "parse_locks", "render_locks", "save_locks"]
