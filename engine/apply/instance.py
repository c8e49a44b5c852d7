"""`apply_instance`: applying one planned change of one resource instance.

Any executor can call it: the local walker from its threads, a Lambda task for one node.
`dependency_results` (new values of instances this one depends on) are put into the
context's resource values first, so an executor that did not run those steps itself sees
them.

For kind "apply" (create, update, read, or the create half of a replacement): evaluate the
configuration with what is known now → preconditions → PlanResourceChange again → the final
plan must be compatible with the saved one ("Provider produced inconsistent final plan") →
record the intent → ApplyResourceChange → the result must match the plan ("Provider produced
inconsistent result after apply") → creation-time provisioners (a failure taints the new
object) → the post-apply hook ("Creation complete", after the provisioners as in terraform)
→ record the result → postconditions. A create_before_destroy replacement first
deposes the current object (the "destroy" step of that deposed object removes it later).

For kind "destroy": the pre-apply hook ("Destroying..."), destroy-time provisioners (a failure
keeps the object), then ApplyResourceChange with a null planned state, and the object leaves
the state.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from engine.addrs import AbsResourceInstance
from engine.apply.context import ApplyContext, InstanceResult
from engine.apply.graph import CBD
from engine.core.check_asserts import record_check_data
from engine.core.diag_paths import in_config_body
from engine.diags import Diagnostics, error
from engine.graph.builder_nodes import static_node
from engine.plans.model import Action, Plan
from engine.plans.objchange import assert_object_compatible
from engine.plans.planner_context import ProviderBinding
from engine.plans.planner_instance import (
    check_conditions,
    evaluate_config,
    instance_addr,
    plan_call,
)
from engine.plans.planner_lifecycle import apply_ignore_changes
from engine.plans.planner_state import encode_object, marked_paths, private_bytes
from engine.plans.refresh import _id_of
from engine.plugin.protocol import ApplyResourceChangeRequest, ReadDataSourceRequest
from engine.plugin.schema import mark_paths, mark_sensitive
from engine.values import Value, null

BUG = "\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker."


def _running(ctx: ApplyContext, addr: AbsResourceInstance, action: Action) -> Any:
    if ctx.ticker is None:
        from contextlib import nullcontext

        return nullcontext()
    return ctx.ticker.running(addr, action)


def _resource_config(ctx: ApplyContext, addr: AbsResourceInstance) -> Any:
    cfg = ctx.pctx.config.descendant(addr.module.module().names)
    if cfg is None:
        return None
    return cfg.module.resource(str(addr.resource))


def _marked(b: ProviderBinding, value: Value, config: Value | None) -> Value:
    if config is not None:
        paths = marked_paths(config)
        if paths:
            value = mark_paths(value, paths)
    return mark_sensitive(b.schema.block, value)


def apply_instance(
    ctx: ApplyContext,
    plan: Plan,
    addr: AbsResourceInstance,
    dependency_results: Mapping[AbsResourceInstance, Value] | None = None,
    kind: str = "apply",
    deposed: str = "",
) -> InstanceResult:
    """Apply the change of `addr` (see the module docstring)."""
    for dep_addr, val in (dependency_results or {}).items():
        mode = "data" if dep_addr.resource.mode.value == "data" else "managed"
        ctx.tree.values.set(dep_addr.module, mode, dep_addr.resource.type,
                            dep_addr.resource.name, dep_addr.key, val)
    if kind == "destroy":
        return _destroy(ctx, addr, deposed)
    if kind == "forget":
        return _forget(ctx, addr, deposed)
    return _apply(ctx, addr)


def _forget(ctx: ApplyContext, addr: AbsResourceInstance, deposed: str) -> InstanceResult:
    """Drop the object from state without asking its provider (`removed`, destroy = false)."""
    result = InstanceResult(addr, "forget")
    seq, more = ctx.manager.record_intent(addr, "forget", deposed)
    result.diagnostics.extend(more)
    if not more.has_errors:
        result.diagnostics.extend(ctx.record(result, addr, seq, None, deposed=deposed))
    return result


def _apply(ctx: ApplyContext, addr: AbsResourceInstance) -> InstanceResult:
    result = InstanceResult(addr, "apply")
    diags = result.diagnostics
    change = ctx.change(addr)
    res = _resource_config(ctx, addr)
    if change is None or res is None:
        diags.append(error("Missing configuration for planned change",
                           f"{addr} has a planned change but no configuration."))
        return result
    mode = "data" if res.mode == "data" else "managed"
    b, more = ctx.pctx.binding(change.provider, mode, res.type)
    diags.extend(more)
    if b is None:
        return result
    mi, key = addr.module, addr.key
    roots, more = ctx.roots(mi, res, key)
    diags.extend(more)
    if more.has_errors:
        return result
    config, more = evaluate_config(ctx.pctx, b, res, mi, roots, addr)
    diags.extend(more)
    if more.has_errors:
        return result
    diags.extend(check_conditions(ctx.pctx, res, mi, roots, res.preconditions,
                                  "Resource precondition failed", addr))
    if diags.has_errors:
        return result
    if change.action is Action.READ:
        result = _read(ctx, b, res, addr, config, roots, result)
        if res.container:  # a check block's data source: problems only warn
            result.diagnostics = record_check_data(ctx.pctx.checks, mi, res.container,
                                                   result.diagnostics, result.value)
        return result
    sync = ctx.manager.sync
    block = b.schema.block
    empty = null(block.implied_type())
    prior: Value = empty
    private = b""
    current = sync.current(addr)
    if change.action is Action.UPDATE and current is not None:
        decoded, more = ctx.pctx.decode(b, addr, current)
        diags.extend(more)
        if decoded is None:
            return result
        prior = decoded
        private = private_bytes(current)
    elif change.action is Action.CREATE_THEN_DELETE and current is not None:
        dk = ctx.new_deposed_key(addr)
        seq, more = ctx.manager.record_intent(addr, "depose", dk)
        diags.extend(more)
        if more.has_errors:
            return result
        diags.extend(ctx.record(result, addr, seq, current, provider=str(b.addr),
                                               deposed=dk))
        diags.extend(ctx.record(result, addr, seq, None))
    config = apply_ignore_changes(config, None if prior.is_null else prior, res.lifecycle)
    planned, _rr, planned_private, more = plan_call(b, addr, prior, config, private,
                                                    res.config)
    diags.extend(more)
    if more.has_errors:
        return result
    saved = change.after.unmark_deep()[0]
    for p in assert_object_compatible(block, saved, planned):
        diags.append(error(
            "Provider produced inconsistent final plan",
            f"When expanding the plan for {addr} to include new values learned so far during "
            f'apply, provider "{b.addr.provider}" produced an invalid new value for {p}.' + BUG))
    if diags.has_errors:
        return result
    action = change.action
    word = {Action.CREATE: "create", Action.UPDATE: "update"}.get(action, "create")
    seq, more = ctx.manager.record_intent(addr, word)
    diags.extend(more)
    if more.has_errors:
        return result
    ctx.hooks.pre_apply(addr, action, _id_of(prior) if not prior.is_null else None)
    start = time.monotonic()
    with _running(ctx, addr, action):
        resp = b.for_instance(addr).apply_resource_change(ApplyResourceChangeRequest(
            res.type, prior.unmark_deep()[0], planned, config.unmark_deep()[0],
            planned_private))
        diags.extend(in_config_body(resp.diagnostics, res.config, str(addr),
                                    not b.addr.provider.is_builtin))
        new = resp.new_state
        failed = resp.diagnostics.has_errors
        if not failed and not resp.legacy_type_system:  # terraform only logs these for legacy SDKs
            for p in assert_object_compatible(block, planned, new):
                diags.append(error(
                    "Provider produced inconsistent result after apply",
                    f"When applying changes to {addr}, provider \"{b.addr}\" produced an "
                    f"unexpected new value: {p}." + BUG))
        if not failed and not new.is_null and not new.is_wholly_known():
            diags.append(error(
                "Provider returned invalid result object after apply",
                f"After the apply operation, the provider still indicated an unknown value "
                f"for {addr}. All values must be known after apply, so this is always a bug "
                "in the provider and should be reported in the provider's own repository."))
            failed, new = True, empty
        new_marked = _marked(b, new, config) if not new.is_null else new
        tainted = failed and action in (Action.CREATE, Action.DELETE_THEN_CREATE,
                                        Action.CREATE_THEN_DELETE)
        if not failed and res.provisioners and action in (
            Action.CREATE, Action.DELETE_THEN_CREATE, Action.CREATE_THEN_DELETE
        ):
            more = _provision(ctx, res, addr, roots, new_marked, "create")
            diags.extend(more)
            tainted = more.has_errors
    # as terraform's PostApply hook: after the creation-time provisioners, their time included
    first_err = next((d for d in diags if d.is_error), None)
    ctx.hooks.post_apply(addr, action, _id_of(new_marked), time.monotonic() - start, first_err)
    if new.is_null:
        diags.extend(ctx.record(result, addr, seq, None if not failed else current,
                                               status="error" if failed else "ok"))
        return result
    obj = encode_object(b.schema, new_marked, resp.private,
                        ctx.dependencies.get(static_node(addr), []),
                        res.lifecycle.create_before_destroy, "tainted" if tainted else "")
    diags.extend(ctx.record(result, addr, seq, obj, status="error" if failed else "ok",
                                           provider=str(b.addr)))
    ctx.tree.values.set(mi, "managed", res.type, res.name, key, new_marked)
    result.value, result.tainted = new_marked, tainted
    if not diags.has_errors and res.postconditions:
        self_roots = dict(roots)
        self_roots["self"] = new_marked
        diags.extend(check_conditions(ctx.pctx, res, mi, self_roots, res.postconditions,
                                      "Resource postcondition failed", addr))
    return result


def _read(ctx: ApplyContext, b: ProviderBinding, res: Any, addr: AbsResourceInstance,
          config: Value, roots: dict[str, Value], result: InstanceResult) -> InstanceResult:
    diags = result.diagnostics
    ctx.hooks.pre_read_data(addr)
    start = time.monotonic()
    resp = b.for_instance(addr).read_data_source(ReadDataSourceRequest(res.type, config.unmark_deep()[0]))
    diags.extend(in_config_body(resp.diagnostics, res.config, str(addr),
                                not b.addr.provider.is_builtin))
    if resp.diagnostics.has_errors:
        return result
    state = _marked(b, resp.state, config)
    ctx.hooks.post_read_data(addr, _id_of(state), time.monotonic() - start)
    seq, more = ctx.manager.record_intent(addr, "read")
    diags.extend(more)
    diags.extend(ctx.record(result, addr, seq, encode_object(b.schema, state),
                                           provider=str(b.addr)))
    ctx.tree.values.set(addr.module, "data", res.type, res.name, addr.key, state)
    result.value = state
    return result


def _provision(ctx: ApplyContext, res: Any, addr: AbsResourceInstance,
               roots: dict[str, Value], self_value: Value, when: str) -> Diagnostics:
    """Run the `when`-time provisioners of `res` for `addr`. The module scope is prepared for
    what their arguments and connections refer to (destroy-time ones may only use `self`,
    `count.index`, `each.key`, `path.*` and `terraform.*`, which the runner enforces)."""
    from engine.provisioners.runner import connection_body, run_provisioners
    from engine.provisioners.scope import _body_exprs

    mine = [p for p in res.provisioners if p.when == when]
    bodies = [p.config for p in mine]
    bodies += [c for p in mine if (c := connection_body(p, res.connection)) is not None]
    exprs = [e for b in bodies for e in _body_exprs(b) if not _refers_to_self_only(e)]
    eval_ctx, diags = ctx.tree.scope(addr.module).eval_context(exprs, dict(roots))
    if diags.has_errors:
        return diags
    diags.extend(run_provisioners(res.provisioners, when, self_value, eval_ctx, addr,
                                  ctx.hooks, ctx.stop_event, res.connection))
    return diags


def _refers_to_self_only(expr: Any) -> bool:
    from engine.configs.exprs import variables

    travs = variables(expr)
    return bool(travs) and all(getattr(t[0], "name", "") == "self" for t in travs)


def _destroy(ctx: ApplyContext, addr: AbsResourceInstance, deposed: str) -> InstanceResult:
    result = InstanceResult(addr, "destroy")
    diags = result.diagnostics
    sync = ctx.manager.sync
    if deposed == CBD:
        dk = ctx.deposed_keys.get(addr, "")
        obj = sync.deposed(addr, dk) if dk else None
        change = ctx.change(addr)
    elif deposed:
        dk = deposed
        obj = sync.deposed(addr, dk)
        change = ctx.change(addr, deposed)
    else:
        dk = ""
        obj = sync.current(addr)
        change = ctx.change(addr)
    if obj is None or change is None:
        return result
    res = _resource_config(ctx, addr)
    if res is None:  # a `removed` block's destroy-time provisioners run as the resource's
        from engine.plans.moves_removed import removed_covers

        res = removed_covers(ctx.pctx.config, addr)
    b, more = ctx.pctx.binding(change.provider, "managed", addr.resource.type)
    diags.extend(more)
    if b is None:
        return result
    prior, more = ctx.pctx.decode(b, addr, obj)
    diags.extend(more)
    if prior is None:
        return result
    # as terraform: "Destroying..." (PreApply) comes before the destroy-time provisioners, and
    # a provisioner failure ends the operation (PostApply with the error, object kept)
    ctx.hooks.pre_apply(addr, Action.DELETE, _id_of(prior), deposed=dk or "")
    start = time.monotonic()
    with _running(ctx, addr, Action.DELETE):
        if res is not None and any(p.when == "destroy" for p in res.provisioners) and not dk \
                and obj.status != "tainted":
            more = _provision(ctx, res, addr, _destroy_roots(addr), prior, "destroy")
            diags.extend(more)
            if more.has_errors:
                ctx.hooks.post_apply(addr, Action.DELETE, _id_of(prior),
                                     time.monotonic() - start, more.errors[0], deposed=dk or "")
                return result
        seq, more = ctx.manager.record_intent(addr, "delete", dk)
        diags.extend(more)
        if more.has_errors:
            ctx.hooks.post_apply(addr, Action.DELETE, _id_of(prior), time.monotonic() - start,
                                 more.errors[0], deposed=dk or "")
            return result
        empty = null(b.schema.block.implied_type())
        resp = b.for_instance(addr).apply_resource_change(ApplyResourceChangeRequest(
            addr.resource.type, prior.unmark_deep()[0], empty, empty, private_bytes(obj)))
    diags.extend(resp.diagnostics)
    failed = resp.diagnostics.has_errors
    ctx.hooks.post_apply(addr, Action.DELETE, _id_of(prior), time.monotonic() - start,
                         next((d for d in diags if d.is_error), None), deposed=dk or "")
    if failed:
        diags.extend(ctx.record(result, addr, seq, obj, status="error",
                                               provider=str(b.addr), deposed=dk))
        return result
    diags.extend(ctx.record(result, addr, seq, None, deposed=dk))
    return result


def _destroy_roots(addr: AbsResourceInstance) -> dict[str, Value]:
    from engine.values import number, object_, string

    if isinstance(addr.key, int):
        return {"count": object_({"index": number(addr.key)})}
    if isinstance(addr.key, str):
        return {"each": object_({"key": string(addr.key)})}
    return {}


__all__ = ["InstanceResult", "apply_instance", "instance_addr"]
