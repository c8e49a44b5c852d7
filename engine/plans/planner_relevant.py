"""Relevant attributes: the resource attributes a plan's changes were computed from.

As terraform's `relevant_attributes` (plan JSON): for every resource instance with a change
other than no-op, each reference its configuration makes to an attribute of another resource
(directly, through local values of the same module, or through a child module's input
variable to its call's argument) contributes (resource address,
attribute path: the static attribute and index steps after the resource), and so does each reference of a root output whose value changes. A reference with a static instance key names that instance.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.addrs import Module, ModuleInstance
from engine.addrs.keys import key_str
from engine.configs.exprs import variables as expr_traversals
from engine.configs.refs import DATA, LOCAL, MANAGED, MODULE_CALL, MODULE_OUTPUT, VAR, parse_ref
from engine.graph.steps import resource_traversals
from engine.hcl.ast import Traversal, TraverseAttr, TraverseIndex
from engine.plans.model import Action, OutputChange, ResourceInstanceChange
from engine.plugin.paths import AttributePath
from engine.values import Value


def _traversals(module: Any, exprs: list[Any], seen_locals: set[str]) -> list[Traversal]:
    return _through_locals(module, [t for e in exprs for t in expr_traversals(e)], seen_locals)


def _through_locals(module: Any, travs: Iterable[Traversal], seen_locals: set[str]
                    ) -> list[Traversal]:
    """`travs` with each reference to a local value replaced by that local's references."""
    out: list[Traversal] = []
    for trav in travs:
        ref, _ = parse_ref(trav)
        if ref is not None and ref.kind == LOCAL and ref.name in module.locals:
            if ref.name not in seen_locals:
                seen_locals.add(ref.name)
                out.extend(_traversals(module, [module.locals[ref.name].expr], seen_locals))
            continue
        out.append(trav)
    return out


def _add(found: dict[tuple[str, str], tuple[str, AttributePath]], module: ModuleInstance,
         travs: list[Traversal]) -> None:
    for trav in travs:
        ref, _ = parse_ref(trav)
        if ref is None or ref.kind not in (MANAGED, DATA):
            continue
        path = AttributePath.root()
        for step in ref.remaining:
            if isinstance(step, TraverseAttr):
                path = path.attr(step.name)
            elif isinstance(step, TraverseIndex) and path.steps:
                path = path.index(step.key)
            else:
                break
        base = f"data.{ref.type}.{ref.name}" if ref.kind == DATA else f"{ref.type}.{ref.name}"
        if ref.has_key:
            base += key_str(ref.key.v if hasattr(ref.key, "v") else ref.key)
        addr = (f"{module}." if module.steps else "") + base
        found.setdefault((addr, str(path)), (addr, path))


def _module_refs(found: dict[tuple[str, str], tuple[str, AttributePath]], cfg: Any,
                 module: ModuleInstance, travs: list[Traversal], depth: int = 0) -> None:
    """References into child modules' outputs, followed to the resources behind them (an
    instance key that is not static is left out, as terraform's analysis does)."""
    if depth > 16:
        return
    for trav in travs:
        ref, _ = parse_ref(trav)
        if ref is None or ref.kind not in (MODULE_CALL, MODULE_OUTPUT):
            continue
        child_cfg = cfg.children.get(ref.name)
        if child_cfg is None:
            continue
        key = ref.key.v if ref.has_key and hasattr(ref.key, "v") else (
            ref.key if ref.has_key else None)
        child = module.child(ref.name, key)
        names = [ref.output] if ref.kind == MODULE_OUTPUT and ref.output else [
            s.name for s in ref.remaining[:1] if isinstance(s, TraverseAttr)]
        if not names:
            names = list(child_cfg.module.outputs)
        for name in names:
            decl = child_cfg.module.outputs.get(name)
            if decl is None or decl.expr is None:
                continue
            inner = _traversals(child_cfg.module, [decl.expr], set())
            _add(found, child, inner)
            _module_refs(found, child_cfg, child, inner, depth + 1)


def _var_refs(found: dict[tuple[str, str], tuple[str, AttributePath]], cfg: Any,
              module: ModuleInstance, travs: list[Traversal], depth: int = 0) -> None:
    """References to a child module's input variables, followed to the calling module's
    argument for each (as terraform's analysis follows a variable to its module call)."""
    if depth > 16 or cfg.parent is None or cfg.call is None or not module.steps:
        return
    parent_mi = ModuleInstance(module.steps[:-1])
    for trav in travs:
        ref, _ = parse_ref(trav)
        if ref is None or ref.kind != VAR:
            continue
        attr = cfg.call.config.attributes.get(ref.name)
        if attr is None:
            continue
        outer = _traversals(cfg.parent.module, [attr.expr], set())
        _add(found, parent_mi, outer)
        _module_refs(found, cfg.parent, parent_mi, outer, depth + 1)
        _var_refs(found, cfg.parent, parent_mi, outer, depth + 1)


def relevant_attributes(
    config: Any,
    changes: list[ResourceInstanceChange],
    outputs: list[OutputChange] | None = None,
    module_instances: Callable[[Module], list[ModuleInstance]] | None = None,
    module_output: Callable[[ModuleInstance, str], Value | None] | None = None,
) -> list[tuple[str, AttributePath]]:
    """(address, attribute path) pairs, without duplicates, sorted by address. Root output
    changes other than no-op contribute their references (followed into child modules), and
    so does every output of every child module instance (`module_instances` lists them):
    terraform plans those as changes each time, except an output whose value is null (a
    no-op: null before, null after); `module_output` gives an instance's output value."""
    found: dict[tuple[str, str], tuple[str, AttributePath]] = {}
    done: set[tuple[ModuleInstance, str]] = set()
    for oc in outputs or []:
        decl = config.module.outputs.get(oc.name)
        if oc.action is Action.NOOP or decl is None or decl.expr is None:
            continue
        travs = _traversals(config.module, [decl.expr], set())
        _add(found, ModuleInstance(), travs)
        _module_refs(found, config, ModuleInstance(), travs)
    if module_instances is not None and oc_mode_normal(changes, outputs):
        for cfg in config.walk():
            if not cfg.path:
                continue
            for mi in module_instances(Module(tuple(cfg.path))):
                for decl in cfg.module.outputs.values():
                    value = None if module_output is None else module_output(mi, decl.name)
                    if value is not None and value.is_known and value.v is None:
                        continue
                    if decl.expr is not None:
                        _add(found, mi, _traversals(cfg.module, [decl.expr], set()))
    for ch in changes:
        if ch.action is Action.NOOP:
            continue
        key = (ch.addr.module, str(ch.addr.resource))
        if key in done:
            continue
        done.add(key)
        cfg = config.descendant(ch.addr.module.module().names)
        res = None if cfg is None else cfg.module.resource(str(ch.addr.resource))
        if res is None:
            continue
        travs = _through_locals(
            cfg.module, resource_traversals(res, skip=res.lifecycle.replace_triggered_by), set())
        _add(found, ch.addr.module, travs)
        _var_refs(found, cfg, ch.addr.module, travs)
    return [found[k] for k in sorted(found)]


def oc_mode_normal(changes: list[ResourceInstanceChange], outputs: list[OutputChange] | None
                   ) -> bool:
    """Whether this is not a destroy plan (every change a delete means no module outputs are
    planned)."""
    return not changes or any(c.action is not Action.DELETE for c in changes)
