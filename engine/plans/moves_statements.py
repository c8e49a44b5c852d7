"""Move statements: the `moved` blocks of every module plus terraform's implied moves.

- `find_move_statements(config)`: one statement per `moved` block, root module first then
  children (call-name order), each relative to its declaring module;
- `implied_move_statements(config, entries, explicit)`: for a resource in state whose
  configuration gained `count` (no-key instance → `[0]`) or lost both `count` and
  `for_each` (`[0]` → no key), unless an explicit statement mentions the resource;
- `statement_graph(stmts)`: which statement must run before which (chains and nesting),
  the cycles among them, and an execution order (dependencies first).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.addrs import AbsResource, AbsResourceInstance, AddressSyntaxError, ModuleInstance
from engine.hcl.ast import TraverseIndex
from engine.plans.moves_endpoint import MoveEndpoint, parse_rel, unify
from engine.source import Range


@dataclass(frozen=True, slots=True)
class MoveStatement:
    """One move: endpoints of the same kind, the block's range, whether implied."""

    frm: MoveEndpoint
    to: MoveEndpoint
    decl_range: Range
    implied: bool = False

    @property
    def kind(self) -> str:
        return self.frm.kind


def _endpoint(path: tuple[str, ...], ep: Any) -> MoveEndpoint | None:
    try:
        rel = parse_rel(ep.text, isinstance(ep.traversal[-1], TraverseIndex))
    except (AddressSyntaxError, IndexError):
        return None
    return MoveEndpoint(path, rel, ep.range)


def find_move_statements(config: Any) -> list[MoveStatement]:
    """Every well-formed `moved` block of the configuration tree."""
    out: list[MoveStatement] = []
    for cfg in config.walk():
        path = tuple(cfg.path)
        for m in cfg.module.moved:
            if m.from_ is None or m.to is None:
                continue
            frm, to = _endpoint(path, m.from_), _endpoint(path, m.to)
            if frm is None or to is None:
                continue
            pair = unify(frm, to)
            if pair is not None:
                out.append(MoveStatement(pair[0], pair[1], m.decl_range))
    return out


def implied_move_statements(config: Any, addrs: list[AbsResourceInstance],
                            explicit: list[MoveStatement]) -> list[MoveStatement]:
    """See the module docstring; `addrs` are the prior state's instances, in state order."""
    out: list[MoveStatement] = []
    present = set(addrs)
    seen: set[AbsResource] = set()
    for addr in addrs:
        res_addr = addr.abs_resource
        if res_addr in seen:
            continue
        seen.add(res_addr)
        cfg = config.descendant(addr.module.module().names)
        r = addr.resource
        key = f"data.{r.type}.{r.name}" if r.mode.value == "data" else f"{r.type}.{r.name}"
        res = None if cfg is None else cfg.module.resource(key)
        if res is None:
            continue
        if res.count is not None and res_addr.instance(None) in present:
            frm_key, to_key, rng = None, 0, res.count.range
        elif res.count is None and res.for_each is None and res_addr.instance(0) in present:
            frm_key, to_key, rng = 0, None, res.decl_range
        else:
            continue
        if any(s.frm.selects_resource(res_addr) or s.to.selects_resource(res_addr)
               for s in explicit):
            continue
        out.append(MoveStatement(MoveEndpoint((), res_addr.instance(frm_key), rng),
                                 MoveEndpoint((), res_addr.instance(to_key), rng), rng,
                                 implied=True))
    return out


def depends_on(a: MoveStatement, b: MoveStatement) -> bool:
    """Whether statement `b` must run before statement `a` (terraform's rules)."""
    if a.frm.can_chain_from(b.to):
        return True
    if not (a.frm.nested_within(b.to) or a.to.nested_within(b.to)
            or b.frm.nested_within(a.frm) or b.to.nested_within(a.frm)):
        return False
    if len(a.to.module) >= len(b.to.module):
        return True
    return not a.frm.is_module_reindex(a.to)


@dataclass(slots=True)
class StatementGraph:
    """Edges i → j: statement i depends on statement j."""

    stmts: list[MoveStatement]
    deps: dict[int, list[int]]

    def cycles(self) -> list[list[int]]:
        """Strongly connected groups of more than one statement (Tarjan)."""
        index: dict[int, int] = {}
        low: dict[int, int] = {}
        stack: list[int] = []
        on: set[int] = set()
        out: list[list[int]] = []
        counter = [0]

        def visit(v: int) -> None:
            index[v] = low[v] = counter[0]
            counter[0] += 1
            stack.append(v)
            on.add(v)
            for w in self.deps[v]:
                if w not in index:
                    visit(w)
                    low[v] = min(low[v], low[w])
                elif w in on:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1:
                    out.append(sorted(group))

        for v in range(len(self.stmts)):
            if v not in index:
                visit(v)
        return out

    def order(self) -> list[MoveStatement]:
        """Every statement after those it depends on (acyclic graphs only)."""
        done: set[int] = set()
        out: list[MoveStatement] = []

        def visit(v: int) -> None:
            if v in done:
                return
            done.add(v)
            for w in self.deps[v]:
                visit(w)
            out.append(self.stmts[v])

        for v in range(len(self.stmts)):
            visit(v)
        return out


def statement_graph(stmts: list[MoveStatement]) -> StatementGraph:
    deps = {i: [j for j in range(len(stmts)) if i != j and depends_on(stmts[i], stmts[j])]
            for i in range(len(stmts))}
    return StatementGraph(stmts, deps)


def module_instances_of(addrs: list[AbsResourceInstance]) -> list[ModuleInstance]:
    """The distinct module instances holding objects, in first-seen order."""
    return list(dict.fromkeys(a.module for a in addrs))


__all__ = [
    "MoveStatement",
    "StatementGraph",
    "depends_on",
    "find_move_statements",
    "implied_move_statements",
    "module_instances_of",
    "statement_graph",
]
