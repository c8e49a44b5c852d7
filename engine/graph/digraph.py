"""The directed graph the engine builds and walks, and the few algorithms it needs.

`DiGraph` keeps, per node, an insertion-ordered dict of successors and one of predecessors,
plus a dict of node attributes; nodes are any hashable values. Iteration follows insertion
order everywhere (nodes, `succ[n]`, `edges`), and copies, subgraphs and reversals keep it, so
a walk or a rendering built from a graph is the same on every run. The interface is the part
of networkx's `DiGraph` the engine uses (same names and meanings); it replaced networkx,
whose import alone (≈290 modules) cost more than a small plan's whole run.

Algorithms: `ancestors`, `descendants`, `strongly_connected_components` (Tarjan, iterative),
`selfloop_edges`, `is_directed_acyclic_graph`, `transitive_reduction`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from typing import Any

__all__ = [
    "DiGraph",
    "ancestors",
    "descendants",
    "is_directed_acyclic_graph",
    "selfloop_edges",
    "strongly_connected_components",
    "transitive_reduction",
]


class NodeView:
    """`graph.nodes`: iterate, `len`, `in`, `nodes[n]` (the attribute dict), and
    `nodes(data=True)` for `(node, attributes)` pairs."""

    __slots__ = ("_attrs",)

    def __init__(self, attrs: dict[Any, dict[str, Any]]) -> None:
        self._attrs = attrs

    def __iter__(self) -> Iterator[Any]:
        return iter(self._attrs)

    def __len__(self) -> int:
        return len(self._attrs)

    def __contains__(self, n: object) -> bool:
        return n in self._attrs

    def __getitem__(self, n: Any) -> dict[str, Any]:
        return self._attrs[n]

    def __call__(self, data: bool = False) -> list[Any]:
        return list(self._attrs.items()) if data else list(self._attrs)


class DiGraph:
    """A directed graph without parallel edges (see the module docstring). `DiGraph(other)`
    copies `other`'s nodes (with their attributes) and edges; `DiGraph(edges)` adds the
    `(u, v)` pairs."""

    __slots__ = ("_attrs", "_pos", "_pred", "_succ")

    def __init__(self, incoming: DiGraph | Iterable[tuple[Any, Any]] | None = None) -> None:
        self._succ: dict[Any, dict[Any, None]] = {}
        self._pred: dict[Any, dict[Any, None]] = {}
        self._attrs: dict[Any, dict[str, Any]] = {}
        self._pos: dict[Any, int] | None = None  # node -> its place in node order, built lazily
        if isinstance(incoming, DiGraph):
            self.update(incoming)
        elif incoming is not None:
            self.add_edges_from(incoming)

    # -- building ---------------------------------------------------------------------------
    def add_node(self, n: Hashable, **attr: Any) -> None:
        """Add `n` (no-op when present); keyword arguments update its attributes."""
        if n not in self._succ:
            self._succ[n] = {}
            self._pred[n] = {}
            self._attrs[n] = dict(attr)
            self._pos = None
        elif attr:
            self._attrs[n].update(attr)

    def add_nodes_from(self, nodes: Iterable[Any]) -> None:
        """Add each node; an item `(node, dict)` also sets attributes (as `nodes(data=True)`
        gives them)."""
        for item in nodes:
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], dict):
                self.add_node(item[0], **item[1])
            else:
                self.add_node(item)

    def add_edge(self, u: Hashable, v: Hashable) -> None:
        """Add the edge `u -> v`, adding either node when missing."""
        succ = self._succ
        if u not in succ:
            self.add_node(u)
        if v not in succ:
            self.add_node(v)
        succ[u][v] = None
        self._pred[v][u] = None

    def add_edges_from(self, edges: Iterable[tuple[Any, Any]]) -> None:
        for u, v in edges:
            self.add_edge(u, v)

    def remove_node(self, n: Hashable) -> None:
        """Remove `n` and its edges; KeyError when it is not in the graph."""
        for v in self._succ.pop(n):
            del self._pred[v][n]
        for u in self._pred.pop(n):
            self._succ[u].pop(n, None)
        del self._attrs[n]
        self._pos = None

    def remove_edge(self, u: Hashable, v: Hashable) -> None:
        del self._succ[u][v]
        del self._pred[v][u]

    def update(self, other: DiGraph) -> None:
        """Add `other`'s nodes (with attributes) and edges."""
        for n, attrs in other._attrs.items():
            self.add_node(n, **attrs)
        for u, nbrs in other._succ.items():
            for v in nbrs:
                self.add_edge(u, v)

    # -- reading ----------------------------------------------------------------------------
    def __contains__(self, n: object) -> bool:
        try:
            return n in self._succ
        except TypeError:  # unhashable
            return False

    def __iter__(self) -> Iterator[Any]:
        return iter(self._succ)

    def __len__(self) -> int:
        return len(self._succ)

    def __getitem__(self, n: Any) -> dict[Any, None]:
        """The successors of `n` (a dict keyed by node)."""
        return self._succ[n]

    @property
    def nodes(self) -> NodeView:
        return NodeView(self._attrs)

    @property
    def edges(self) -> list[tuple[Any, Any]]:
        """Every edge `(u, v)`, by `u` in node order, then by `v` in insertion order."""
        return [(u, v) for u, nbrs in self._succ.items() for v in nbrs]

    @property
    def succ(self) -> dict[Any, dict[Any, None]]:
        """node -> its successors (read only: change the graph through its methods)."""
        return self._succ

    @property
    def pred(self) -> dict[Any, dict[Any, None]]:
        """node -> its predecessors (read only)."""
        return self._pred

    def has_node(self, n: object) -> bool:
        return n in self

    def has_edge(self, u: object, v: object) -> bool:
        return u in self._succ and v in self._succ[u]

    def successors(self, n: Any) -> Iterator[Any]:
        return iter(self._succ[n])

    def predecessors(self, n: Any) -> Iterator[Any]:
        return iter(self._pred[n])

    def in_degree(self) -> list[tuple[Any, int]]:
        """`(node, number of predecessors)` for every node, in node order."""
        return [(n, len(p)) for n, p in self._pred.items()]

    def out_degree(self) -> list[tuple[Any, int]]:
        return [(n, len(s)) for n, s in self._succ.items()]

    def number_of_nodes(self) -> int:
        return len(self._succ)

    def number_of_edges(self) -> int:
        return sum(len(s) for s in self._succ.values())

    # -- derived graphs ---------------------------------------------------------------------
    def copy(self) -> DiGraph:
        return DiGraph(self)

    def subgraph(self, nodes: Iterable[Any]) -> DiGraph:
        """A new graph of the given nodes (those in this graph) and the edges between them,
        in this graph's order."""
        keep = {n for n in nodes if n in self._succ}
        if 4 * len(keep) < len(self._succ):
            # a small part of a large graph (one node's ancestors): order by position
            # rather than visiting every node of this graph
            if self._pos is None:
                self._pos = {n: i for i, n in enumerate(self._attrs)}
            ordered: list[Any] = sorted(keep, key=self._pos.__getitem__)
        else:
            ordered = [n for n in self._attrs if n in keep]
        out = DiGraph()
        for n in ordered:
            out.add_node(n, **self._attrs[n])
        for u in ordered:
            for v in self._succ[u]:
                if v in keep:
                    out.add_edge(u, v)
        return out

    def reverse(self, copy: bool = True) -> DiGraph:
        """A new graph with every edge turned around (always a copy)."""
        out = DiGraph()
        for n, attrs in self._attrs.items():
            out.add_node(n, **attrs)
        for u, nbrs in self._succ.items():
            for v in nbrs:
                out.add_edge(v, u)
        return out


def _reach(adj: dict[Any, dict[Any, None]], start: Any) -> set[Any]:
    seen: set[Any] = set()
    stack = list(adj[start])
    while stack:
        n = stack.pop()
        if n not in seen:
            seen.add(n)
            stack.extend(adj[n])
    return seen


def descendants(graph: DiGraph, n: Any) -> set[Any]:
    """Every node reachable from `n` (never `n` itself, even on a cycle, as networkx)."""
    out = _reach(graph.succ, n)
    out.discard(n)
    return out


def ancestors(graph: DiGraph, n: Any) -> set[Any]:
    """Every node from which `n` is reachable (never `n` itself)."""
    out = _reach(graph.pred, n)
    out.discard(n)
    return out


def selfloop_edges(graph: DiGraph) -> list[tuple[Any, Any]]:
    """The edges `(n, n)`, in node order."""
    return [(n, n) for n, nbrs in graph.succ.items() if n in nbrs]


def strongly_connected_components(graph: DiGraph) -> Iterator[set[Any]]:
    """The strongly connected components (Tarjan's algorithm without recursion)."""
    succ = graph.succ
    index: dict[Any, int] = {}
    low: dict[Any, int] = {}
    on_stack: set[Any] = set()
    stack: list[Any] = []
    counter = 0
    for root in succ:
        if root in index:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        work: list[tuple[Any, Iterator[Any]]] = [(root, iter(succ[root]))]
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(succ[nxt])))
                    advanced = True
                    break
                if nxt in on_stack and index[nxt] < low[node]:
                    low[node] = index[nxt]
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                if low[node] < low[parent]:
                    low[parent] = low[node]
            if low[node] == index[node]:
                comp: set[Any] = set()
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    comp.add(m)
                    if m == node:
                        break
                yield comp


def is_directed_acyclic_graph(graph: DiGraph) -> bool:
    """No cycle and no self-loop (Kahn's algorithm)."""
    pending = {n: len(p) for n, p in graph.pred.items()}
    ready = [n for n, d in pending.items() if d == 0]
    seen = 0
    succ = graph.succ
    while ready:
        n = ready.pop()
        seen += 1
        for v in succ[n]:
            pending[v] -= 1
            if pending[v] == 0:
                ready.append(v)
    return seen == len(pending)


def transitive_reduction(graph: DiGraph) -> DiGraph:
    """The graph without edges implied by longer paths: an edge `u -> v` stays only when `v`
    is not reachable from another successor of `u`. Nodes keep their attributes. ValueError
    for a graph with a cycle (as networkx refuses one)."""
    if not is_directed_acyclic_graph(graph):
        raise ValueError("Directed Acyclic Graph required for transitive_reduction")
    out = DiGraph()
    out.add_nodes_from(graph.nodes(data=True))
    succ = graph.succ
    reach: dict[Any, set[Any]] = {}
    for u, nbrs in succ.items():
        implied: set[Any] = set()
        for v in nbrs:
            if v not in reach:
                reach[v] = descendants(graph, v)
            implied |= reach[v]
        for v in nbrs:
            if v not in implied:
                out.add_edge(u, v)
    return out
