"""Moves: `moved` blocks and terraform's implied moves, applied to the prior state.

`apply_moves(config, state)` returns the state with objects renamed and a map from each new
instance address to its previous one (which becomes the change's `prev_run_addr`):

- `moved { from = a.b  to = a.c }`: every instance of the resource (keys kept);
- `moved { from = a.b[0]  to = a.b["k"] }`: one instance;
- `moved { from = module.x  to = module.y }`: everything in the module (and below);
- implied moves: a resource that got `count` moves its no-key instance to `[0]`, and one that
  lost `count` moves `[0]` to no key, when the destination is free.

Statements are relative to the module that declares them (only modules without instance
keys are resolved). A move whose destination already has an object is skipped.
"""

from __future__ import annotations

from typing import Any

from engine.addrs import (
    AbsResource,
    AbsResourceInstance,
    AddressSyntaxError,
    ModuleInstance,
    ModuleInstanceStep,
    parse_target,
)
from engine.plans.planner_state import StateEntry, index_state
from engine.states.state import State
from engine.states.sync import SyncState


def _rename(entries: dict[AbsResourceInstance, StateEntry],
            moved: dict[AbsResourceInstance, AbsResourceInstance],
            old: AbsResourceInstance, new: AbsResourceInstance) -> None:
    if new in entries or old not in entries:
        return
    entry = entries.pop(old)
    entry.addr = new
    entries[new] = entry
    moved[new] = moved.pop(old, old)


def _statements(config: Any) -> list[tuple[Any, Any]]:
    out = []
    for cfg in config.walk():
        base = ModuleInstance(tuple(ModuleInstanceStep(n) for n in cfg.path))
        for m in cfg.module.moved:
            if m.from_ is not None and m.to is not None:
                out.append((base, m))
    return out


def _prefixed(base: ModuleInstance, text: str) -> str:
    return f"{base}.{text}" if base.steps else text


def apply_moves(config: Any, state: State) -> tuple[State, dict[AbsResourceInstance,
                                                                AbsResourceInstance]]:
    """See the module docstring."""
    entries = index_state(state)
    moved: dict[AbsResourceInstance, AbsResourceInstance] = {}
    for base, m in _statements(config):
        try:
            src = parse_target(_prefixed(base, m.from_.text))
            dst = parse_target(_prefixed(base, m.to.text))
        except AddressSyntaxError:
            continue
        if isinstance(src, ModuleInstance) and isinstance(dst, ModuleInstance):
            n = len(src.steps)
            for addr in [a for a in entries if a.module.steps[:n] == src.steps]:
                new_mod = ModuleInstance((*dst.steps, *addr.module.steps[n:]))
                _rename(entries, moved, addr, AbsResourceInstance(new_mod, addr.resource,
                                                                  addr.key))
        elif isinstance(src, AbsResourceInstance) and isinstance(dst, AbsResourceInstance):
            _rename(entries, moved, src, dst)
        elif isinstance(src, AbsResource) and isinstance(dst, AbsResource):
            if any(a.abs_resource == dst for a in entries):
                continue
            for addr in [a for a in entries if a.abs_resource == src]:
                _rename(entries, moved, addr, dst.instance(addr.key))
    _implied(config, entries, moved)
    if not moved:
        return state, {}
    sync = SyncState()
    for addr, entry in entries.items():
        if entry.current is not None:
            sync.set_current(addr, entry.current, entry.provider)
        for dk, obj in entry.deposed.items():
            sync.set_deposed(addr, dk, obj, entry.provider)
    out = sync.snapshot()
    out.outputs = dict(state.outputs)
    out.check_results = state.check_results
    return out, {new: old for new, old in moved.items() if new != old}


def _implied(config: Any, entries: dict[AbsResourceInstance, StateEntry],
             moved: dict[AbsResourceInstance, AbsResourceInstance]) -> None:
    for addr in list(entries):
        cfg = config.descendant(addr.module.module().names)
        res = None if cfg is None else cfg.module.resource(str(addr.resource))
        if res is None or res.mode == "data":
            continue
        if res.count is not None and addr.key is None:
            _rename(entries, moved, addr, AbsResourceInstance(addr.module, addr.resource, 0))
        elif res.count is None and res.for_each is None and addr.key == 0:
            _rename(entries, moved, addr, AbsResourceInstance(addr.module, addr.resource, None))


__all__ = ["apply_moves"]
