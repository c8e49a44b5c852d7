"""`apply_plan`: applying a saved plan (terraform's Context.Apply).

    result = apply_plan(config, plan, prior_state_file, manager, registry, ApplyOptions())

The working state starts as the plan's prior (refreshed) state (`manager.begin_apply`). The
apply graph (engine.apply.graph) is walked with up to `parallelism` operations at
once: module calls, variables and locals are evaluated again with the values known so far,
each change is applied by `apply_instance` (every result recorded through the state manager:
an intent before the provider call, a result after it, never a full state rewrite per
instance), a resource's values become visible to its dependents once all of its instances are
done; objects the plan imported are recorded first (engine.apply.imports). A failed operation skips what depends on it; independent failures are all reported. A
stop request lets running calls finish, starts nothing new, and the state is persisted. Root
outputs are computed at the end and set in state; `manager.finish()` writes the final state.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from engine.addrs import (
    AddressSyntaxError,
    ModuleInstance,
    parse_abs_provider_config,
    parse_abs_resource,
    parse_target,
)
from engine.apply.context import ApplyContext, Recorder
from engine.apply.graph import Done, Op, build_apply_graph
from engine.apply.imports import record_imports
from engine.apply.instance import apply_instance
from engine.apply.progress import Ticker
from engine.checks import ChecksState
from engine.configs import Config
from engine.core.check_asserts import assert_check_block
from engine.core.instances import InstanceTree
from engine.core.root import root_instance
from engine.diags import Diagnostics
from engine.graph.builder import build_graph, plan_steps
from engine.graph.builder_nodes import (
    CALL,
    CHECK,
    LOCAL,
    OUTPUT,
    PROVIDER,
    RESOURCE,
    VAR,
    Node,
    resource_dependencies,
)
from engine.graph.digraph import DiGraph
from engine.graph.signals import StopController
from engine.graph.steps import provider_config_addr
from engine.graph.walker import walk
from engine.plans.hooks import NO_HOOKS, Hooks
from engine.plans.model import Action, Plan, PlanMode
from engine.plans.planner_context import PlanContext
from engine.plans.planner_expand import expand_resource
from engine.plans.planner_state import index_state
from engine.plugin.registry import ProviderRegistry
from engine.states.manager import StateManager
from engine.states.state import OutputValue, State, StateFile
from engine.states.sync import SyncState
from engine.values import Value


@dataclass
class ApplyOptions:
    """How an apply runs: parallelism, stop controller, progress hooks, variables and working
    directory."""

    parallelism: int = 10
    stop: StopController | None = None
    hooks: Hooks = NO_HOOKS
    variables: dict[str, Value] = field(default_factory=dict)
    working_dir: str | None = None


@dataclass
class ApplyResult:
    """What an apply returns: the new state, diagnostics and the module tree after the walk."""

    state: State
    diagnostics: Diagnostics
    # the module tree after the walk: its scopes evaluate expressions over the new values
    # (`groundplan test` assertions); None when the apply stopped before its walk
    tree: Any = None


def _state_deps(state: State) -> dict[Node, set[Node]]:
    """Dependencies recorded in state, by resource node."""
    out: dict[Node, set[Node]] = {}
    for rs in state.resources:
        mi_module = rs.module
        try:
            base = parse_abs_resource(f"{mi_module}.{rs.type}.{rs.name}" if mi_module else
                                      f"{rs.type}.{rs.name}") if rs.mode == "managed" else None
        except AddressSyntaxError:
            continue
        if base is None:
            continue
        node = Node(RESOURCE, base.module.module(), str(base.resource))
        for inst in rs.instances:
            objs = ([inst.current] if inst.current else []) + list(inst.deposed.values())
            for obj in objs:
                for d in obj.dependencies:
                    try:
                        dep = parse_abs_resource(d)
                    except AddressSyntaxError:
                        continue
                    out.setdefault(node, set()).add(
                        Node(RESOURCE, dep.module.module(), str(dep.resource)))
    return out


def _finalize_resource(ctx: ApplyContext, node: Node, res: Any) -> Diagnostics:
    """Make a resource's value complete for its dependents: its expansion in every module
    instance, with unchanged instances' values from the state."""
    diags = Diagnostics()
    tree = ctx.tree
    mode = "data" if res.mode == "data" else "managed"
    for mi in tree.instances(node.module):
        rep, insts, more = expand_resource(tree.scope(mi), res)
        diags.extend(more)
        if more.has_errors:
            continue
        values: dict[Any, Value] = {}
        unchanged: list[tuple[Any, dict[str, Value]]] = []
        for key, roots in insts:
            val = tree.values.get(mi, mode, res.type, res.name, key)
            if val is None:
                val = _state_value(ctx, mi, res, key)
                if val is not None:
                    unchanged.append((key, roots))
            if val is not None:
                values[key] = val
        tree.values.expand(mi, mode, res.type, res.name, rep)
        for key, val in values.items():
            tree.values.set(mi, mode, res.type, res.name, key, val)
        for key, roots in unchanged:
            diags.extend(_unchanged_conditions(ctx, mi, res, key, roots, values[key]))
    return diags


def _unchanged_conditions(ctx: ApplyContext, mi: ModuleInstance, res: Any, key: Any,
                          roots: dict[str, Value], value: Value) -> Diagnostics:
    """As terraform for a managed instance the apply leaves unchanged (a no-op change): its
    preconditions and its postconditions (against its current object) are checked again
    with what is known now."""
    from engine.plans.planner_instance import check_conditions, instance_addr

    if res.mode == "data" or not (res.preconditions or res.postconditions):
        return Diagnostics()  # (a data source is only in the apply graph when read then)
    addr = instance_addr(mi, res, key)
    diags = check_conditions(ctx.pctx, res, mi, roots, res.preconditions,
                             "Resource precondition failed", addr)
    if not diags.has_errors and res.postconditions:
        diags.extend(check_conditions(ctx.pctx, res, mi, {**roots, "self": value},
                                      res.postconditions, "Resource postcondition failed", addr))
    return diags


def _state_value(ctx: ApplyContext, mi: ModuleInstance, res: Any, key: Any) -> Value | None:
    from engine.plans.planner_instance import instance_addr

    addr = instance_addr(mi, res, key)
    obj = ctx.manager.sync.current(addr)
    if obj is None:
        return None
    entry = ctx.pctx.prior.get(addr)
    if entry is not None:
        provider = parse_abs_provider_config(entry.provider)
    else:  # created by this apply, in another executor (engine.apply.node)
        change = ctx.change(addr)
        if change is None:
            return None
        provider = change.provider
    mode = "data" if res.mode == "data" else "managed"
    b, _ = ctx.pctx.binding(provider, mode, res.type)
    if b is None:
        return None
    # an object created by this apply in another executor came from its provider's apply
    # response: decoded as it is, without an UpgradeResourceState call per dependent node
    val, _ = ctx.pctx.decode(b, addr, obj, fresh=entry is None)
    return val


def _run(ctx: ApplyContext, build: Any, node: Any) -> Diagnostics:
    if isinstance(node, Op):
        return apply_instance(ctx, ctx.plan, node.addr, None, node.kind, node.deposed).diagnostics
    if isinstance(node, Done):
        return Diagnostics()
    tree = ctx.tree
    destroying = ctx.plan.mode is PlanMode.DESTROY
    if node.kind == RESOURCE:
        res = build.objects.get(node)
        if res is None or destroying:
            return Diagnostics()
        return _finalize_resource(ctx, node, res)
    if node.kind == CALL:
        return tree.expand_call(node.module, node.name)
    if node.kind == VAR:
        return tree.set_variable(node.module, node.name, not destroying) if node.module.names \
            else Diagnostics()
    if node.kind == PROVIDER:
        pc = build.objects[node]
        cfg = ctx.pctx.config.descendant(node.module.names)
        _inst, diags = ctx.pctx.provider(provider_config_addr(cfg, pc.name, pc.alias))
        return diags
    if destroying:
        return Diagnostics()
    if node.kind == LOCAL:
        return tree.eval_local(node.module, node.name)
    if node.kind == OUTPUT:
        return tree.eval_output(node.module, node.name)
    if node.kind == CHECK:
        return _checks(ctx, node, build.objects.get(node))
    return Diagnostics()


def _checks(ctx: ApplyContext, node: Node, chk: Any) -> Diagnostics:
    out = Diagnostics()
    for mi in ctx.tree.instances(node.module):
        out.extend(assert_check_block(ctx.tree, ctx.pctx.checks, mi, chk))
    return out


def set_outputs(ctx: ApplyContext, config: Config, hooks: Hooks) -> None:
    """Set the root outputs in the working state from the values the walk computed (a
    destroy removes the outputs its plan deletes)."""
    sync = ctx.manager.sync
    root = ModuleInstance()
    if ctx.plan.mode is PlanMode.DESTROY:
        # the outputs the destroy plan deletes (none in a targeted destroy)
        for oc in ctx.plan.output_changes:
            if oc.action is Action.DELETE:
                sync.remove_output(oc.name)
        return
    for name in config.module.outputs:
        res = ctx.tree.output(root, name)
        if res is None:
            continue
        if not res.value.is_wholly_known():
            continue
        if res.value.unmark_deep()[0].is_null:
            sync.remove_output(name)  # as terraform: a null output is no output
            continue
        sensitive = res.sensitive or bool(res.value.deep_marks())
        sync.set_output(name, OutputValue(res.value, sensitive))
        hooks.output_value(name, res.value, sensitive)
    for name in list(sync.snapshot().outputs):
        if name not in config.module.outputs:
            sync.remove_output(name)


def forget_data_sources(manager: Recorder, state: State) -> Diagnostics:
    """After a whole destroy nothing is left in state: data source results go too."""
    diags = Diagnostics()
    for addr, entry in index_state(state).items():
        if addr.resource.mode.value == "data" and entry.current is not None:
            seq, more = manager.record_intent(addr, "forget")
            diags.extend(more)
            diags.extend(manager.record_result(addr, seq, None))
    return diags


@dataclass
class ApplyRun:
    """An apply prepared to walk: the context, the static plan graph it came from and the
    apply graph (engine.apply.graph) over the plan's changes."""

    ctx: ApplyContext
    build: Any
    graph: DiGraph
    checks: ChecksState
    state: State


def prepare_apply(
    config: Config,
    plan: Plan,
    state: State,
    recorder: Recorder,
    registry: ProviderRegistry,
    options: ApplyOptions,
    structure: ApplyStructure | None = None,
) -> tuple[ApplyRun | None, Diagnostics]:
    """Everything an apply walk needs, built from `config`, `plan` and the state the plan was
    made against (`state`): root inputs (the plan's variables), the module instance tree with
    apply-time values, the graphs (`structure`, when given, is `apply_structure` of the same
    three, built earlier). None with errors. Calls no provider and records nothing."""
    diags = Diagnostics()
    cwd = options.working_dir or config.module.source_dir or os.getcwd()
    values = dict(plan.variables) if plan.variables else dict(options.variables)
    for name in plan.apply_time_variables:  # never in the plan: given again to apply
        if name in options.variables:
            values[name] = options.variables[name]
    root, more = root_instance(config, values, cwd)
    diags.extend(more)
    if diags.has_errors:
        return None, diags
    checks = ChecksState.from_plan(config, plan.checks)
    destroying = plan.mode is PlanMode.DESTROY  # as terraform: a destroy checks nothing
    diags.extend(root.validate_inputs(None if destroying else checks.variable_reporter("", "")))
    if diags.has_errors:
        return None, diags
    tree = InstanceTree(config, dict(root.scope.input_values), cwd, plan_phase=False,
                        expander=expand_resource)
    tree.checks = None if destroying else checks
    pctx = PlanContext(config=config, mode=plan.mode, refresh=False, tree=tree,
                       registry=registry, hooks=options.hooks, prior=index_state(state),
                       refreshed=SyncState(), checks=checks)
    if structure is None:
        structure, more = apply_structure(config, plan, state)
        diags.extend(more)
        if structure is None:
            return None, diags
    ctx = ApplyContext(plan, pctx, recorder)
    ctx.changes = structure.changes
    ctx.dependencies = structure.dependencies
    return ApplyRun(ctx, structure.build, structure.graph, checks, state), diags


@dataclass(frozen=True)
class ApplyStructure:
    """The graphs of an apply, which depend only on the configuration, the plan and the
    state the plan was made against: the static plan graph (`build`), each resource's
    dependencies, and the apply graph over the plan's changes. Walks never change them
    (they walk copies), so one structure serves every apply of the same plan: the control
    plane's node tasks build it once per warm function, not once per node."""

    build: Any
    dependencies: dict[Any, list[str]]
    graph: DiGraph
    #: the plan's changes by (instance address, deposed key): read, never changed
    changes: dict[tuple[Any, str], Any]


def apply_structure(config: Config, plan: Plan, state: State
                    ) -> tuple[ApplyStructure | None, Diagnostics]:
    """The `ApplyStructure` of applying `plan` (made against `state`) of `config`."""
    diags = Diagnostics()
    targets = []
    for t in plan.target_addrs:
        try:
            targets.append(parse_target(t))
        except AddressSyntaxError:
            continue
    build, more = build_graph(
        config, plan_steps(state, targets, plan.mode is PlanMode.DESTROY))
    diags.extend(more)
    if more.has_errors:
        return None, diags
    deps = resource_dependencies(build.graph)
    dependencies = {n: sorted(str(d) for d in ds) for n, ds in deps.items()}
    graph = build_apply_graph(build.graph, plan.changes, _state_deps(state))
    changes = {(c.addr, c.deposed_key or ""): c for c in plan.changes}
    return ApplyStructure(build, dependencies, graph, changes), diags


def step(run: ApplyRun, node: Any, only: Op | None = None) -> Diagnostics:
    """Run one node of `run.graph`: an `Op` applies its change (all of them, or with `only`
    just that one: the others' results are in the working state already), configuration
    nodes are evaluated with the values known so far."""
    if isinstance(node, Op) and only is not None and node != only:
        return Diagnostics()
    return _run(run.ctx, run.build, node)


def apply_plan(
    config: Config,
    plan: Plan,
    prior_state: StateFile | None,
    manager: StateManager,
    registry: ProviderRegistry,
    options: ApplyOptions,
) -> ApplyResult:
    """Apply `plan` (see the module docstring)."""
    state = prior_state.state if prior_state is not None else State()
    run, diags = prepare_apply(config, plan, state, manager, registry, options)
    if run is None:
        return ApplyResult(state, diags)
    diags.extend(manager.begin_apply(state))
    if diags.has_errors:
        return ApplyResult(state, diags)
    ctx = run.ctx
    if options.stop is not None:
        stop = options.stop

        def on_stop() -> None:
            ctx.stop_event.set()
            options.hooks.stopping()
            registry.stop_all()
            manager.request_persist()

        stop.add_listener(on_stop)
    diags.extend(record_imports(ctx))
    if diags.has_errors:
        diags.extend(manager.finish())
        return ApplyResult(manager.sync.snapshot(), diags)
    ctx.ticker = Ticker(options.hooks)
    ctx.ticker.start()
    try:
        res = walk(run.graph, lambda n: step(run, n), options.parallelism, options.stop)
    finally:
        ctx.ticker.close()
    diags.extend(res.diagnostics)
    if not res.interrupted:
        set_outputs(ctx, config, options.hooks)
        if plan.mode is PlanMode.DESTROY and not plan.target_addrs:
            diags.extend(forget_data_sources(manager, state))
    manager.sync.set_check_results(run.checks.results())
    diags.extend(manager.finish())
    return ApplyResult(manager.sync.snapshot(), diags, ctx.tree)


from engine.apply.stale import check_plan_fresh  # noqa: E402  (re-exported for callers)

__all__ = [
    "ApplyOptions",
    "ApplyResult",
    "ApplyRun",
    "apply_instance",
    "apply_plan",
    "check_plan_fresh",
    "forget_data_sources",
    "prepare_apply",
    "set_outputs",
    "step",
]
