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

from typing import TYPE_CHECKING

from engine.lazy_exports import lazy_exports

if TYPE_CHECKING:
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


#: Where each public name lives: imported on first use (PEP 562), so a command pays only
#: for the operation it runs (a plan does not import the applier's node seam, an import
#: does not import the planner), and a Lambda cold start only for its own.
_LOCATIONS: dict[str, str] = {
    "ApplyCounts": "engine.operations.results",
    "ApplyRequest": "engine.operations.requests",
    "ApplyResult": "engine.operations.results",
    "Approve": "engine.operations.requests",
    "AskVariable": "engine.operations.requests",
    "ImportRequest": "engine.operations.requests",
    "ImportResult": "engine.operations.results",
    "NULL_VIEW": "engine.operations.view",
    "NodeResult": "engine.apply.node",
    "NullView": "engine.operations.view",
    "OperationRequest": "engine.operations.requests",
    "OperationView": "engine.operations.view",
    "PlanRequest": "engine.operations.requests",
    "PlanResult": "engine.operations.results",
    "StopController": "engine.operations.requests",
    "apply": "engine.operations.apply_op",
    "apply_graph": "engine.operations.node",
    "apply_node": "engine.operations.node",
    "destroy": "engine.operations.apply_op",
    "finalize_apply": "engine.operations.node",
    "import_resource": "engine.operations.import_op",
    "merge_results": "engine.apply.node",
    "plan": "engine.operations.plan_op",
    "plan_has_changes": "engine.operations.results",
    "refresh": "engine.operations.apply_op",
}


__getattr__ = lazy_exports(globals(), _LOCATIONS)


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
