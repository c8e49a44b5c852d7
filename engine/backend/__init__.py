"""Backends: where a working directory's states live and how they are locked.

A `Backend` (see `engine.backend.base`) answers three questions for the operations and the
state commands: which workspaces exist, how to delete one, and the `StateManager` (storage +
locker + persistence policy + journal) of one workspace. `local` keeps state in files beside
the configuration, as terraform's local backend does; remote backends (`s3`) are further
implementations of the same interface. Cloud SDKs are imported only inside their backend.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from engine.backend.base import Backend, StateOptions
    from engine.backend.local import LocalBackend
    from engine.states.manager import Storage

#: Imported on first use (PEP 562): `engine.backend.workspaces`, which every command's Meta
#: reads, does not pull in the state machinery with this package.
_LOCATIONS = {
    "Backend": "engine.backend.base",
    "LocalBackend": "engine.backend.local",
    "StateOptions": "engine.backend.base",
    "Storage": "engine.states.manager",
}


__getattr__ = lazy_exports(globals(), _LOCATIONS)

__all__ = ["Backend", "LocalBackend", "StateOptions", "Storage"]
