"""Module evaluation: scopes, locals, outputs and local child modules (no resources yet)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy_exports import lazy_exports

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


__getattr__ = lazy_exports(globals(), _LAZY)


__all__ = ["ModuleInstance", "ModuleScope", "OutputResult", "evaluate_root", "root_instance"]
