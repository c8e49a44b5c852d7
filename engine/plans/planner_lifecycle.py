"""Lifecycle rules applied while planning one instance.

- `apply_ignore_changes(config, prior, lifecycle)`: the configuration with every ignored
  attribute path (or, for `ignore_changes = all`, every attribute) taken from the prior object.
- `triggered_replace(ctx, mi, res, key)`: whether a `replace_triggered_by` reference names
  an instance (or an attribute of one) that this plan changes.
- `prevent_destroy_error(res, addr)`: terraform's "Instance cannot be destroyed" error.
"""

from __future__ import annotations

from typing import Any

from engine.addrs import AbsResourceInstance, ModuleInstance, Resource, ResourceMode
from engine.configs.exprs import variables as expr_traversals
from engine.configs.refs import MANAGED, parse_ref
from engine.diags import Diagnostic, error
from engine.hcl.ast import TraverseAttr, TraverseIndex, TraverseRoot
from engine.plans.model import Action
from engine.values import Value
from engine.values.types import ObjectType


def _set_path(target: Value, source: Value, steps: list[Any]) -> Value:
    """`target` with the value at `steps` replaced by `source`'s value there."""
    if not steps:
        return source
    step = steps[0]
    if not isinstance(target.v, dict) or not isinstance(source.v, dict):
        if isinstance(target.v, list) and isinstance(source.v, list) and isinstance(
            step, TraverseIndex
        ) and isinstance(step.key.v, int):
            i = step.key.v
            if i < len(target.v) and i < len(source.v):
                items = list(target.v)
                items[i] = _set_path(items[i], source.v[i], steps[1:])
                return Value(target.type, items, target.marks)
        return target
    name = step.name if isinstance(step, (TraverseRoot, TraverseAttr)) else (
        step.key.v if isinstance(step.key.v, str) else None)
    if name is None or name not in target.v or name not in source.v:
        return target
    new = dict(target.v)
    new[name] = _set_path(target.v[name], source.v[name], steps[1:])
    t = ObjectType({k: e.type for k, e in new.items()}) if isinstance(target.type, ObjectType) \
        else target.type
    return Value(t, new, target.marks)


def apply_ignore_changes(config: Value, prior: Value | None, lifecycle: Any,
                         computed_only: frozenset[str] = frozenset()) -> Value:
    """See the module docstring. Nothing is ignored when there is no prior object."""
    if prior is None or prior.is_null or not isinstance(config.v, dict):
        return config
    if lifecycle.ignore_all_changes:
        new = {k: (prior.v[k] if k in prior.v and k not in computed_only else v)
               for k, v in config.v.items()}
        return Value(ObjectType({k: e.type for k, e in new.items()}), new, config.marks)
    for trav in lifecycle.ignore_changes:
        config = _set_path(config, prior, list(trav))
    return config


def triggered_replace(
    changes: Any, mi: ModuleInstance, res: Any, key: Any,
) -> bool:
    """Whether any `replace_triggered_by` reference of `res` changes in this plan;
    `changes(addr)` gives the planned change of an instance, or None."""
    for expr in res.lifecycle.replace_triggered_by:
        for trav in expr_traversals(expr):
            ref, _ = parse_ref(trav)
            if ref is None or ref.kind != MANAGED:
                continue
            target = Resource(ResourceMode.MANAGED, ref.type, ref.name)
            attr = next((s.name for s in ref.remaining if isinstance(s, TraverseAttr)), None)
            keys: list[Any] = [ref.key] if ref.has_key else [key, None]
            for k in keys:
                ch = changes(AbsResourceInstance(mi, target, k))
                if ch is None or ch.action is Action.NOOP:
                    continue
                if ch.action in (Action.DELETE, Action.FORGET):
                    continue
                if attr is None:
                    return True
                before = ch.before.v.get(attr) if isinstance(ch.before.v, dict) else None
                after = ch.after.v.get(attr) if isinstance(ch.after.v, dict) else None
                if before is None or after is None or not after.is_known or (
                    before.unmark_deep()[0] != after.unmark_deep()[0]
                ):
                    return True
    return False


def prevent_destroy_error(res: Any, addr: AbsResourceInstance) -> Diagnostic:
    return error(
        "Instance cannot be destroyed",
        f"Resource {addr.abs_resource} has lifecycle.prevent_destroy set, but the plan calls "
        "for this resource to be destroyed. To avoid this error and continue with the plan, "
        "either disable lifecycle.prevent_destroy or reduce the scope of the plan using the "
        "-target option.",
        res.decl_range,
    )
