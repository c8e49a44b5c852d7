"""Plans: the model of proposed changes, the planner, the saved-plan file and its renderings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from engine.plans.model import (
        Action,
        ActionReason,
        Importing,
        OutputChange,
        Plan,
        PlanMode,
        ResourceInstanceChange,
    )

# name -> (module, attribute): each re-export is imported on first use, so importing one
# module of this package does not import the others.
_LAZY: dict[str, tuple[str, str]] = {
    "Action": ("engine.plans.model", "Action"),
    "ActionReason": ("engine.plans.model", "ActionReason"),
    "Importing": ("engine.plans.model", "Importing"),
    "OutputChange": ("engine.plans.model", "OutputChange"),
    "Plan": ("engine.plans.model", "Plan"),
    "PlanMode": ("engine.plans.model", "PlanMode"),
    "ResourceInstanceChange": ("engine.plans.model", "ResourceInstanceChange"),
}


__getattr__ = lazy_exports(globals(), _LAZY)


__all__ = [
    "Action", "ActionReason", "Importing", "OutputChange", "Plan", "PlanMode",
    "ResourceInstanceChange",
]
