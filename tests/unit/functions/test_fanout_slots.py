"""The apply fan-out's slots and queue (functions.common.fanout) on moto's DynamoDB: node
tasks run by a pool of threads standing in for Lambda's asynchronous invocations (claim,
then finish, as the apply-node function does), so several finish at once.

What a user of the control plane relies on: never more nodes applying than the apply's
parallelism, every node settled once, the nodes on the longest chains started first when
slots are short, and nothing left counted or queued when the apply ends."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import pytest
from moto import mock_aws

from functions.common import fanout
from functions.common.models import Node


@dataclass
class Tasks:
    """Lambda's side: each invoked node key becomes a task on a thread pool."""

    run_id: str
    fail: set[str] = field(default_factory=set)  # node ids whose apply fails
    before_finish: Any = None  # called with the node id before its finish
    pool: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(12))
    started: list[str] = field(default_factory=list)  # node ids, in claim order
    active: int = 0  # nodes invoked whose finish has not begun
    peak: int = 0
    outstanding: int = 0
    answered: list[str] = field(default_factory=list)
    errors: list[BaseException] = field(default_factory=list)
    cond: threading.Condition = field(default_factory=threading.Condition)
    rnd: random.Random = field(default_factory=lambda: random.Random(5))

    def invoke(self, run_id: str, keys: list[str]) -> None:
        with self.cond:  # counted when invoked: no timing decides the peak
            self.outstanding += len(keys)
            self.active += len(keys)
            self.peak = max(self.peak, self.active)
        for k in keys:
            self.pool.submit(self._task, run_id, k)

    def _task(self, run_id: str, k: str) -> None:
        try:
            node, claimed = fanout.claim(run_id, int(k))
            assert claimed, f"node {node.node_id} started twice"
            with self.cond:
                self.started.append(node.node_id)
                pause = self.rnd.uniform(0, 0.004)
            time.sleep(pause)  # lets other tasks interleave; no assertion depends on it
            with self.cond:
                self.active -= 1
            if self.before_finish is not None:
                self.before_finish(node.node_id)
            failed = node.node_id in self.fail
            fanout.finish(node, "failed" if failed else "applied", "boom" if failed else None)
        except BaseException as exc:  # reported by wait()
            with self.cond:
                self.errors.append(exc)
        finally:
            with self.cond:
                self.outstanding -= 1
                self.cond.notify_all()

    def wait(self) -> None:
        with self.cond:
            assert self.cond.wait_for(lambda: self.outstanding == 0, timeout=120)
        self.pool.shutdown()
        if self.errors:
            raise self.errors[0]


@pytest.fixture()
def tables(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    from functions.common.models import MODELS, bind_models
    from functions.common.settings import reset_settings
    from functions.local import moto_speedups

    moto_speedups.install()  # DynamoDB's atomic item updates under concurrent requests
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    with mock_aws():
        bind_models()
        for model in MODELS:
            model.create_table(billing_mode="PAY_PER_REQUEST", wait=True)
        yield
    reset_settings()


def run_fanout(monkeypatch: pytest.MonkeyPatch, graph: dict[str, list[str]],
               parallelism: int, **task_options: Any) -> Tasks:
    from functions.common.settings import reset_settings

    executions = {1: 1, 3: 4}[parallelism]  # the function's, some kept free
    monkeypatch.setenv("GROUNDPLAN_APPLY_EXECUTIONS", str(executions))
    reset_settings()
    from functions.common.settings import settings

    assert settings().apply_parallelism == parallelism
    tasks = Tasks("run-1", **task_options)
    monkeypatch.setattr(fanout, "invoke_nodes", tasks.invoke)
    monkeypatch.setattr(fanout, "_answer",
                        lambda control: tasks.answered.append(str(control.token)))
    fanout.prepare("run-1", graph, parallelism)
    fanout.start("run-1", "the-token")
    tasks.wait()
    return tasks


def statuses(run_id: str) -> dict[str, str]:
    return {n.node_id: str(n.status) for n in fanout.all_nodes(run_id)}


def leftovers(run_id: str) -> tuple[int, int, list[str], int]:
    """(slots held, queue count, queue items, roots not started) of the control item."""
    control = fanout.get(run_id, fanout.CONTROL)
    queue = [n.address for n in Node.query(fanout.queue_of(run_id))]
    return (int(control.running or 0), int(control.queued or 0), queue,
            int(control.roots or 0) - int(control.next_root or 0))


def test_short_of_slots_the_longest_chain_goes_first(tables: None,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # s-t, then two chains u-u2-u3 and v-v2-v3 after t; three roots r0-r2 with nothing after
    graph = {"s": [], "t": ["s"], "u": ["t"], "u2": ["u"], "u3": ["u2"],
             "v": ["t"], "v2": ["v"], "v3": ["v2"], "r0": [], "r1": [], "r2": []}
    tasks = run_fanout(monkeypatch, graph, parallelism=1)
    # t readies u and v: u takes t's slot, v waits in the queue with the roots queued at
    # the start and goes before them (first come, first served, or a queue by level, would
    # run the roots before v and end a chain of three later)
    assert tasks.started == ["s", "t", "u", "u2", "u3", "v", "v2", "v3", "r0", "r1", "r2"]
    assert tasks.peak == 1
    assert tasks.answered == ["the-token"]
    assert set(statuses("run-1").values()) == {"applied"}
    assert leftovers("run-1") == (0, 0, [], 0)


def test_nodes_readied_at_once_wait_for_free_slots(tables: None,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    graph = {"hub": [], **{f"d{i}": ["hub"] for i in range(10)}}
    tasks = run_fanout(monkeypatch, graph, parallelism=3)
    assert tasks.peak == 3
    assert set(statuses("run-1").values()) == {"applied"}
    assert tasks.answered == ["the-token"]
    assert leftovers("run-1") == (0, 0, [], 0)


def test_a_random_graph_never_exceeds_its_parallelism_and_settles_every_node(
        tables: None, monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(11)
    graph: dict[str, list[str]] = {}
    for i in range(80):
        earlier = list(graph)[-20:]
        direct = rnd.sample(earlier, min(len(earlier), rnd.randint(0, 3)))
        # the engine lists every node waited for, directly or not
        graph[f"n{i}"] = sorted(set(direct) | {d for x in direct for d in graph[x]})
    fail = {"n7", "n40"}
    tasks = run_fanout(monkeypatch, graph, parallelism=3, fail=fail)
    assert tasks.peak <= 3
    skipped = {n for n, deps in graph.items() if set(deps) & fail}
    assert statuses("run-1") == {n: ("failed" if n in fail else "skipped" if n in skipped
                                     else "applied") for n in graph}
    assert sorted(tasks.started) == sorted(set(graph) - skipped), "each runnable node once"
    assert tasks.answered == ["the-token"]
    assert leftovers("run-1") == (0, 0, [], 0)


def test_a_stopped_fanout_starts_no_further_node(tables: None,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    graph = {"a": [], "b": ["a"], "c": ["b"], "x": [], "y": []}

    def stop_after_a(node_id: str) -> None:
        if node_id == "a":
            fanout.stop("run-1")

    tasks = run_fanout(monkeypatch, graph, parallelism=1, before_finish=stop_after_a)
    assert tasks.started == ["a"]
    assert statuses("run-1") == {"a": "applied", "b": "pending", "c": "pending",
                                 "x": "pending", "y": "pending"}
    assert tasks.answered == []  # the state machine's apply step ends by its stop


@pytest.mark.parametrize(("executions", "parallelism"),
                         [(1, 1), (2, 1), (4, 3), (19, 18), (40, 38), (100, 95)])
def test_an_apply_keeps_a_twentieth_of_the_functions_executions_free(
        monkeypatch: pytest.MonkeyPatch, executions: int, parallelism: int) -> None:
    from functions.common.settings import Settings

    monkeypatch.setenv("GROUNDPLAN_APPLY_EXECUTIONS", str(executions))
    assert Settings.from_env().apply_parallelism == parallelism
