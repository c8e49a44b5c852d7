"""`make_plan`: the plan operation (terraform's Context.Plan).

    result = make_plan(config, prior_state_file, registry, PlanOptions(mode=PlanMode.NORMAL))

1. root input values are finalised and validated (engine.core.root);
2. the plan graph is built (engine.graph.builder: config objects, state orphans, references,
   module expansion, `-target` pruning, cycle check — a cycle stops everything before any
   provider is called);
3. the graph is walked with up to `parallelism` nodes at once: module calls expand, variables,
   locals and outputs are evaluated, each resource node refreshes and plans its instances
   (engine.plans.planner_resource; managed instances on a shared pool of `parallelism`
   threads, as terraform's per-instance nodes), `check` blocks report failed assertions as
   warnings;
4. root output changes are computed against the prior state.

`import` blocks (engine.plans.planner_imports) import their targets just before the target
resource is planned; those changes carry `importing`.

Before the walk, `moved` blocks and implied moves rename objects of the prior state
(engine.plans.planner_moves); the changes of moved instances carry their previous address.

`PlanResult` holds the `Plan` (changes sorted by address, drift, output changes, variables,
targets, `errored`), the refreshed prior state, the previous run state, the diagnostics and
the relevant attributes (resource attributes the changes refer to).
"""

from __future__ import annotations

import contextlib
import datetime
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from engine.addrs import (
    AddressSyntaxError,
    ModuleInstance,
    parse_abs_resource_instance,
    parse_target,
)
from engine.checks import ChecksState, in_module
from engine.configs import Config
from engine.core.check_asserts import assert_check_block
from engine.core.instances import InstanceTree
from engine.core.root import root_instance
from engine.diags import Diagnostics, error, warning
from engine.graph.builder import build_graph, plan_steps
from engine.graph.builder_nodes import CALL, CHECK, LOCAL, OUTPUT, PROVIDER, RESOURCE, VAR, Node
from engine.graph.signals import StopController
from engine.graph.steps import ReferencesStep, provider_config_addr
from engine.graph.walker import walk
from engine.plans.hooks import NO_HOOKS, Hooks
from engine.plans.model import Action, OutputChange, Plan, PlanMode
from engine.plans.planner_context import PlanContext
from engine.plans.planner_expand import expand_resource
from engine.plans.planner_imports import ImportPlanner, ImportReferencesStep
from engine.plans.planner_resource import plan_resource_node
from engine.plans.planner_state import index_state
from engine.plugin.registry import ProviderRegistry
from engine.states.state import State, StateFile
from engine.states.sync import SyncState
from engine.values import Value

TARGET_WARNING = (
    "You are creating a plan with the -target option, which means that the result of this "
    "plan may not represent all of the changes requested by the current configuration.\n\n"
    "The -target option is not for routine use, and is provided only for exceptional "
    "situations such as recovering from errors or mistakes, or when groundplan specifically "
    "suggests to use it as part of an error message."
)


@dataclass
class PlanOptions:
    """How to plan (the `plan` command's options)."""

    mode: PlanMode = PlanMode.NORMAL
    refresh: bool = True
    targets: list[str] = field(default_factory=list)
    force_replace: list[str] = field(default_factory=list)
    variables: dict[str, Value] = field(default_factory=dict)
    parallelism: int = 10
    stop: StopController | None = None
    hooks: Hooks = NO_HOOKS
    working_dir: str | None = None
    timestamp: str | None = None
    # `-generate-config-out`: root import targets without configuration get generated
    # configuration (engine.plans.genconfig) instead of "Configuration for import target
    # does not exist"
    generate_config: bool = False


@dataclass
class PlanResult:
    """What make_plan returns: the plan, the refreshed prior state, the state before the run,
    diagnostics and the module tree."""

    plan: Plan
    prior_state: State
    prev_run_state: State
    diagnostics: Diagnostics
    relevant_attributes: list[tuple[str, Any]] = field(default_factory=list)
    schemas: dict[Any, Any] = field(default_factory=dict)
    # the module tree after the walk: its scopes evaluate expressions over the planned
    # values (`groundplan test` assertions); None when planning stopped before its walk
    tree: Any = None


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse_addrs(opts: PlanOptions, diags: Diagnostics) -> tuple[list[Any], set[Any]]:
    targets: list[Any] = []
    for t in opts.targets:
        try:
            targets.append(parse_target(t))
        except AddressSyntaxError as exc:
            diags.append(error("Invalid target address", str(exc)))
    replace: set[Any] = set()
    for r in opts.force_replace:
        try:
            replace.add(parse_abs_resource_instance(r))
        except AddressSyntaxError as exc:
            diags.append(error("Invalid force-replace address", str(exc)))
    return targets, replace


def _report_objects(ctx: PlanContext, node: Node) -> None:
    """As terraform when it expands a variable, output or check block: its checkable objects
    are one per instance of its module (none in a module with zero instances). A destroy
    plan checks nothing; of its objects it only expands the root module's outputs."""
    local = {VAR: "var.", OUTPUT: "output.", CHECK: "check."}.get(node.kind)
    if local is None or ctx.tree.expansion_unknown(node.module):
        return
    if ctx.mode is PlanMode.DESTROY and (node.kind != OUTPUT or node.module.names):
        return
    local += node.name
    ctx.checks.report_objects(in_module(str(node.module), local),
                              [in_module(str(mi), local) for mi in ctx.tree.instances(node.module)])


def _run_node(ctx: PlanContext, build: Any, node: Node, imports: ImportPlanner) -> Diagnostics:
    tree = ctx.tree
    _report_objects(ctx, node)
    obj = build.objects.get(node)
    if node.kind == RESOURCE:
        diags = imports.before_resource(node, obj)
        if diags.has_errors:
            return diags
        diags.extend(plan_resource_node(ctx, node, obj))
        return diags
    if node.kind == CALL:
        return tree.expand_call(node.module, node.name)
    if node.kind == VAR:
        return tree.set_variable(node.module, node.name) if node.module.names else Diagnostics()
    if node.kind == LOCAL:
        return tree.eval_local(node.module, node.name)
    if node.kind == OUTPUT:
        check = ctx.mode is not PlanMode.DESTROY
        return tree.eval_output(node.module, node.name, check)
    if node.kind == CHECK:
        return _check_block(ctx, node, obj)
    if node.kind == PROVIDER:
        cfg = ctx.config.descendant(node.module.names)
        _inst, diags = ctx.provider(provider_config_addr(cfg, obj.name, obj.alias))
        return diags
    return Diagnostics()


def _check_block(ctx: PlanContext, node: Node, chk: Any) -> Diagnostics:
    """`check` assertions: failures are warnings, as terraform reports them."""
    out = Diagnostics()
    if ctx.mode is PlanMode.DESTROY:
        return out
    for mi in ctx.tree.instances(node.module):
        out.extend(assert_check_block(ctx.tree, ctx.checks, mi, chk))
    return out


def output_changes(tree: InstanceTree, config: Config, prior: State, mode: PlanMode,
                   targeted: bool = False) -> list[OutputChange]:
    """Root output changes against the prior state's outputs. A targeted destroy plan
    changes no output (terraform's destroy graph gives root outputs no resource
    dependencies, so targeting keeps none)."""
    from engine.values import NULL_DYNAMIC

    out: list[OutputChange] = []
    if targeted and mode is PlanMode.DESTROY:
        return out
    root = ModuleInstance()
    names = set(config.module.outputs) | set(prior.outputs)
    for name in sorted(names):
        before_ov = prior.outputs.get(name)
        before = before_ov.value if before_ov is not None else NULL_DYNAMIC
        decl = config.module.outputs.get(name)
        res = tree.output(root, name) if decl is not None else None
        if mode is PlanMode.DESTROY or decl is None:
            if before_ov is not None:
                out.append(OutputChange(name, Action.DELETE, before, NULL_DYNAMIC,
                                        before_ov.sensitive))
            continue
        if res is None:
            continue
        after = res.value
        sensitive = res.sensitive or bool(after.deep_marks())
        if after.is_known and after.unmark_deep()[0].is_null:
            # as terraform: a null output is no output (deleted when there was one)
            action = Action.NOOP if before_ov is None else Action.DELETE
        elif before_ov is None:
            action = Action.CREATE
        elif after.is_wholly_known() and _same_json(after, before):
            action = Action.NOOP
        else:
            action = Action.UPDATE
        out.append(OutputChange(name, action, before, after, sensitive or bool(
            before_ov is not None and before_ov.sensitive)))
    return out


def _same_json(a: Value, b: Value) -> bool:
    """Whether two known output values are the same as terraform compares outputs: by their
    JSON (an object and a map of the same elements are equal), marks aside."""
    from engine.states.codec import encode_value

    pa, pb = a.unmark_deep()[0], b.unmark_deep()[0]
    if pa == pb:
        return True
    if not pb.is_wholly_known():
        return False
    return bool(encode_value(pa) == encode_value(pb))


def make_plan(
    config: Config,
    prior_state: StateFile | None,
    registry: ProviderRegistry,
    options: PlanOptions,
) -> PlanResult:
    """Plan `config` against `prior_state` (see the module docstring)."""
    diags = Diagnostics()
    prev_state = prior_state.state if prior_state is not None else State()
    plan = Plan(mode=options.mode, target_addrs=list(options.targets),
                force_replace_addrs=list(options.force_replace),
                timestamp=options.timestamp or _now())
    result = PlanResult(plan, prev_state, prev_state, diags)
    targets, replace = _parse_addrs(options, diags)
    cwd = options.working_dir or config.module.source_dir or os.getcwd()
    checks = ChecksState(config)
    destroying = options.mode is PlanMode.DESTROY
    root, more = root_instance(config, options.variables, cwd, plan_phase=True)
    diags.extend(more)
    if not more.has_errors:
        diags.extend(root.validate_inputs(None if destroying else
                                          checks.variable_reporter("", "")))
    plan.variables = dict(root.scope.input_values)
    if diags.has_errors:
        plan.errored = True
        return result
    from engine.plans.moves_removed import validate_removed
    from engine.plans.planner_moves import apply_moves_with_results, targeted_moves_diagnostics

    diags.extend(validate_removed(config))
    if diags.has_errors:
        plan.errored = True
        return result
    moved_state, moved, move_results = apply_moves_with_results(config, prev_state)
    excluded = targeted_moves_diagnostics(moved, targets)
    if excluded.has_errors:
        diags.append(warning("Resource targeting is in effect", TARGET_WARNING))
        diags.extend(excluded)
        plan.errored = True
        return result
    if moved and options.mode is not PlanMode.DESTROY:
        from engine.plans.moves_cross_type import unsupported_moves

        providers = {e.addr: e.provider for e in index_state(moved_state).values()}
        crossing = unsupported_moves(config, registry, moved, move_results.ranges, providers)
        if crossing.has_errors:
            diags.extend(crossing)
            plan.errored = True
            return result
    steps = plan_steps(moved_state, targets, options.mode is PlanMode.DESTROY)
    at = next((i + 1 for i, st in enumerate(steps) if isinstance(st, ReferencesStep)), 1)
    steps.insert(at, ImportReferencesStep())
    build, more = build_graph(config, steps)
    diags.extend(more)
    if more.has_errors:
        plan.errored = True
        return result
    tree = InstanceTree(config, dict(root.scope.input_values), cwd, plan_phase=True,
                        expander=expand_resource, destroying=destroying)
    result.tree = tree
    from engine.lang.functions.datetime import make_plantimestamp

    ctx = PlanContext(
        config=config, mode=options.mode, refresh=options.refresh, tree=tree,
        registry=registry, hooks=options.hooks, prior=index_state(moved_state),
        refreshed=SyncState(moved_state, share=True), force_replace=replace, targets=targets,
        moved=moved, move_ranges=dict(move_results.ranges),
        refresh_only=build.refresh_only, destroy_unrefreshed=build.destroy_unrefreshed,
        checks=checks)
    tree.checks = None if destroying else checks
    imports = ImportPlanner(ctx)
    stamp = make_plantimestamp(plan.timestamp)
    _install_timestamp(tree, stamp)
    if targets:
        diags.append(warning("Resource targeting is in effect", TARGET_WARNING))
    with contextlib.ExitStack() as stack:
        if options.parallelism > 1:
            ctx.instance_pool = stack.enter_context(ThreadPoolExecutor(
                max_workers=options.parallelism, thread_name_prefix="plan-instance"))
        res = walk(build.graph, lambda n: _run_with_stamp(ctx, build, n, stamp, imports),
                   options.parallelism, options.stop)
    ctx.instance_pool = None
    diags.extend(res.diagnostics)
    from engine.plans.moves_validate import post_plan_move_diagnostics

    move_diags = post_plan_move_diagnostics(config, ctx, move_results, diags.has_errors)
    if move_diags.has_errors:
        # invalid move statements take precedence: the plan started from a wrongly moved state
        diags.items[:] = move_diags.items
        plan.errored = True
        return result
    diags.extend(move_diags)
    if not res.interrupted:
        diags.extend(imports.missing_targets(options.generate_config))
    plan.changes = sorted(ctx.changes.values(),
                          key=lambda c: (c.addr.sort_key(), c.deposed_key or ""))
    if options.mode is not PlanMode.REFRESH_ONLY:
        from engine.plans.moves_removed import forget_warning

        diags.extend(forget_warning(plan.changes))
    imports.mark(plan.changes)
    # terraform's destroy plan walks the state its pre-destroy refresh produced, so the walk
    # itself sees no drift (and the destroy plan records none)
    plan.drift = [] if destroying else sorted(ctx.drift, key=lambda c: c.addr)
    result.prior_state = ctx.refreshed.snapshot(share=True)
    result.prior_state.check_results = None  # as terraform: a plan walk starts checks afresh
    plan.output_changes = output_changes(tree, config, prev_state, options.mode,
                                         bool(targets))
    from engine.plans.planner_relevant import relevant_attributes

    def module_output(mi: ModuleInstance, name: str) -> Value | None:
        res = tree.output(mi, name)
        return None if res is None else res.value

    result.relevant_attributes = list(relevant_attributes(
        config, plan.changes, plan.output_changes, tree.instances, module_output))
    from engine.plans.render_json_values import path_json

    plan.relevant_attributes = [(str(r), path_json(p)) for r, p in result.relevant_attributes]
    result.schemas = dict(ctx.schemas)
    if options.mode is PlanMode.REFRESH_ONLY:
        plan.changes = []
    plan.errored = diags.has_errors
    plan.checks = checks.results()
    if res.interrupted or targets:
        plan.complete = False  # as terraform: a targeted plan leaves changes out
    return result


def _install_timestamp(tree: InstanceTree, stamp: Any) -> None:
    for mi in tree.instances(ModuleInstance().module()):
        tree.scope(mi).override_function("plantimestamp", stamp)


def _run_with_stamp(ctx: PlanContext, build: Any, node: Node, stamp: Any,
                    imports: ImportPlanner) -> Diagnostics:
    if node.kind == CALL:
        diags = _run_node(ctx, build, node, imports)
        child = node.module.child(node.name)
        for mi in ctx.tree.instances(child):
            ctx.tree.scope(mi).override_function("plantimestamp", stamp)
        return diags
    return _run_node(ctx, build, node, imports)
