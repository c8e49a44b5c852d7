"""The walk stays fast on 10,000 trivial nodes, as a chain and as a wide fan."""

from __future__ import annotations

import time

import networkx as nx

from engine.diags import Diagnostics
from engine.graph.walker import walk


def _ok(_n: object) -> Diagnostics:
    return Diagnostics()


def _timed(g: nx.DiGraph) -> float:
    t = time.perf_counter()
    res = walk(g, _ok)
    elapsed = time.perf_counter() - t
    assert res.ok and len(res.completed) == g.number_of_nodes()
    return elapsed


def test_chain_of_10000() -> None:
    g = nx.DiGraph()
    g.add_edges_from((i, i + 1) for i in range(9999))
    assert _timed(g) < 10.0  # measured ~0.35 s


def test_fan_of_10000() -> None:
    g = nx.DiGraph()
    g.add_edges_from(("root", i) for i in range(10000))
    g.add_edges_from((i, "sink") for i in range(10000))
    assert _timed(g) < 10.0  # measured ~0.2 s
