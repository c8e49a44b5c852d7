"""Applying move statements to the prior state before planning (terraform's ApplyMoves).

`apply_moves(config, state)` returns the state with objects renamed, a map from each new
instance address to its address in the previous run (chains summarised: `a → b → c` gives
`c: a`), and a `MoveResults` with the statements used and the moves that were blocked.

The statements are the `moved` blocks of every module (engine.plans.moves_statements) plus
implied moves for resources that gained or lost `count`. They run in dependency order
(a statement runs after those it chains from or is nested in); when the statements form a
cycle nothing moves (validation reports it). A move whose destination module instance,
resource or instance already has objects is skipped and recorded as blocked: the existing
object wins and the source stays where it was (and is planned for deletion).

Moves are only applied to the in-memory prior state; they reach the state file when the plan
is applied.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine.addrs import AbsResource, AbsResourceInstance, ModuleInstance
from engine.diags import Diagnostic, Diagnostics, error, warning
from engine.plans.moves_endpoint import (
    instance_destination,
    module_destination,
    resource_destination,
)
from engine.plans.moves_statements import (
    MoveStatement,
    find_move_statements,
    implied_move_statements,
    module_instances_of,
    statement_graph,
)
from engine.plans.planner_state import StateEntry, index_state
from engine.states.state import State
from engine.states.sync import SyncState


@dataclass(slots=True)
class MoveResults:
    """What `apply_moves` did: statements considered, renames, blocked moves (actual → wanted)."""

    statements: list[MoveStatement] = field(default_factory=list)
    changes: dict[AbsResourceInstance, AbsResourceInstance] = field(default_factory=dict)
    blocked: dict[str, str] = field(default_factory=dict)
    # the `moved` block that last moved each instance (where a diagnostic about it points)
    ranges: dict[AbsResourceInstance, Any] = field(default_factory=dict)

    def record(self, old: AbsResourceInstance, new: AbsResourceInstance,
               where: Any = None) -> None:
        if old in self.changes:
            old = self.changes.pop(old)
        self.changes[new] = old
        self.ranges.pop(old, None)
        if where is not None:
            self.ranges[new] = where

    def blocked_warning(self) -> Diagnostic | None:
        """terraform's "Unresolved resource instance address changes" warning, if any."""
        if not self.blocked:
            return None
        items = "".join(f"\n  - {a} could not move to {w}" for a, w in sorted(self.blocked.items()))
        return warning(
            "Unresolved resource instance address changes",
            "groundplan tried to adjust resource instance addresses in the prior state based on "
            "change information recorded in the configuration, but some adjustments did not "
            f"succeed due to existing objects already at the intended addresses:{items}\n\n"
            "groundplan has planned to destroy these objects. If groundplan's proposed changes "
            "aren't appropriate, you must first resolve the conflicts using the \"groundplan "
            "state\" subcommands and then create a new plan.",
        )


class _Objects:
    """The prior state's instances by address, renamed in place."""

    def __init__(self, entries: dict[AbsResourceInstance, StateEntry]) -> None:
        self.entries = entries

    def modules(self) -> list[ModuleInstance]:
        return module_instances_of(list(self.entries))

    def has_module(self, mi: ModuleInstance) -> bool:
        return any(a.module == mi for a in self.entries)

    def resources_in(self, mi: ModuleInstance) -> list[AbsResource]:
        return list(dict.fromkeys(a.abs_resource for a in self.entries if a.module == mi))

    def has_resource(self, r: AbsResource) -> bool:
        return any(a.abs_resource == r for a in self.entries)

    def rename(self, old: AbsResourceInstance, new: AbsResourceInstance) -> None:
        entry = self.entries.pop(old)
        entry.addr = new
        self.entries[new] = entry


def _apply_one(stmt: MoveStatement, objs: _Objects, results: MoveResults) -> None:
    for mi in objs.modules():
        if stmt.kind == "module":
            dest = module_destination(mi, stmt.frm, stmt.to)
            if dest is None:
                continue
            if objs.has_module(dest):
                results.blocked[str(mi)] = str(dest)
                continue
            for addr in [a for a in objs.entries if a.module == mi]:
                new = AbsResourceInstance(dest, addr.resource, addr.key)
                results.record(addr, new, stmt.decl_range)
                objs.rename(addr, new)
            continue
        if not stmt.frm.selects_module(mi):
            continue
        for res in objs.resources_in(mi):
            dest_res = resource_destination(res, stmt.frm, stmt.to)
            if dest_res is not None:
                if objs.has_resource(dest_res):
                    results.blocked[str(res)] = str(dest_res)
                    continue
                for addr in [a for a in objs.entries if a.abs_resource == res]:
                    new = dest_res.instance(addr.key)
                    results.record(addr, new, stmt.decl_range)
                    objs.rename(addr, new)
                continue
            for addr in [a for a in objs.entries if a.abs_resource == res]:
                new_inst = instance_destination(addr, stmt.frm, stmt.to)
                if new_inst is None:
                    continue
                if new_inst in objs.entries:
                    results.blocked[str(addr)] = str(new_inst)
                    continue
                results.record(addr, new_inst, stmt.decl_range)
                objs.rename(addr, new_inst)


def move_statements(config: Any, state: State) -> list[MoveStatement]:
    """The explicit statements of `config` followed by the implied ones for `state`."""
    explicit = find_move_statements(config)
    return explicit + implied_move_statements(config, list(index_state(state)), explicit)


def apply_moves(config: Any, state: State) -> tuple[State, dict[AbsResourceInstance,
                                                                AbsResourceInstance]]:
    """See the module docstring (the results are dropped; see `apply_moves_with_results`)."""
    out, moved, _results = apply_moves_with_results(config, state)
    return out, moved


def apply_moves_with_results(config: Any, state: State) -> tuple[
        State, dict[AbsResourceInstance, AbsResourceInstance], MoveResults]:
    """See the module docstring."""
    entries = index_state(state)
    explicit = find_move_statements(config)
    stmts = explicit + implied_move_statements(config, list(entries), explicit)
    results = MoveResults(stmts)
    graph = statement_graph(stmts)
    if stmts and not graph.cycles():
        objs = _Objects(entries)
        for stmt in graph.order():
            _apply_one(stmt, objs, results)
    moved = {new: old for new, old in results.changes.items() if new != old}
    if not moved:
        return state, {}, results
    sync = SyncState()
    for addr, entry in sorted(entries.items(), key=lambda kv: kv[0].sort_key()):
        if entry.current is not None:
            sync.set_current(addr, entry.current, entry.provider)
        for dk, obj in entry.deposed.items():
            sync.set_deposed(addr, dk, obj, entry.provider)
    out = sync.snapshot()
    out.outputs = dict(state.outputs)
    out.check_results = state.check_results
    return out, moved, results


def blocked_diagnostics(results: MoveResults) -> Diagnostics:
    """The blocked-moves warning as diagnostics (empty when nothing was blocked)."""
    w = results.blocked_warning()
    return Diagnostics([w] if w is not None else [])


def _target_contains(target: Any, addr: AbsResourceInstance) -> bool:
    """terraform's Targetable.TargetContains for a resource instance."""
    if isinstance(target, ModuleInstance):
        steps = addr.module.steps
        if len(steps) < len(target.steps):
            return False
        return all(t.name == o.name and (t.key is None or t.key == o.key)
                   for t, o in zip(target.steps, steps))
    if isinstance(target, AbsResource):
        return addr.abs_resource == target
    return bool(addr == target)


def targeted_moves_diagnostics(moved: dict[AbsResourceInstance, AbsResourceInstance],
                               targets: list[Any]) -> Diagnostics:
    """With `-target`, every moved object's old and new addresses must be targeted
    (terraform's "Moved resource instances excluded by targeting")."""
    diags = Diagnostics()
    if not targets:
        return diags
    excluded: list[AbsResourceInstance] = []
    for new, old in moved.items():
        for addr in (old, new):
            if not any(_target_contains(t, addr) for t in targets):
                excluded.append(addr)
    if not excluded:
        return diags
    resources = list(dict.fromkeys(a.abs_resource for a in sorted(excluded,
                                                                    key=lambda a: a.sort_key())))
    opts = "".join(f"\n  -target={json.dumps(str(r))}" for r in resources)
    diags.append(error(
        "Moved resource instances excluded by targeting",
        "Resource instances in your current state have moved to new addresses in the latest "
        "configuration. groundplan must include those resource instances while planning in "
        "order to ensure a correct result, but your -target=... options do not fully cover "
        "all of those resource instances.\n\nTo create a valid plan, either remove your "
        "-target=... options altogether or add the following additional target options:"
        f"{opts}\n\nNote that adding these options may include further additional resource "
        "instances in your plan, in order to respect object dependencies."))
    return diags


__all__ = ["MoveResults", "apply_moves", "apply_moves_with_results", "blocked_diagnostics",
           "move_statements", "targeted_moves_diagnostics"]
