"""Refreshing one resource instance object: ReadResource, drift and the refreshed state.

`refresh_object(ctx, binding, addr, entry)` decodes the stored current object, asks the
provider for the object as it is now and returns (prior value, refreshed value). When the
provider reports something different from the stored object, the difference is recorded as
drift (an UPDATE, or a DELETE when the object is gone) and the refreshed working state gets
the new object; an unchanged object keeps its stored form untouched (no re-encoding).
With refresh disabled (or `refresh=False`), and for an object an `import` block has just read,
the stored object is returned as both values.
"""

from __future__ import annotations

from engine.addrs import AbsResourceInstance
from engine.core.diag_paths import in_config_body
from engine.diags import Diagnostics
from engine.hcl.ast import Body
from engine.plans.model import Action, ResourceInstanceChange
from engine.plans.planner_context import PlanContext, ProviderBinding
from engine.plans.planner_state import StateEntry, encode_object, private_bytes
from engine.plugin.protocol import ReadResourceRequest
from engine.plugin.schema import mark_sensitive
from engine.values import Value


def _id_of(v: Value | None) -> str | None:
    if v is None or not isinstance(v.v, dict):
        return None
    idv = v.v.get("id")
    if idv is None:
        return None
    plain, _ = idv.unmark()
    return plain.v if isinstance(plain.v, str) else None


def refresh_object(
    ctx: PlanContext, b: ProviderBinding, addr: AbsResourceInstance, entry: StateEntry,
    refresh: bool = True, body: Body | None = None,
) -> tuple[Value | None, Value | None, Diagnostics]:
    """(stored value, current value) of the current object of `entry` (None: no object).
    ReadResource's diagnostics are placed in `body` (the resource's configuration, when it
    has one) and tagged with `addr`, as terraform does; without a body they stay as given."""
    diags = Diagnostics()
    obj = entry.current
    if obj is None:
        return None, None, diags
    prior, more = ctx.decode(b, addr, obj)
    diags.extend(more)
    if prior is None:
        return None, None, diags
    if not ctx.refresh or not refresh or entry.imported:
        return prior, prior, diags
    ctx.hooks.pre_refresh(addr, _id_of(prior))
    plain, _ = prior.unmark_deep()
    resp = b.for_instance(addr).read_resource(ReadResourceRequest(
        addr.resource.type, plain, private_bytes(obj)))
    diags.extend(in_config_body(resp.diagnostics, body, str(addr),
                                not b.addr.provider.is_builtin) if body is not None
                 else resp.diagnostics)
    if resp.diagnostics.has_errors:
        return prior, None, diags
    ctx.hooks.post_refresh(addr, _id_of(prior))
    new = resp.new_state
    if new.is_null:
        ctx.add_drift(ResourceInstanceChange(addr, b.addr, Action.DELETE, prior, new))
        ctx.refreshed.remove_current(addr)
        return prior, None, diags
    if new == plain:
        return prior, prior, diags
    marked = mark_sensitive(b.schema.block, new)
    ctx.add_drift(ResourceInstanceChange(addr, b.addr, Action.UPDATE, prior, marked))
    ctx.refreshed.set_current(addr, encode_object(
        b.schema, marked, resp.private, obj.dependencies, obj.create_before_destroy,
        obj.status), entry.provider)
    return prior, marked, diags
