"""The SDK's default planning, as terraform-plugin-framework's PlanResourceChange does it.

Given the prior state (null: create), the core's proposed new state (null: destroy) and the
configuration of one resource instance:

1. destroy plans as given (the proposed null);
2. each top-level attribute the configuration leaves null gets its declared `default`;
3. when creating, or when the result differs from the prior state, every computed attribute
   the configuration leaves null and that has no default becomes unknown;
4. on update, a `use_state_for_unknown` attribute made unknown by step 3 gets its prior value
   back (unless its configuration is unknown);
5. on update, each `requires_replace` attribute or block whose planned value differs from the
   prior one (an unknown planned value differs from any known one) forces replacement;
6. the resource's `modify_plan` hook may then change planned values or require replacement.

`plan_change` returns the planned state, the attribute paths that force replacement and the
hook's diagnostics.
"""

from __future__ import annotations

from engine.diags import Diagnostic
from engine.plugin.paths import AttributePath
from engine.plugin.sdk.fields import Attr, Blocks
from engine.plugin.sdk.native import to_value
from engine.plugin.sdk.obj import Obj
from engine.plugin.sdk.resource import Plan, Resource
from engine.values import UNKNOWN, ObjectType, Value

__all__ = ["plan_change", "same"]


def same(a: Value, b: Value) -> bool:
    """Whether two values are equal ignoring marks (unknowns equal only each other)."""
    return a.unmark_deep()[0] == b.unmark_deep()[0]


def plan_change(
    resource: Resource, prior: Value, proposed: Value, config: Value
) -> tuple[Value, list[AttributePath], list[Diagnostic]]:
    """Plan one instance (see the module docstring)."""
    if proposed.is_null:
        return proposed, [], []
    assert isinstance(proposed.v, dict) and isinstance(proposed.type, ObjectType)
    fields = resource.fields
    cfg = config.v if isinstance(config.v, dict) else {}
    planned: dict[str, Value] = dict(proposed.v)
    create = prior.is_null
    prior_v: dict[str, Value] = prior.v if isinstance(prior.v, dict) else {}

    for name, f in fields.items():
        if isinstance(f, Attr) and f.default is not None and _null(cfg.get(name)):
            planned[name] = to_value(f.default, planned[name].type, name)

    changed = create or any(not same(planned[n], prior_v[n]) for n in planned if n in prior_v)
    if changed:
        for name, f in fields.items():
            if isinstance(f, Attr) and f.computed and f.default is None and _null(cfg.get(name)):
                planned[name] = Value(planned[name].type, UNKNOWN)

    replace: list[str] = []
    if not create:
        for name, f in fields.items():
            if (
                isinstance(f, Attr)
                and f.use_state_for_unknown
                and not planned[name].is_known
                and (cfg.get(name) is None or cfg[name].is_known)
            ):
                planned[name] = prior_v[name]
        for name, f in fields.items():
            if (
                isinstance(f, (Attr, Blocks))
                and f.requires_replace
                and not same(planned[name], prior_v[name])
            ):
                replace.append(name)

    plan = Plan(
        None if create else Obj(prior), Obj(config), planned, replace
    )
    diags = list(resource.modify_plan(plan))
    result = Value(proposed.type, {n: planned[n] for n in proposed.type.attrs})
    return result, [AttributePath.of(n) for n in replace], diags


def _null(v: Value | None) -> bool:
    return v is None or v.is_null
