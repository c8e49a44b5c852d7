"""Checks and transformations on dependency graphs (engine.graph.digraph).

Convention used throughout engine.graph: an edge `u -> v` means `u` must be finished before
`v` starts (`v` depends on `u`), so a topological order is an execution order. Node names in
messages come from a `name` function (default `str`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

from engine.diags import Diagnostics, error
from engine.graph import digraph
from engine.graph.digraph import (
    DiGraph,
    ancestors,
    descendants,
    selfloop_edges,
    strongly_connected_components,
)

Name = Callable[[Any], str]


def find_cycles(graph: DiGraph, name: Name = str) -> list[list[Any]]:
    """Every group of nodes that depend on each other (strongly connected components with
    more than one member), each group's members sorted by name, groups sorted by their
    first member's name. Self-loops are not included (see `self_references`)."""
    groups = [sorted(c, key=name) for c in strongly_connected_components(graph) if len(c) > 1]
    return sorted(groups, key=lambda g: name(g[0]))


def self_references(graph: DiGraph, name: Name = str) -> list[Any]:
    """Nodes with an edge to themselves, sorted by name."""
    return sorted((u for u, v in selfloop_edges(graph)), key=name)


def check_acyclic(graph: DiGraph, name: Name = str) -> Diagnostics:
    """Errors worded as Terraform's graph validation: one `Cycle: a, b, c` per cycle naming
    every member, and one `Self reference: a` per node that depends on itself."""
    diags = Diagnostics()
    for cycle in find_cycles(graph, name):
        diags.append(error("Cycle: " + ", ".join(name(n) for n in cycle)))
    for node in self_references(graph, name):
        diags.append(error(f"Self reference: {name(node)}"))
    return diags


def transitive_reduction(graph: DiGraph) -> DiGraph:
    """The graph without edges implied by longer paths (same nodes and node attributes).
    The graph must be acyclic."""
    return digraph.transitive_reduction(graph)


def prune_to_targets(graph: DiGraph, targets: Iterable[Hashable]) -> DiGraph:
    """The subgraph of `targets` and everything they depend on, directly or not (what
    `-target` keeps). Targets not in the graph are ignored."""
    keep: set[Any] = set()
    for t in targets:
        if t in graph and t not in keep:
            keep.add(t)
            keep |= ancestors(graph, t)
    return graph.subgraph(keep).copy()


def dependents_closure(graph: DiGraph, nodes: Iterable[Hashable]) -> set[Any]:
    """`nodes` and everything that depends on them, directly or not."""
    out: set[Any] = set()
    for n in nodes:
        if n in graph and n not in out:
            out.add(n)
            out |= descendants(graph, n)
    return out


def reverse_for_destroy(graph: DiGraph) -> DiGraph:
    """A copy with every edge turned around: dependents are destroyed before what they
    depend on."""
    return graph.reverse(copy=True)
