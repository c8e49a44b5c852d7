"""The apply graph: the plan graph's configuration nodes plus one node per change.

`build_apply_graph(static, changes, state_deps)` takes the static plan graph (configuration
objects and their references, engine.graph.steps) and the plan's changes and gives a graph
whose nodes are the static nodes plus `Op` nodes:

- `Op("apply", addr)` for a create, update, read, or the create half of a replacement: it runs
  after everything the resource's configuration refers to, and the resource's static node
  (a barrier) waits for all of its instances, so dependents see the new values;
- `Op("forget", addr)` for an object a `removed` block lets go of (no provider call);
- `Op("destroy", addr, deposed)` for a delete (`deposed` "" is the current object; for
  create_before_destroy replacements it is `CBD`, the object the apply node deposes). Destroys
  run in reverse dependency order: a resource's destroys wait for the destroys of everything
  that depends on it (`Done("destroyed", resource)` barriers), a delete-then-create
  replacement destroys before it creates, a dependency is only updated after its dependents'
  destroys, and a create_before_destroy's deposed object is destroyed after its dependents
  were applied.

Edges are linear in the number of instances (barriers instead of instance-to-instance edges).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.addrs import AbsResourceInstance
from engine.graph.builder_nodes import Node, resource_dependencies, static_node
from engine.graph.digraph import DiGraph
from engine.plans.model import Action, ResourceInstanceChange

CBD = "cbd"


@dataclass(frozen=True, slots=True)
class Op:
    """One provider operation on one instance (or one deposed object of it)."""

    kind: str  # "apply" | "destroy" | "forget"
    addr: AbsResourceInstance
    deposed: str = ""

    def __str__(self) -> str:
        suffix = f" (deposed {self.deposed})" if self.deposed else ""
        return f"{self.addr}{' (destroy)' if self.kind == 'destroy' else ''}{suffix}"


@dataclass(frozen=True, slots=True)
class Done:
    """Barrier: every `kind` op ("destroyed") of a resource has finished."""

    kind: str
    resource: Node

    def __str__(self) -> str:
        return f"{self.resource} ({self.kind})"


def build_apply_graph(
    static: DiGraph,
    changes: Iterable[ResourceInstanceChange],
    state_deps: Mapping[Node, set[Node]] | None = None,
) -> DiGraph:
    """See the module docstring. `state_deps` adds dependencies recorded in state (for
    resources the configuration no longer has)."""
    g = DiGraph(static)
    deps = resource_dependencies(static)
    for n, more in (state_deps or {}).items():
        deps.setdefault(n, set()).update(more)
        g.add_node(n)
    dependents: dict[Node, set[Node]] = {}
    for n, ds in deps.items():
        for d in ds:
            dependents.setdefault(d, set()).add(n)
    destroyed: set[Node] = set()
    cbd: list[tuple[Node, Op]] = []
    for ch in changes:
        res = static_node(ch.addr)
        if res not in g:
            g.add_node(res)
        a = ch.action
        if a is Action.NOOP:
            continue
        if a is Action.FORGET:
            g.add_node(Op("forget", ch.addr, ch.deposed_key or ""))
            continue
        if a in (Action.CREATE, Action.UPDATE, Action.READ) or a.is_replace:
            op = Op("apply", ch.addr)
            for pred in list(static.predecessors(res)) if res in static else []:
                g.add_edge(pred, op)
            g.add_edge(op, res)
        if a is Action.DELETE or a is Action.DELETE_THEN_CREATE:
            dop = Op("destroy", ch.addr, ch.deposed_key or "")
            done = Done("destroyed", res)
            g.add_edge(dop, done)
            destroyed.add(res)
            if a is Action.DELETE_THEN_CREATE:
                g.add_edge(dop, Op("apply", ch.addr))
        if a is Action.CREATE_THEN_DELETE:
            dop = Op("destroy", ch.addr, CBD)
            g.add_edge(Op("apply", ch.addr), dop)
            g.add_edge(dop, Done("destroyed", res))
            destroyed.add(res)
            cbd.append((res, dop))
    ops_by_res: dict[Node, list[Op]] = {}
    for o in g.nodes:
        if isinstance(o, Op):
            ops_by_res.setdefault(static_node(o.addr), []).append(o)
    for res in destroyed:
        done = Done("destroyed", res)
        for dep in deps.get(res, ()):
            # what `res` depends on is destroyed after it, and updated only after it is gone
            for op in ops_by_res.get(dep, []):
                if op.kind == "destroy" or (op.kind == "apply" and not _is_cbd_of(op, cbd)):
                    g.add_edge(done, op)
    for res, dop in cbd:
        for dependent in dependents.get(res, ()):
            if dependent in g:
                g.add_edge(dependent, dop)
    return g


def _is_cbd_of(op: Op, cbd: list[tuple[Node, Op]]) -> bool:
    return any(d.addr == op.addr for _r, d in cbd)
