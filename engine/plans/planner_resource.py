"""Planning every instance of one resource (one node of the plan graph).

`plan_resource_node(ctx, node, config_resource)` expands the resource in every instance of
its module, plans each instance (engine.plans.planner_instance), then plans the deletion of
what the state has and the configuration no longer wants (terraform's orphans), each with its
reason: no resource configuration, no module instance, a count index or each key that is gone,
or the wrong kind of repetition. Deposed objects are deleted. In destroy mode every object in
state is deleted instead (after a refresh); with `-target`, the resources the targets depend
on are only refreshed and those depending on a target are deleted without a refresh
(terraform's pre-destroy refresh is a normal targeted plan). Instances the prior state had under another
address (`moved` blocks, implied moves) carry that address as `prev_run_addr`. An orphan
a `removed` block with `destroy = false` covers is forgotten (FORGET) instead of deleted.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from engine.addrs import AbsResourceInstance, ModuleInstance
from engine.checks import in_module
from engine.core.check_asserts import record_check_data
from engine.diags import Diagnostics
from engine.graph.builder_nodes import Node, static_node
from engine.plans.model import Action, ActionReason, PlanMode, ResourceInstanceChange
from engine.plans.planner_context import PlanContext, provider_addr_for
from engine.plans.planner_expand import expand_resource
from engine.plans.planner_instance import plan_data, plan_managed
from engine.plans.planner_lifecycle import prevent_destroy_error
from engine.plans.planner_state import StateEntry
from engine.plans.refresh import refresh_object
from engine.values import null


def _state_entries(ctx: PlanContext, node: Node) -> list[StateEntry]:
    mode = "data" if node.is_data else "managed"
    name = node.name[5:] if node.is_data else node.name
    out = []
    for addr, entry in ctx.prior.items():
        r = addr.resource
        if addr.module.module() != node.module or r.mode.value != mode:
            continue
        if f"{r.type}.{r.name}" == name:
            out.append(entry)
    return out


def _pending_dependency(ctx: PlanContext, res: Any, mi: ModuleInstance) -> bool:
    """Whether a resource named in the data source's `depends_on` has planned changes."""
    from engine.configs.refs import MANAGED, parse_ref

    for trav in res.depends_on:
        ref, _ = parse_ref(trav)
        if ref is None or ref.kind != MANAGED:
            continue
        for (addr, _dk), ch in list(ctx.changes.items()):
            if addr.module == mi and addr.resource.type == ref.type and \
                    addr.resource.name == ref.name and ch.action is not Action.NOOP:
                return True
    return False


def _instance_filter(ctx: PlanContext, node: Node) -> set[AbsResourceInstance] | None:
    """The instances to plan when `-target` names only some instances of this resource
    (None: all of them)."""
    picked: set[AbsResourceInstance] = set()
    for t in ctx.targets:
        if isinstance(t, AbsResourceInstance):
            if t.module.module() == node.module and str(t.resource) == node.name:
                picked.add(t)
        elif isinstance(t, ModuleInstance):
            if node.module.names[: len(t.steps)] == t.module().names:
                return None
        elif t.module.module() == node.module and str(t.resource) == node.name:
            return None
    return picked or None


def _keep_untargeted(ctx: PlanContext, b: Any, mi: ModuleInstance, res: Any, key: Any,
                     entry: StateEntry | None) -> Diagnostics:
    """An instance `-target` leaves out: its prior value stays visible, nothing changes."""
    if entry is None or entry.current is None:
        return Diagnostics()
    val, diags = ctx.decode(b, entry.addr, entry.current)
    if val is not None:
        ctx.tree.values.set(mi, "managed", res.type, res.name, key, val)
    return diags


def plan_resource_node(ctx: PlanContext, node: Node, res: Any | None) -> Diagnostics:
    """Plan all instances of the resource `node` stands for (see the module docstring)."""
    diags = Diagnostics()
    only = _instance_filter(ctx, node)
    entries = [e for e in _state_entries(ctx, node) if only is None or e.addr in only]
    all_entries = _state_entries(ctx, node) if only is not None else entries
    wanted: dict[AbsResourceInstance, None] = {}
    used_prior: set[AbsResourceInstance] = set()
    expanded_modules: set[ModuleInstance] = set()
    pending: list[tuple[int, Future[Diagnostics]]] = []
    if res is not None and ctx.mode is not PlanMode.DESTROY:
        cfg = ctx.config.descendant(node.module.names)
        paddr = provider_addr_for(cfg, res)
        b, more = ctx.binding(paddr, res.mode, res.type)
        diags.extend(more)
        if b is None:
            return diags
        by_addr = {e.addr: e for e in all_entries}
        # an in-process provider has no latency to overlap: its instances are planned
        # inline, as threads would only add switching under the GIL
        in_process = b.addr.provider.is_builtin
        expansion_failed = False
        for mi in ctx.module_instances(node.module):
            scope = ctx.tree.scope(mi)
            rep, insts, more = expand_resource(scope, res)
            diags.extend(more)
            mode = "data" if res.mode == "data" else "managed"
            if more.has_errors:
                expansion_failed = True
                ctx.tree.values.expand(mi, mode, res.type, res.name, None)
                expanded_modules.add(mi)
                for e in entries:
                    if e.addr.module == mi:
                        used_prior.add(e.addr)
                continue
            expanded_modules.add(mi)
            ctx.tree.values.expand(mi, mode, res.type, res.name, rep)
            for key, roots in insts:
                from engine.plans.planner_instance import instance_addr

                addr = instance_addr(mi, res, key)
                wanted[addr] = None
                if res.mode == "data":
                    more = plan_data(ctx, b, res, mi, key, roots,
                                     _pending_dependency(ctx, res, mi))
                    diags.extend(record_check_data(
                        ctx.checks, mi, res.container, more,
                        ctx.tree.values.get(mi, "data", res.type, res.name, key),
                    ) if res.container else more)
                    continue
                entry = by_addr.get(addr)
                prev = ctx.moved.get(addr)
                if entry is not None:
                    used_prior.add(entry.addr)
                if only is not None and addr not in only:
                    diags.extend(_keep_untargeted(ctx, b, mi, res, key, entry))
                    continue
                if ctx.instance_pool is None or in_process:
                    diags.extend(plan_managed(ctx, b, res, mi, key, roots, entry, prev))
                else:
                    pending.append((len(diags.items), ctx.instance_pool.submit(
                        plan_managed, ctx, b, res, mi, key, roots, entry, prev)))
        if not expansion_failed:  # the checkable objects, even none (terraform's report)
            ctx.checks.report_objects(in_module(str(node.module), node.name),
                                      [str(a) for a in wanted])
        # each instance's diagnostics where the sequential loop would have put them
        results = [(pos, fut.result()) for pos, fut in pending]
        for pos, more in reversed(results):
            diags.items[pos:pos] = more.items
    if node.is_data:
        return diags
    for entry in entries:
        if entry.addr in used_prior and ctx.mode is not PlanMode.DESTROY:
            diags.extend(_plan_deposed(ctx, entry))
            continue
        diags.extend(_plan_orphan(ctx, node, res, entry, expanded_modules))
    return diags


def _forgotten(ctx: PlanContext, addr: AbsResourceInstance) -> bool:
    """Whether a `removed` block with `lifecycle { destroy = false }` covers `addr`."""
    from engine.plans.moves_removed import removed_covers

    rm = removed_covers(ctx.config, addr)
    return rm is not None and not rm.destroy


def _orphan_reason(node: Node, res: Any | None, entry: StateEntry, ctx: PlanContext,
                   expanded: set[ModuleInstance]) -> ActionReason | None:
    if ctx.mode is PlanMode.DESTROY:
        return None
    mi = entry.addr.module
    cfg = ctx.config.descendant(node.module.names)
    if cfg is None or mi not in ctx.tree.instances(node.module):
        return ActionReason.DELETE_BECAUSE_NO_MODULE
    if res is None:
        if ctx.moved.get(entry.addr) not in (None, entry.addr):
            return ActionReason.DELETE_BECAUSE_NO_MOVE_TARGET
        return ActionReason.DELETE_BECAUSE_NO_RESOURCE_CONFIG
    key = entry.addr.key
    if res.count is not None:
        return ActionReason.DELETE_BECAUSE_COUNT_INDEX if isinstance(key, int) else \
            ActionReason.DELETE_BECAUSE_WRONG_REPETITION
    if res.for_each is not None:
        return ActionReason.DELETE_BECAUSE_EACH_KEY if isinstance(key, str) else \
            ActionReason.DELETE_BECAUSE_WRONG_REPETITION
    return ActionReason.DELETE_BECAUSE_WRONG_REPETITION


def _plan_orphan(ctx: PlanContext, node: Node, res: Any | None, entry: StateEntry,
                 expanded: set[ModuleInstance]) -> Diagnostics:
    diags = Diagnostics()
    paddr = ctx.state_provider(entry)
    b, more = ctx.binding(paddr, "managed", entry.addr.resource.type)
    diags.extend(more)
    if b is None:
        return diags
    addr = entry.addr
    # an object a `removed` block forgets is not refreshed (terraform)
    forget = res is None and ctx.mode is not PlanMode.DESTROY and _forgotten(ctx, addr)
    if entry.current is not None:
        _stored, prior, more = refresh_object(
            ctx, b, addr, entry, refresh=node not in ctx.destroy_unrefreshed and not forget)
        diags.extend(more)
        if more.has_errors:
            return diags
        if ctx.mode is PlanMode.REFRESH_ONLY or node in ctx.refresh_only:
            return diags
        if prior is not None:
            ctx.hooks.pre_plan(addr)
            ctx.add_change(ResourceInstanceChange(
                addr, b.addr, Action.FORGET if forget else Action.DELETE, prior,
                null(b.schema.block.implied_type()),
                prev_run_addr=ctx.moved.get(addr),
                action_reason=ActionReason.DELETE_BECAUSE_NO_RESOURCE_CONFIG if forget
                else _orphan_reason(node, res, entry, ctx, expanded)))
            ctx.hooks.post_plan(addr, Action.DELETE)
            if res is not None and res.lifecycle.prevent_destroy and (
                ctx.mode is PlanMode.DESTROY or entry.addr.module in expanded
            ):
                diags.append(prevent_destroy_error(res, addr))
    diags.extend(_plan_deposed(ctx, entry))
    return diags


def _plan_deposed(ctx: PlanContext, entry: StateEntry) -> Diagnostics:
    diags = Diagnostics()
    if not entry.deposed or ctx.mode is PlanMode.REFRESH_ONLY or \
            static_node(entry.addr) in ctx.refresh_only:
        return diags
    b, more = ctx.binding(ctx.state_provider(entry), "managed", entry.addr.resource.type)
    diags.extend(more)
    if b is None:
        return diags
    for dk, obj in entry.deposed.items():
        val, more = ctx.decode(b, entry.addr, obj)
        diags.extend(more)
        if val is None:
            continue
        ctx.add_change(ResourceInstanceChange(
            entry.addr, b.addr, Action.DELETE, val, null(b.schema.block.implied_type()),
            deposed_key=dk))
    return diags
