"""Backends: where a working directory's states live and how they are locked.

A `Backend` (see `engine.backend.base`) answers three questions for the operations and the
state commands: which workspaces exist, how to delete one, and the `StateManager` (storage +
locker + persistence policy + journal) of one workspace. `local` keeps state in files beside
the configuration, as terraform's local backend does; remote backends (`s3`) are further
implementations of the same interface. Cloud SDKs are imported only inside their backend.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.backend.base import Backend, StateOptions
    from engine.backend.local import LocalBackend

# name -> (module, attribute): each re-export is imported on first use, so importing one
# module of this package does not import the others.
_LAZY: dict[str, tuple[str, str]] = {
    "Backend": ("engine.backend.base", "Backend"),
    "StateOptions": ("engine.backend.base", "StateOptions"),
    "LocalBackend": ("engine.backend.local", "LocalBackend"),
}


def __getattr__(name: str) -> Any:
    entry = _LAZY.get(name)
    if entry is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(entry[0]), entry[1])
    globals()[name] = value
    return value


__all__ = ["Backend", "LocalBackend", "StateOptions"]
