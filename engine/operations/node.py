"""Applying a saved plan one node at a time: the seam the control plane's node tasks call.

    graph, diags = apply_graph(pf, working_dir=wd)        # {node id: [node ids it waits for]}
    result = apply_node(pf, "aws_s3_bucket.b", [dep1, dep2], working_dir=wd)
    send(result.to_json())                                 # JSON-able: a Lambda returns it
    state, diags = finalize_apply(pf, all_results, working_dir=wd)

`apply_graph` lists the plan's operations ("nodes": one per change of an instance, see
engine.apply.node.node_id) with what each waits for; a scheduler starts a node once those are
done. `apply_node` applies one of them with the same code the local walker runs
(engine.apply.node.apply_one → engine.apply.instance.apply_instance), after putting the
results it depends on into the working state; its `NodeResult` carries the state delta
(journal result records) and diagnostics. `finalize_apply` merges every node's result into
the plan's prior state (which already holds the objects `import` blocks imported), then sets
the root outputs and check results as the local apply does at its end; persisting that state
(and unlocking) is the caller's.

The plan must pass the same checks as for a local apply first (stale plan, configuration
hash): engine.operations.apply does them; a control plane does them once before the fan-out.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.apply.applier import (
    ApplyOptions,
    ApplyRun,
    ApplyStructure,
    apply_structure,
    forget_data_sources,
    prepare_apply,
    set_outputs,
    step,
)
from engine.apply.graph import Op
from engine.apply.node import (
    MemoryRecorder,
    NodeResult,
    apply_one,
    merge_results,
    op_dependencies,
    op_dependencies_of,
    ops,
)
from engine.configs import Config
from engine.diags import Diagnostics, error
from engine.graph.signals import StopController
from engine.graph.walker import walk
from engine.operations.planfiles import snapshot_configuration
from engine.plans.hooks import NO_HOOKS, Hooks
from engine.plans.model import PlanMode
from engine.plans.planfile import PlanFile, read_planfile
from engine.plugin.registry import ProviderRegistry
from engine.states.state import State

DependencyResult = NodeResult | Mapping[str, Any]


def load_plan(plan: PlanFile | str) -> tuple[PlanFile | None, Diagnostics]:
    """A saved plan from its path (or as given)."""
    if isinstance(plan, PlanFile):
        return plan, Diagnostics()
    return read_planfile(plan)


@dataclass
class _Static:
    """What every node of one saved plan shares: its configuration and apply structure."""

    config: Config
    structure: ApplyStructure


#: id(PlanFile) -> (the PlanFile, what its nodes share), the most recent few (a warm
#: function keeps its decoded plan, so each node task pays only for its own node). The
#: PlanFile is held so that its id is not reused while the entry lives.
_static: OrderedDict[int, tuple[PlanFile, _Static]] = OrderedDict()
_static_lock = threading.Lock()
_STATIC_KEPT = 8


def _shared(pf: PlanFile, config: Config | None) -> tuple[_Static | None, Diagnostics]:
    """The configuration (`config`, or the plan's snapshot) and apply structure of `pf`,
    built once per PlanFile object (when `config` is given, per object too)."""
    key = id(pf)
    with _static_lock:
        entry = _static.get(key)
        found = entry[1] if entry is not None and entry[0] is pf else None
    if found is not None and (config is None or found.config is config):
        return found, Diagnostics()
    diags = Diagnostics()
    if config is None:
        config, diags = snapshot_configuration(pf)
        if diags.has_errors:
            return None, diags
    structure, more = apply_structure(config, pf.plan, _prior(pf))
    diags.extend(more)
    if structure is None:
        return None, diags
    found = _Static(config, structure)
    with _static_lock:
        _static[key] = (pf, found)
        _static.move_to_end(key)
        while len(_static) > _STATIC_KEPT:
            _static.popitem(last=False)
    return found, diags


def _prepared(
    pf: PlanFile,
    state: State,
    working_dir: str,
    config: Config | None,
    registry: ProviderRegistry,
    hooks: Hooks,
) -> tuple[ApplyRun | None, Diagnostics]:
    shared, diags = _shared(pf, config)
    if shared is None:
        return None, diags
    options = ApplyOptions(parallelism=1, hooks=hooks, working_dir=working_dir)
    run, more = prepare_apply(shared.config, pf.plan, _prior(pf), MemoryRecorder(state),
                              registry, options, structure=shared.structure)
    diags.extend(more)
    return run, diags


#: id(apply graph) -> (the graph, its ops by node id), the most recent few: a shared
#: structure's graph never changes, so a node task finds its op without a pass over the graph
_op_index: OrderedDict[int, tuple[Any, dict[str, Op]]] = OrderedDict()


def _op(run: ApplyRun, address: str) -> Op | None:
    key = id(run.graph)
    with _static_lock:
        entry = _op_index.get(key)
    if entry is None or entry[0] is not run.graph:
        entry = (run.graph, ops(run.graph))
        with _static_lock:
            _op_index[key] = entry
            _op_index.move_to_end(key)
            while len(_op_index) > _STATIC_KEPT:
                _op_index.popitem(last=False)
    return entry[1].get(address)


def _prior(pf: PlanFile) -> State:
    return pf.prior_state.state if pf.prior_state is not None else State()


def _results(given: Iterable[DependencyResult]) -> list[NodeResult]:
    return [r if isinstance(r, NodeResult) else NodeResult.from_json(dict(r)) for r in given]


def _missing(run: ApplyRun, op: Op, given: list[NodeResult], completed: Iterable[str]
             ) -> list[str]:
    """The nodes `op` waits for that are neither given nor completed."""
    done = {r.id for r in given} | set(completed)
    return [n for n in op_dependencies_of(run.graph, op) if n not in done]


def _registry(working_dir: str, registry: ProviderRegistry | None) -> tuple[ProviderRegistry, bool]:
    if registry is not None:
        return registry, False
    from engine.plugin.loader import PluginRegistry

    return PluginRegistry(working_dir), True


def apply_graph(
    plan: PlanFile | str,
    *,
    working_dir: str,
    config: Config | None = None,
    registry: ProviderRegistry | None = None,
) -> tuple[dict[str, list[str]], Diagnostics]:
    """Every node of the plan's apply (by node id) with the node ids it waits for. `config`
    is the plan's configuration (None: loaded from the plan's snapshot)."""
    pf, diags = load_plan(plan)
    if pf is None:
        return {}, diags
    reg, owned = _registry(working_dir, registry)
    try:
        run, more = _prepared(pf, _prior(pf), working_dir, config, reg, NO_HOOKS)
    finally:
        if owned:
            reg.close()
    diags.extend(more)
    if run is None:
        return {}, diags
    return op_dependencies(run.graph), diags


def apply_node(
    plan: PlanFile | str,
    address: str,
    dependency_results: Iterable[DependencyResult] = (),
    *,
    working_dir: str,
    config: Config | None = None,
    state: State | None = None,
    completed: Iterable[str] = (),
    registry: ProviderRegistry | None = None,
    hooks: Hooks = NO_HOOKS,
    stop: StopController | None = None,
) -> NodeResult:
    """Apply node `address` (a node id of `apply_graph`: `ADDR` for a create/update/read,
    `ADDR (destroy)`, ...) of the saved `plan`.

    The working state is `state` (None: the plan's prior state) with `dependency_results`
    (NodeResults or their `to_json()` data, in completion order) merged in. Every node this
    one waits for must be among the results given or in `completed` (node ids whose results
    `state` already holds), else the result is the error "Dependencies not applied". `working_dir` is where the providers are
    installed (`.terraform/providers`) and relative paths resolve; `config` the plan's
    configuration (None: loaded from the plan's snapshot). Provider processes of a registry
    made here are stopped before returning. Never raises for bad input: problems are the
    result's diagnostics."""
    pf, diags = load_plan(plan)
    if pf is None:
        return NodeResult(address, address, "apply", diagnostics=diags)
    base = _prior(pf) if state is None else state
    given = _results(dependency_results)
    working = merge_results(base, given)
    reg, owned = _registry(working_dir, registry)
    try:
        run, more = _prepared(pf, working, working_dir, config, reg, hooks)
        diags.extend(more)
        if run is None:
            return NodeResult(address, address, "apply", diagnostics=diags)
        op = _op(run, address)
        if op is None:
            diags.append(error("No such node in the plan",
                               f"The saved plan has no change to apply as {address!r}."))
            return NodeResult(address, address, "apply", diagnostics=diags)
        missing = _missing(run, op, given, completed)
        if missing:
            diags.append(error(
                "Dependencies not applied",
                f"{address} waits for {', '.join(missing)}, whose results were not given."))
            return NodeResult(address, address, op.kind, op.deposed, diagnostics=diags)
        result = apply_one(run, op, stop=stop)
        result.diagnostics.items[:0] = diags.items
        return result
    finally:
        if owned:
            diags.extend(reg.close())


def finalize_apply(
    plan: PlanFile | str,
    results: Iterable[DependencyResult],
    *,
    working_dir: str,
    config: Config | None = None,
    state: State | None = None,
    registry: ProviderRegistry | None = None,
    hooks: Hooks = NO_HOOKS,
) -> tuple[State | None, Diagnostics]:
    """The state after every node of `plan` ran: `state` (None: the plan's prior state) with
    `results` merged in order, the root outputs evaluated and set, and the check results
    recorded, as the local apply ends. The diagnostics include every result's."""
    pf, diags = load_plan(plan)
    if pf is None:
        return None, diags
    given = _results(results)
    for r in given:
        diags.extend(r.diagnostics)
    working = merge_results(_prior(pf) if state is None else state, given)
    reg, owned = _registry(working_dir, registry)
    try:
        run, more = _prepared(pf, working, working_dir, config, reg, hooks)
        diags.extend(more)
        if run is None:
            return None, diags
        res = walk(run.graph, lambda n: step(run, n, only=_NO_OP), 1, None)
        diags.extend(res.diagnostics)
        if res.interrupted or res.diagnostics.has_errors:
            return None, diags
        set_outputs(run.ctx, run.ctx.pctx.config, hooks)
        if pf.plan.mode is PlanMode.DESTROY and not pf.plan.target_addrs:
            diags.extend(forget_data_sources(run.ctx.manager, working))
        sync = run.ctx.manager.sync
        sync.set_check_results(run.checks.results())
        return sync.snapshot(), diags
    finally:
        if owned:
            diags.extend(reg.close())


class _NoOp:
    """Matches no op: a walk with `only=_NO_OP` evaluates configuration nodes only."""


_NO_OP: Any = _NoOp()

__all__ = ["apply_graph", "apply_node", "finalize_apply", "load_plan"]
