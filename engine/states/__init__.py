"""Terraform's v4 state: the model, the JSON file format, and the local state file."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from engine.states.local import LocalState
    from engine.states.state import (
        CheckObjectResult,
        CheckResult,
        OutputValue,
        Resource,
        ResourceInstance,
        ResourceInstanceObject,
        State,
        StateFile,
        new_lineage,
    )
    from engine.states.statefile import read_state, write_state

# name -> (module, attribute): each re-export is imported on first use, so importing one
# module of this package does not import the others.
_LAZY: dict[str, tuple[str, str]] = {
    "LocalState": ("engine.states.local", "LocalState"),
    "CheckObjectResult": ("engine.states.state", "CheckObjectResult"),
    "CheckResult": ("engine.states.state", "CheckResult"),
    "OutputValue": ("engine.states.state", "OutputValue"),
    "Resource": ("engine.states.state", "Resource"),
    "ResourceInstance": ("engine.states.state", "ResourceInstance"),
    "ResourceInstanceObject": ("engine.states.state", "ResourceInstanceObject"),
    "State": ("engine.states.state", "State"),
    "StateFile": ("engine.states.state", "StateFile"),
    "new_lineage": ("engine.states.state", "new_lineage"),
    "read_state": ("engine.states.statefile", "read_state"),
    "write_state": ("engine.states.statefile", "write_state"),
}


__getattr__ = lazy_exports(globals(), _LAZY)


__all__ = [
    "CheckObjectResult",
    "CheckResult",
    "LocalState",
    "OutputValue",
    "Resource",
    "ResourceInstance",
    "ResourceInstanceObject",
    "State",
    "StateFile",
    "new_lineage",
    "read_state",
    "write_state",
]
