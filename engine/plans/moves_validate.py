"""Validating move statements against the expanded configuration (terraform's ValidateMoves).

Runs after the plan walk, when every module and resource is expanded. For each statement and
each instance of its declaring module:

- "Redundant move statement": from and to are the same address;
- "Moved object still exists": the `from` object is still declared (instance, resource, module
  call or module instance), pointing at what declares it (its `count`/`for_each` for
  instances);
- "Ambiguous move statements": one source with two destinations, or one destination with
  two sources.

Only when none of those is found, cycles among chained statements are reported ("Cyclic
dependency in move statements", no source range).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.addrs import AbsResource, AbsResourceInstance, Module, ModuleInstance
from engine.diags import Diagnostics, error
from engine.plans.moves_endpoint import ModuleCallRel, Rel
from engine.plans.moves_statements import MoveStatement, statement_graph
from engine.source import Range


def start_string(rng: Range) -> str:
    """`file:line,column` of a range's start, as terraform's SourceRange.StartString."""
    s = rng.start
    return f"{rng.filename}:{s.line},{s.column}"


@dataclass(slots=True)
class Declared:
    """What the plan walk declared: module instances and the instance keys of resources.

    `module_instances(path)` lists the expanded instances of a static module path;
    `resource_keys(mi, resource_config)` the instance keys a resource expands to in `mi`.
    """

    config: Any
    module_instances: Callable[[Module], list[ModuleInstance]]
    resource_keys: Callable[[ModuleInstance, Any], list[int | str | None]]

    def _cfg(self, mi: ModuleInstance) -> Any:
        if mi not in self.module_instances(mi.module()):
            return None
        return self.config.descendant(mi.module().names)

    def _resource(self, r: AbsResource) -> Any:
        cfg = self._cfg(r.module)
        res = r.resource
        key = f"data.{res.type}.{res.name}" if res.mode.value == "data" else \
            f"{res.type}.{res.name}"
        return None if cfg is None else cfg.module.resource(key)

    def exists(self, addr: Rel) -> bool:
        if isinstance(addr, ModuleInstance):
            return addr in self.module_instances(addr.module())
        if isinstance(addr, ModuleCallRel):
            cfg = self._cfg(addr.module)
            return cfg is not None and addr.name in cfg.module.module_calls
        if isinstance(addr, AbsResource):
            return self._resource(addr) is not None
        res = self._resource(addr.abs_resource)
        return res is not None and addr.key in self.resource_keys(addr.module, res)

    def decl_range(self, addr: Rel) -> Range | None:
        """Where the object is declared (terraform's movableObjectDeclRange)."""
        if isinstance(addr, (ModuleInstance, ModuleCallRel)):
            if isinstance(addr, ModuleInstance):
                parent, name = ModuleInstance(addr.steps[:-1]), addr.steps[-1].name
            else:
                parent, name = addr.module, addr.name
            cfg = self.config.descendant(parent.module().names)
            call = None if cfg is None else cfg.module.module_calls.get(name)
            if call is None:
                return None
            if isinstance(addr, ModuleInstance):
                if call.for_each is not None:
                    return call.for_each.range
                if call.count is not None:
                    return call.count.range
            return call.decl_range
        res = self._resource(addr if isinstance(addr, AbsResource) else addr.abs_resource)
        if res is None:
            return None
        if isinstance(addr, AbsResourceInstance):
            if res.for_each is not None:
                return res.for_each.range
            if res.count is not None:
                return res.count.range
        return res.decl_range


_NOUNS: dict[type, tuple[str, str]] = {
    ModuleInstance: ("module instance", "instance"),
    ModuleCallRel: ("module call", "call"),
    AbsResourceInstance: ("resource instance", "instance"),
    AbsResource: ("resource", "resource"),
}


def validate_moves(stmts: list[MoveStatement], declared: Declared) -> Diagnostics:
    """See the module docstring."""
    diags = Diagnostics()
    if not stmts:
        return diags
    by_from: dict[Rel, tuple[Rel, Range]] = {}
    by_to: dict[Rel, tuple[Rel, Range]] = {}
    for stmt in stmts:
        for mi in declared.module_instances(Module(stmt.frm.module)):
            abs_from = stmt.frm.in_module_instance(mi)
            abs_to = stmt.to.in_module_instance(mi)
            if abs_from == abs_to:
                diags.append(error(
                    "Redundant move statement",
                    f"This statement declares a move from {abs_from} to the same address, "
                    "which is the same as not declaring this move at all.",
                    stmt.decl_range))
                continue
            noun, short = _NOUNS[type(abs_from)]
            if declared.exists(abs_from):
                rng = declared.decl_range(abs_from)
                at = f" at {start_string(rng)}" if rng is not None else ""
                diags.append(error(
                    "Moved object still exists",
                    f"This statement declares a move from {abs_from}, but that {noun} is "
                    f"still declared{at}.\n\nChange your configuration so that this {short} "
                    f"will be declared as {abs_to} instead.",
                    stmt.decl_range))
            seen = by_from.get(abs_from)
            if seen is None:
                by_from[abs_from] = (abs_to, stmt.decl_range)
            elif seen[0] != abs_to:
                diags.append(error(
                    "Ambiguous move statements",
                    f"A statement at {start_string(seen[1])} declared that {abs_from} moved to "
                    f"{seen[0]}, but this statement instead declares that it moved to "
                    f"{abs_to}.\n\nEach {noun} can move to only one destination {short}.",
                    stmt.decl_range))
            seen = by_to.get(abs_to)
            if seen is None:
                by_to[abs_to] = (abs_from, stmt.decl_range)
            elif seen[0] != abs_from:
                diags.append(error(
                    "Ambiguous move statements",
                    f"A statement at {start_string(seen[1])} declared that {seen[0]} moved to "
                    f"{abs_to}, but this statement instead declares that {abs_from} moved "
                    f"there.\n\nEach {noun} can have moved from only one source {short}.",
                    stmt.decl_range))
    if not diags.has_errors:
        diags.extend(cycle_diagnostics(stmts))
    return diags


def cycle_diagnostics(stmts: list[MoveStatement]) -> Diagnostics:
    """One "Cyclic dependency in move statements" error per cycle among `stmts`."""
    diags = Diagnostics()
    for group in statement_graph(stmts).cycles():
        lines = sorted(f"\n  - {start_string(stmts[i].decl_range)}: {stmts[i].frm} → "
                       f"{stmts[i].to}" for i in group)
        diags.append(error(
            "Cyclic dependency in move statements",
            "The following chained move statements form a cycle, and so there is no final "
            f"location to move objects to:{''.join(lines)}\n\nA chain of move statements must "
            "end with an address that doesn't appear in any other statements, and which "
            "typically also refers to an object still declared in the configuration."))
    return diags


def post_plan_move_diagnostics(config: Any, ctx: Any, results: Any,
                               had_errors: bool) -> Diagnostics:
    """After the plan walk: the statements' validation errors, else the blocked-moves warning
    (terraform reports blocked moves only when there are no errors)."""
    from engine.plans.planner_expand import expand_resource

    def keys(mi: ModuleInstance, res: Any) -> list[int | str | None]:
        _rep, insts, more = expand_resource(ctx.tree.scope(mi), res)
        return [] if more.has_errors else [k for k, _roots in insts]

    declared = Declared(config, ctx.module_instances, keys)
    diags = validate_moves(results.statements, declared)
    if not diags.has_errors and not had_errors:
        w = results.blocked_warning()
        if w is not None:
            diags.append(w)
    return diags


__all__ = ["Declared", "cycle_diagnostics", "post_plan_move_diagnostics", "start_string",
           "validate_moves"]
