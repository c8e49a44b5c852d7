"""Check results: the status of every custom condition of a run (terraform's checks.State).

`ChecksState` collects, during one plan or apply walk, the status of each condition of each
checkable object (resource instances with pre/postconditions, outputs with preconditions,
`check` blocks, input variables with validation rules) and summarises them per configuration
object as the `CheckResult`s a plan and a state record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy_exports import lazy_exports

if TYPE_CHECKING:
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

# name -> (module, attribute): each re-export is imported on first use, so importing one
# module of this package does not import the others.
_LAZY: dict[str, tuple[str, str]] = {
    "ASSERTION": ("engine.checks.state", "ASSERTION"),
    "CHECK": ("engine.checks.state", "CHECK"),
    "CHECK_DATA": ("engine.checks.state", "CHECK_DATA"),
    "OUTPUT": ("engine.checks.state", "OUTPUT"),
    "OUTPUT_PRECONDITION": ("engine.checks.state", "OUTPUT_PRECONDITION"),
    "POSTCONDITION": ("engine.checks.state", "POSTCONDITION"),
    "PRECONDITION": ("engine.checks.state", "PRECONDITION"),
    "RESOURCE": ("engine.checks.state", "RESOURCE"),
    "VALIDATION": ("engine.checks.state", "VALIDATION"),
    "VAR": ("engine.checks.state", "VAR"),
    "ChecksState": ("engine.checks.state", "ChecksState"),
    "Reporter": ("engine.checks.state", "Reporter"),
    "in_module": ("engine.checks.state", "in_module"),
}


__getattr__ = lazy_exports(globals(), _LAZY)


__all__ = [
    "ASSERTION", "CHECK", "CHECK_DATA", "OUTPUT", "OUTPUT_PRECONDITION", "POSTCONDITION",
    "PRECONDITION", "RESOURCE", "VALIDATION", "VAR", "ChecksState", "Reporter", "in_module",
]
