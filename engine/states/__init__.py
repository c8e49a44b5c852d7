"""Terraform's v4 state: the model, the JSON file format, and the local state file."""

from __future__ import annotations

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
