"""The operations: plan, apply, destroy, refresh and import over a request, for every front end.

    from engine.operations import PlanRequest, plan
    result = plan(PlanRequest(working_dir=wd, backend=LocalBackend(wd), out="p.tfplan"))

Each operation owns the whole of it: loading the configuration once → the dependency lock
file → root input values → validation (once) → the backend's state manager, locked, its
journal recovered → the walk → the plan file or the state → unlock. It returns a result with
its diagnostics and tells its view (engine.operations.view) what a user should see as it
goes; it never touches a terminal. The CLI builds requests from flags and renders results;
the control plane's Lambda handlers build them from events. Applying one node of a saved plan
on its own (`apply_node`, engine.operations.node) is the seam for executors that fan the
apply out.
"""

from __future__ import annotations

from engine.apply.node import NodeResult, merge_results
from engine.operations.apply_op import apply, destroy, refresh
from engine.operations.import_op import import_resource
from engine.operations.node import apply_graph, apply_node, finalize_apply
from engine.operations.plan_op import plan
from engine.operations.requests import (
    ApplyRequest,
    Approve,
    AskVariable,
    ImportRequest,
    OperationRequest,
    PlanRequest,
    StopController,
)
from engine.operations.results import (
    ApplyCounts,
    ApplyResult,
    ImportResult,
    PlanResult,
    plan_has_changes,
)
from engine.operations.view import NULL_VIEW, NullView, OperationView

__all__ = [
    "NULL_VIEW",
    "ApplyCounts",
    "ApplyRequest",
    "ApplyResult",
    "Approve",
    "AskVariable",
    "ImportRequest",
    "ImportResult",
    "NodeResult",
    "NullView",
    "OperationRequest",
    "OperationView",
    "PlanRequest",
    "PlanResult",
    "StopController",
    "apply",
    "apply_graph",
    "apply_node",
    "destroy",
    "finalize_apply",
    "import_resource",
    "merge_results",
    "plan",
    "plan_has_changes",
    "refresh",
]
