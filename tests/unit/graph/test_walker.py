"""The concurrent walk: ordering, the parallelism limit, skip-on-failure, stop requests."""

from __future__ import annotations

import inspect
import threading
import time

from engine.diags import Diagnostics, error, warning
from engine.graph.digraph import DiGraph
from engine.graph.signals import StopController
from engine.graph.walker import DEFAULT_PARALLELISM, walk


def ok(_node: object) -> Diagnostics:
    return Diagnostics()


def chain(n: int) -> DiGraph:
    g = DiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from((i, i + 1) for i in range(n - 1))
    return g


def test_dependencies_finish_before_dependents() -> None:
    g = DiGraph([("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")])
    order: list[str] = []
    lock = threading.Lock()

    def record(node: str) -> Diagnostics:
        time.sleep(0.01 if node == "b" else 0)
        with lock:
            order.append(node)
        return Diagnostics()

    res = walk(g, record)
    assert res.ok
    assert sorted(res.completed) == ["a", "b", "c", "d"]
    assert order[0] == "a" and order[-1] == "d"
    assert res.failed == [] and res.skipped == [] and res.not_started == []


def _max_concurrency(parallelism: int | None, width: int) -> int:
    limit = parallelism or DEFAULT_PARALLELISM
    g = DiGraph()
    g.add_nodes_from(range(width))
    current = 0
    peak = 0
    lock = threading.Lock()

    def busy(_n: int) -> Diagnostics:
        nonlocal current, peak
        with lock:
            current += 1
            peak = max(peak, current)
        # hold the slot until the limit has been reached once (or 2 s), so a slow machine
        # still shows the full parallelism
        deadline = time.monotonic() + 2
        while peak < limit and time.monotonic() < deadline:
            time.sleep(0.002)
        time.sleep(0.005)
        with lock:
            current -= 1
        return Diagnostics()

    res = walk(g, busy) if parallelism is None else walk(g, busy, parallelism=parallelism)
    assert res.ok and len(res.completed) == width
    return peak


def test_parallelism_limit_is_reached_and_never_exceeded() -> None:
    assert _max_concurrency(10, 40) == 10
    assert _max_concurrency(3, 20) == 3
    assert _max_concurrency(1, 5) == 1
    assert _max_concurrency(None, 30) == 10  # the default


def test_default_parallelism_is_ten() -> None:
    assert DEFAULT_PARALLELISM == 10
    assert inspect.signature(walk).parameters["parallelism"].default == DEFAULT_PARALLELISM


def test_dependents_of_a_failure_are_skipped_and_not_run() -> None:
    # a -> b -> c ; d (independent, fails) ; e (independent, fine); a -> f <- e
    g = DiGraph([("a", "b"), ("b", "c"), ("a", "f"), ("e", "f")])
    g.add_node("d")
    ran: list[str] = []
    lock = threading.Lock()

    def cb(node: str) -> Diagnostics:
        with lock:
            ran.append(node)
        if node in ("a", "d"):
            return Diagnostics([error(f"{node} broke")])
        return Diagnostics()

    res = walk(g, cb)
    assert sorted(ran) == ["a", "d", "e"]
    assert sorted(res.failed) == ["a", "d"]
    assert sorted(res.skipped) == ["b", "c", "f"]
    assert res.completed == ["e"]
    assert sorted(d.summary for d in res.diagnostics) == ["a broke", "d broke"]
    assert not res.ok and not res.interrupted


def test_warnings_do_not_fail_a_node() -> None:
    g = DiGraph([("a", "b")])
    res = walk(g, lambda n: Diagnostics([warning(f"w {n}")]))
    assert res.ok and res.completed == ["a", "b"]
    assert [d.summary for d in res.diagnostics] == ["w a", "w b"]


def test_exception_in_callback_becomes_a_diagnostic() -> None:
    g = DiGraph([("a", "b")])

    def boom(node: str) -> Diagnostics:
        if node == "a":
            raise RuntimeError("kaput")
        return Diagnostics()

    res = walk(g, boom)
    assert res.failed == ["a"] and res.skipped == ["b"]
    (d,) = res.diagnostics
    assert d.summary == "Internal error while processing a"
    assert "kaput" in d.detail


def test_failure_at_head_of_long_chain_skips_it_without_recursion() -> None:
    g = chain(5000)
    res = walk(g, lambda n: Diagnostics([error("x")]) if n == 0 else Diagnostics())
    assert res.failed == [0]
    assert len(res.skipped) == 4999


def test_stop_request_lets_running_finish_and_starts_nothing_new() -> None:
    g = DiGraph()
    g.add_nodes_from(range(20))
    stop = StopController(on_hard_exit=lambda: None)
    started: list[int] = []
    finished: list[int] = []
    lock = threading.Lock()

    def cb(n: int) -> Diagnostics:
        with lock:
            started.append(n)
        if n == 0:
            stop.request_stop()
        time.sleep(0.05)
        with lock:
            finished.append(n)
        return Diagnostics()

    res = walk(g, cb, parallelism=4, stop=stop)
    assert res.interrupted and not res.ok
    assert sorted(started) == sorted(finished)  # every started node finished
    assert len(started) <= 4
    assert sorted(res.completed + res.not_started) == list(range(20))
    assert res.diagnostics.errors[-1].summary == "Operation interrupted"


def test_stop_before_walk_runs_nothing() -> None:
    stop = StopController(on_hard_exit=lambda: None)
    stop.request_stop()
    res = walk(chain(3), ok, stop=stop)
    assert res.completed == [] and sorted(res.not_started) == [0, 1, 2]
    assert res.interrupted


def test_cyclic_graph_is_not_walked() -> None:
    g = DiGraph([("a", "b"), ("b", "a"), ("b", "c")])
    ran: list[str] = []

    def record(n: str) -> Diagnostics:
        ran.append(n)
        return Diagnostics()

    res = walk(g, record)
    assert ran == []
    assert [d.summary for d in res.diagnostics] == ["Cycle: a, b"]


def test_empty_graph() -> None:
    res = walk(DiGraph(), ok)
    assert res.ok and res.completed == []


def test_node_names_used_in_messages() -> None:
    g = DiGraph()
    g.add_node(1)
    res = walk(g, lambda n: 1 / 0, name=lambda n: f"node#{n}")  # type: ignore[arg-type,return-value]
    assert res.diagnostics.errors[0].summary == "Internal error while processing node#1"
    assert "ZeroDivisionError" in res.diagnostics.errors[0].detail
