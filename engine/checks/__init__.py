"""Check results: the status of every custom condition of a run (terraform's checks.State).

`ChecksState` collects, during one plan or apply walk, the status of each condition of each
checkable object (resource instances with pre/postconditions, outputs with preconditions,
`check` blocks, input variables with validation rules) and summarises them per configuration
object as the `CheckResult`s a plan and a state record.
"""

from __future__ import annotations

from engine.checks.state import (
    ASSERTION,
    CHECK,
    CHECK_DATA,
    OUTPUT,
    OUTPUT_PRECONDITION,
    POSTCONDITION,
    PRECONDITION,
    RESOURCE,
    VALIDATION,
    VAR,
    ChecksState,
    Reporter,
    in_module,
)

__all__ = [
    "ASSERTION", "CHECK", "CHECK_DATA", "OUTPUT", "OUTPUT_PRECONDITION", "POSTCONDITION",
    "PRECONDITION", "RESOURCE", "VALIDATION", "VAR", "ChecksState", "Reporter", "in_module",
]
