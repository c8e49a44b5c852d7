"""Module evaluation: scopes, locals, outputs and local child modules (no resources yet)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.core.modules import ModuleInstance
    from engine.core.outputs import OutputResult
    from engine.core.root import evaluate_root, root_instance
    from engine.core.scope import ModuleScope

# name -> (module, attribute): each re-export is imported on first use, so importing one
# module of this package does not import the others.
_LAZY: dict[str, tuple[str, str]] = {
    "ModuleInstance": ("engine.core.modules", "ModuleInstance"),
    "OutputResult": ("engine.core.outputs", "OutputResult"),
    "evaluate_root": ("engine.core.root", "evaluate_root"),
    "root_instance": ("engine.core.root", "root_instance"),
    "ModuleScope": ("engine.core.scope", "ModuleScope"),
}


def __getattr__(name: str) -> Any:
    entry = _LAZY.get(name)
    if entry is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(entry[0]), entry[1])
    globals()[name] = value
    return value


__all__ = ["ModuleInstance", "ModuleScope", "OutputResult", "evaluate_root", "root_instance"]
