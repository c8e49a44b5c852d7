"""Plans: the model of proposed changes, the planner, the saved-plan file and its renderings."""

from __future__ import annotations

from engine.plans.model import (
    Action,
    ActionReason,
    Importing,
    OutputChange,
    Plan,
    PlanMode,
    ResourceInstanceChange,
)

__all__ = [
    "Action", "ActionReason", "Importing", "OutputChange", "Plan", "PlanMode",
    "ResourceInstanceChange",
]
