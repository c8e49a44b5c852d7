"""Cycle detection and graph helpers."""

from __future__ import annotations

from engine.graph.dag import (
    check_acyclic,
    dependents_closure,
    find_cycles,
    prune_to_targets,
    reverse_for_destroy,
    self_references,
    transitive_reduction,
)
from engine.graph.digraph import DiGraph


def test_every_member_of_every_cycle_is_named() -> None:
    g = DiGraph(
        [
            ("terraform_data.b", "terraform_data.a"),
            ("terraform_data.a", "terraform_data.b"),
            ("local.x", "local.y"),
            ("local.y", "local.z"),
            ("local.z", "local.x"),
            ("local.z", "output.o"),
        ]
    )
    diags = check_acyclic(g)
    assert [d.summary for d in diags] == [
        "Cycle: local.x, local.y, local.z",
        "Cycle: terraform_data.a, terraform_data.b",
    ]
    assert all(d.is_error and d.detail == "" for d in diags)


def test_self_reference_reported_separately() -> None:
    g = DiGraph([("a", "a"), ("a", "b")])
    assert find_cycles(g) == []
    assert self_references(g) == ["a"]
    assert [d.summary for d in check_acyclic(g)] == ["Self reference: a"]


def test_acyclic_graph_has_no_diagnostics() -> None:
    g = DiGraph([("a", "b"), ("b", "c"), ("a", "c")])
    assert not check_acyclic(g)


def test_custom_names() -> None:
    g = DiGraph([(1, 2), (2, 1)])
    assert [d.summary for d in check_acyclic(g, name=lambda n: f"n{n}")] == ["Cycle: n1, n2"]


def test_transitive_reduction_keeps_nodes_and_attributes() -> None:
    g = DiGraph([("a", "b"), ("b", "c"), ("a", "c")])
    g.add_node("lonely", kind="x")
    g.nodes["a"]["kind"] = "root"
    r = transitive_reduction(g)
    assert set(r.edges) == {("a", "b"), ("b", "c")}
    assert r.nodes["a"]["kind"] == "root" and r.nodes["lonely"]["kind"] == "x"


def test_prune_to_targets_keeps_targets_and_their_dependencies() -> None:
    g = DiGraph([("vpc", "subnet"), ("subnet", "vm"), ("vpc", "sg"), ("other", "x")])
    p = prune_to_targets(g, ["subnet", "missing"])
    assert set(p.nodes) == {"vpc", "subnet"}
    assert set(p.edges) == {("vpc", "subnet")}
    assert set(prune_to_targets(g, ["vm", "x"]).nodes) == {"vpc", "subnet", "vm", "other", "x"}


def test_dependents_closure() -> None:
    g = DiGraph([("a", "b"), ("b", "c"), ("d", "c")])
    assert dependents_closure(g, ["b"]) == {"b", "c"}
    assert dependents_closure(g, ["a", "d"]) == {"a", "b", "c", "d"}


def test_reverse_for_destroy() -> None:
    g = DiGraph([("vpc", "subnet")])
    r = reverse_for_destroy(g)
    assert list(r.edges) == [("subnet", "vpc")]
    assert list(g.edges) == [("vpc", "subnet")]  # original untouched
