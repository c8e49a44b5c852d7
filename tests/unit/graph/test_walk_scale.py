"""The walk handles 10,000 nodes, as a chain and as a wide fan, in dependency order.

Speed is measured in benchmarks/ (plan_apply.py walks graphs of this size), never asserted
here: these tests check that nothing is lost, doubled or run before its dependencies at scale.
"""

from __future__ import annotations

import threading

from engine.diags import Diagnostics
from engine.graph.digraph import DiGraph
from engine.graph.walker import walk


def _walk_in_order(g: DiGraph) -> list[object]:
    order: list[object] = []
    lock = threading.Lock()

    def record(n: object) -> Diagnostics:
        with lock:
            order.append(n)
        return Diagnostics()

    res = walk(g, record)
    assert res.ok and len(res.completed) == g.number_of_nodes()
    return order


def test_chain_of_10000_runs_each_node_once_in_order() -> None:
    g = DiGraph()
    g.add_edges_from((i, i + 1) for i in range(9999))
    assert _walk_in_order(g) == list(range(10000))


def test_fan_of_10000_runs_the_root_first_and_the_sink_last() -> None:
    g = DiGraph()
    g.add_edges_from(("root", i) for i in range(10000))
    g.add_edges_from((i, "sink") for i in range(10000))
    order = _walk_in_order(g)
    assert order[0] == "root" and order[-1] == "sink"
    assert sorted(order[1:-1]) == list(range(10000))  # type: ignore[type-var]
