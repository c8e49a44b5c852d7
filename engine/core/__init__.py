"""Module evaluation: scopes, locals, outputs and local child modules (no resources yet)."""

from __future__ import annotations

from engine.core.modules import ModuleInstance
from engine.core.outputs import OutputResult
from engine.core.root import evaluate_root, root_instance
from engine.core.scope import ModuleScope

__all__ = ["ModuleInstance", "ModuleScope", "OutputResult", "evaluate_root", "root_instance"]
