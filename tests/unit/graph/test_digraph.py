"""engine.graph.digraph: the graph type and its algorithms, in insertion order."""

from __future__ import annotations

import pytest

from engine.graph.digraph import (
    DiGraph,
    ancestors,
    descendants,
    is_directed_acyclic_graph,
    selfloop_edges,
    strongly_connected_components,
    transitive_reduction,
)


def test_building_reading_and_order() -> None:
    g = DiGraph([("b", "c"), ("a", "c")])
    g.add_node("d", color="red")
    g.add_node("d", size=2)
    g.add_edge("b", "a")
    assert list(g) == ["b", "c", "a", "d"] and len(g) == 4 and "a" in g and [] not in g
    assert g.nodes["d"] == {"color": "red", "size": 2}
    assert g.nodes(data=True)[-1] == ("d", {"color": "red", "size": 2})
    assert g.edges == [("b", "c"), ("b", "a"), ("a", "c")]
    assert list(g.successors("b")) == ["c", "a"] and list(g.predecessors("c")) == ["b", "a"]
    assert list(g.succ["b"]) == ["c", "a"] and list(g["b"]) == ["c", "a"]
    assert g.in_degree() == [("b", 0), ("c", 2), ("a", 1), ("d", 0)]
    assert g.has_edge("b", "a") and not g.has_edge("a", "b")
    assert g.number_of_nodes() == 4 and g.number_of_edges() == 3
    g.remove_edge("b", "a")
    g.remove_node("c")
    assert list(g) == ["b", "a", "d"] and g.edges == []


def test_copies_subgraphs_and_reversal_are_independent() -> None:
    g = DiGraph([(1, 2), (2, 3), (1, 3)])
    g.add_node(4, x=1)
    c = DiGraph(g)
    c.add_edge(3, 4)
    assert not g.has_edge(3, 4) and c.nodes[4] == {"x": 1}
    s = g.subgraph([3, 1, 4])
    assert list(s) == [1, 3, 4] and s.edges == [(1, 3)]
    r = g.reverse(copy=True)
    assert r.edges == [(2, 1), (3, 1), (3, 2)] and r.nodes[4] == {"x": 1}
    u = DiGraph()
    u.add_nodes_from([5, (6, {"y": 2})])
    u.add_edges_from([(5, 6)])
    u.update(g)
    assert list(u) == [5, 6, 1, 2, 3, 4] and u.nodes[6] == {"y": 2}
    assert g.copy().edges == g.edges


def test_reachability() -> None:
    g = DiGraph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("x", "d")])
    assert descendants(g, "a") == {"b", "c", "d"}  # never the node itself, even on a cycle
    assert ancestors(g, "d") == {"a", "b", "c", "x"}
    assert ancestors(g, "x") == set()


def test_components_self_loops_and_acyclicity() -> None:
    g = DiGraph([(1, 2), (2, 1), (2, 3), (3, 4), (4, 3), (5, 5), (6, 7)])
    comps = sorted(sorted(c) for c in strongly_connected_components(g))
    assert comps == [[1, 2], [3, 4], [5], [6], [7]]
    assert selfloop_edges(g) == [(5, 5)]
    assert not is_directed_acyclic_graph(g)
    assert not is_directed_acyclic_graph(DiGraph([(1, 1)]))
    assert is_directed_acyclic_graph(DiGraph([(1, 2), (1, 3), (2, 3)]))


def test_components_of_a_long_chain_need_no_recursion() -> None:
    n = 20000
    g = DiGraph([(i, i + 1) for i in range(n)])
    g.add_edge(n, 0)
    assert [len(c) for c in strongly_connected_components(g)] == [n + 1]


def test_transitive_reduction() -> None:
    g = DiGraph([("a", "b"), ("b", "c"), ("a", "c"), ("a", "d"), ("c", "d")])
    g.add_node("e", k=1)
    r = transitive_reduction(g)
    assert r.edges == [("a", "b"), ("b", "c"), ("c", "d")]
    assert list(r) == ["a", "b", "c", "d", "e"] and r.nodes["e"] == {"k": 1}
    with pytest.raises(ValueError):
        transitive_reduction(DiGraph([(1, 2), (2, 1)]))


def test_a_small_subgraph_of_a_large_graph_keeps_the_graphs_order() -> None:
    g = DiGraph()
    for n in range(100):
        g.add_node(n, label=f"n{n}")
    for n in range(99):
        g.add_edge(n, n + 1)
    g.add_edge(90, 5)  # edges keep their order of insertion per node
    g.add_edge(90, 3)
    s = g.subgraph([91, 3, 90, 5, 1000])  # 4 of 100 nodes (1000 is not in the graph)
    assert list(s.nodes) == [3, 5, 90, 91]
    assert s.edges == [(90, 91), (90, 5), (90, 3)]
    assert s.nodes[90] == {"label": "n90"}
    g.remove_node(3)  # the order is worked out again after a change
    g.add_node(3)
    assert list(g.subgraph([3, 5, 90]).nodes) == [5, 90, 3]
