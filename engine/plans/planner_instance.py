"""Planning one resource instance (terraform's NodePlannableResourceInstance).

`plan_managed(ctx, b, res, mi, key, roots, entry, prev_addr)`:
refresh → evaluate the configuration (with `count`/`each`) → preconditions → ignore_changes →
ProposedNew → PlanResourceChange → validity check → action (create, update, no-op, replace
for requires_replace / taint / `-replace` / replace_triggered_by, with
create_before_destroy choosing the order; a replacement's create is planned again from a null
prior and the configuration without ignore_changes, as terraform does) → prevent_destroy →
postconditions (with `self`).
The change is recorded in the context and the planned value is what later references see.

`plan_data(ctx, b, res, mi, key, roots)`: reads the data source now when its configuration is
wholly known and nothing it depends on explicitly has pending changes, else plans a READ.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.addrs import AbsResourceInstance, ModuleInstance, Resource, ResourceMode
from engine.checks import POSTCONDITION, PRECONDITION, in_module
from engine.core.body import decode_body
from engine.core.conditions import check_rules
from engine.core.diag_paths import in_config_body
from engine.diags import Diagnostics, Severity, error
from engine.hcl.ast import Body
from engine.plans.model import Action, ActionReason, ResourceInstanceChange
from engine.plans.objchange import assert_plan_valid, planned_data_object, proposed_new
from engine.plans.planner_context import PlanContext, ProviderBinding
from engine.plans.planner_lifecycle import (
    apply_ignore_changes,
    prevent_destroy_error,
    triggered_replace,
)
from engine.plans.planner_state import StateEntry, encode_object, marked_paths, private_bytes
from engine.plans.refresh import refresh_object
from engine.plugin.protocol import (
    PlanResourceChangeRequest,
    ReadDataSourceRequest,
    ValidateDataResourceConfigRequest,
    ValidateResourceConfigRequest,
)
from engine.plugin.schema import mark_paths, mark_sensitive
from engine.values import Value, null


def instance_addr(mi: ModuleInstance, res: Any, key: Any) -> AbsResourceInstance:
    mode = ResourceMode.DATA if res.mode == "data" else ResourceMode.MANAGED
    return AbsResourceInstance(mi, Resource(mode, res.type, res.name), key)


def evaluate_config(
    ctx: PlanContext, b: ProviderBinding, res: Any, mi: ModuleInstance, roots: dict[str, Value],
    addr: AbsResourceInstance | None = None,
) -> tuple[Value, Diagnostics]:
    """The instance's configuration object (marks kept) and the provider's validation, whose
    diagnostics are placed in the resource's body and tagged with `addr` (as terraform)."""
    scope = ctx.tree.scope(mi)
    config, diags = decode_body(res.config, b.schema.block, lambda e, r: scope.evaluate(e, r),
                                roots, subject=res.decl_range)
    if diags.has_errors:
        return config, diags
    plain, _ = config.unmark_deep()
    where = str(addr) if addr is not None else None
    plugin = not b.addr.provider.is_builtin
    if res.mode == "data":
        vresp = b.provider.validate_data_resource_config(
            ValidateDataResourceConfigRequest(res.type, plain))
        diags.extend(in_config_body(vresp.diagnostics, res.config, where, plugin))
    else:
        r = b.provider.validate_resource_config(ValidateResourceConfigRequest(res.type, plain))
        diags.extend(in_config_body(r.diagnostics, res.config, where, plugin))
    return config, diags


def check_conditions(
    ctx: PlanContext, res: Any, mi: ModuleInstance, roots: dict[str, Value], rules: list[Any],
    summary: str, addr: AbsResourceInstance | None = None,
) -> Diagnostics:
    """Evaluate `rules` (`res.preconditions` or `res.postconditions`) of one instance; with
    the instance's `addr`, their statuses are recorded in `ctx.checks`."""
    scope = ctx.tree.scope(mi)
    report = None
    if addr is not None and rules:
        rule_type = POSTCONDITION if rules is res.postconditions else PRECONDITION
        report = ctx.checks.reporter(in_module(str(mi.module()), str(addr.resource)),
                                     str(addr), rule_type)
    _statuses, diags = check_rules(rules, lambda e: scope.evaluate(e, roots), summary, report)
    return diags


def _with_config_marks(planned: Value, config: Value, b: ProviderBinding) -> Value:
    paths = marked_paths(config)
    if paths:
        planned = mark_paths(planned, paths)
    return mark_sensitive(b.schema.block, planned)


def plan_call(
    b: ProviderBinding, addr: AbsResourceInstance, prior: Value, config: Value, private: bytes,
    body: Body | None = None,
) -> tuple[Value, list[Any], bytes, Diagnostics]:
    """PlanResourceChange and the validity check of its answer. The provider's diagnostics
    are placed in `body` (the resource's configuration) and tagged with `addr`; without a body
    they are left as the provider gave them."""
    block = b.schema.block
    prior_plain = prior.unmark_deep()[0]
    config_plain = config.unmark_deep()[0]
    proposed = proposed_new(block, prior_plain, config_plain)
    resp = b.for_instance(addr).plan_resource_change(PlanResourceChangeRequest(
        addr.resource.type, prior_plain, proposed, config_plain, private))
    diags = Diagnostics(in_config_body(resp.diagnostics, body, str(addr),
                                       not b.addr.provider.is_builtin) if body is not None
                        else list(resp.diagnostics))
    if diags.has_errors:
        return proposed, [], b"", diags
    problems = assert_plan_valid(block, prior_plain, config_plain, resp.planned_state)
    if problems and not resp.legacy_type_system:
        for p in problems:
            diags.append(error(
                "Provider produced invalid plan",
                f'Provider "{b.addr.provider}" planned an invalid value for {addr}.{p}.\n\n'
                "This is a bug in the provider, which should be reported in the provider's "
                "own issue tracker."))
    return resp.planned_state, list(resp.requires_replace), resp.planned_private, diags


def _values_differ(a: Value | None, b: Value | None) -> bool:
    if a is None or b is None:
        return a is not b
    return a.unmark_deep()[0] != b.unmark_deep()[0]


def plan_managed(
    ctx: PlanContext, b: ProviderBinding, res: Any, mi: ModuleInstance, key: Any,
    roots: dict[str, Value], entry: StateEntry | None, prev_addr: AbsResourceInstance | None,
) -> Diagnostics:
    """Plan one managed resource instance (see the module docstring)."""
    addr = instance_addr(mi, res, key)
    diags = Diagnostics()
    ctx.hooks.pre_plan(addr)
    prior: Value | None = None
    tainted = False
    if entry is not None and entry.current is not None and prev_addr is not None:
        from engine.plans.moves_cross_type import moved_across

        entry, more = moved_across(ctx, b, entry, prev_addr)
        diags.extend(more)
        if more.has_errors or entry is None:
            return diags
    if entry is not None and entry.current is not None:
        _stored, prior, more = refresh_object(ctx, b, entry.addr, entry, body=res.config)
        diags.extend(more)
        if more.has_errors:
            return diags
        tainted = entry.current.status == "tainted"
    if ctx.mode.value == "refresh-only":
        if prior is not None:
            diags.extend(_refresh_only_conditions(ctx, res, mi, key, roots, prior, addr))
        return diags
    config, more = evaluate_config(ctx, b, res, mi, roots, addr)
    diags.extend(more)
    if more.has_errors:
        return diags
    diags.extend(check_conditions(ctx, res, mi, roots, res.preconditions,
                                  "Resource precondition failed", addr))
    if diags.has_errors:
        return diags
    prior_val = prior if prior is not None else null(b.schema.block.implied_type())
    computed_only = frozenset(n for n, a in b.schema.block.attributes.items()
                              if a.computed and not a.optional)
    orig_config = config
    config = apply_ignore_changes(config, prior, res.lifecycle, computed_only)
    private = private_bytes(entry.current if entry is not None else None)
    planned, req_replace, planned_private, more = plan_call(
        b, addr, prior_val, config, private, res.config)
    diags.extend(more)
    if more.has_errors:
        return diags
    reason: ActionReason | None = None
    if prior is None:
        action = Action.CREATE
    else:
        replace = False
        if tainted:
            replace, reason = True, ActionReason.REPLACE_BECAUSE_TAINTED
        elif addr in ctx.force_replace:
            replace, reason = True, ActionReason.REPLACE_BY_REQUEST
        elif triggered_replace(ctx.change, mi, res, key):
            replace, reason = True, ActionReason.REPLACE_BY_TRIGGERS
        else:
            plain_prior = prior.unmark_deep()[0]
            changed_paths = [p for p in req_replace
                             if _values_differ(p.apply(plain_prior), p.apply(planned))]
            if changed_paths:
                replace, reason = True, ActionReason.REPLACE_BECAUSE_CANNOT_UPDATE
                req_replace = changed_paths
        if replace:
            action = (Action.CREATE_THEN_DELETE if res.lifecycle.create_before_destroy
                      else Action.DELETE_THEN_CREATE)
            # as terraform: the create is planned from a null prior and the original
            # configuration, without ignore_changes (nothing is left to keep)
            config = orig_config
            planned, _rr, planned_private, more = plan_call(
                b, addr, null(b.schema.block.implied_type()), config, b"", res.config)
            diags.extend(more)
            if more.has_errors:
                return diags
        elif planned == prior.unmark_deep()[0]:
            action = Action.NOOP
        else:
            action = Action.UPDATE
    after = _with_config_marks(planned, config, b)
    if action is Action.NOOP and prior is not None:
        after = prior
    change = ResourceInstanceChange(
        addr, b.addr, action, prior_val, after, prev_run_addr=prev_addr,
        action_reason=reason,
        requires_replace=[tuple(p.steps) for p in req_replace] if action.is_replace else [],
        private=planned_private)
    if action.is_replace and res.lifecycle.prevent_destroy:
        diags.append(prevent_destroy_error(res, addr))
    ctx.add_change(change)
    ctx.tree.values.set(mi, "managed", res.type, res.name, key, after)
    ctx.hooks.post_plan(addr, action)
    if res.postconditions and not diags.has_errors:
        self_roots = dict(roots)
        self_roots["self"] = after
        diags.extend(check_conditions(ctx, res, mi, self_roots, res.postconditions,
                                      "Resource postcondition failed", addr))
    return diags


def _refresh_only_conditions(
    ctx: PlanContext, res: Any, mi: ModuleInstance, key: Any, roots: dict[str, Value],
    prior: Value, addr: AbsResourceInstance,
) -> Diagnostics:
    """As terraform in refresh-only mode: the refreshed object becomes the resource's value,
    then its preconditions and postconditions (against the refreshed object) are checked,
    their failures reported as warnings."""
    ctx.tree.values.set(mi, "managed", res.type, res.name, key, prior)
    diags = check_conditions(ctx, res, mi, roots, res.preconditions,
                             "Resource precondition failed", addr)
    self_roots = dict(roots)
    self_roots["self"] = prior
    diags.extend(check_conditions(ctx, res, mi, self_roots, res.postconditions,
                                  "Resource postcondition failed", addr))
    return Diagnostics([dataclasses.replace(d, severity=Severity.WARNING) if d.is_error else d
                        for d in diags])


def plan_data(
    ctx: PlanContext, b: ProviderBinding, res: Any, mi: ModuleInstance, key: Any,
    roots: dict[str, Value], pending: bool,
) -> Diagnostics:
    """Read or plan to read one data source instance (see the module docstring)."""
    addr = instance_addr(mi, res, key)
    config, diags = evaluate_config(ctx, b, res, mi, roots, addr)
    if diags.has_errors:
        return diags
    diags.extend(check_conditions(ctx, res, mi, roots, res.preconditions,
                                  "Resource precondition failed", addr))
    if diags.has_errors:
        return diags
    plain = config.unmark_deep()[0]
    block = b.schema.block
    if not plain.is_wholly_known() or pending:
        reason = (ActionReason.READ_BECAUSE_DEPENDENCY_PENDING if plain.is_wholly_known()
                  else ActionReason.READ_BECAUSE_CONFIG_UNKNOWN)
        if ctx.mode.value == "normal":
            after = _with_config_marks(planned_data_object(block, plain), config, b)
            ctx.add_change(ResourceInstanceChange(
                addr, b.addr, Action.READ, null(block.implied_type()), after,
                action_reason=reason))
            ctx.tree.values.set(mi, "data", res.type, res.name, key, after)
        return diags
    ctx.hooks.pre_read_data(addr)
    resp = b.for_instance(addr).read_data_source(ReadDataSourceRequest(res.type, plain))
    diags.extend(in_config_body(resp.diagnostics, res.config, str(addr),
                                not b.addr.provider.is_builtin))
    if resp.diagnostics.has_errors:
        return diags
    state = _with_config_marks(resp.state, config, b)
    ctx.hooks.post_read_data(addr, None, 0.0)
    ctx.tree.values.set(mi, "data", res.type, res.name, key, state)
    ctx.refreshed.set_current(addr, encode_object(b.schema, state), str(b.addr))
    if res.postconditions:
        self_roots = dict(roots)
        self_roots["self"] = state
        diags.extend(check_conditions(ctx, res, mi, self_roots, res.postconditions,
                                      "Resource postcondition failed", addr))
    return diags
