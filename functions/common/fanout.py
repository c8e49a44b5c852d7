"""The apply fan-out's bookkeeping: one `Node` item per graph node of a run's plan.

`prepare` writes the nodes (index, node id, how many dependencies remain, dependents) in a
topological order (`schedule`); the Map state's items are those indices, so a node's wait
step parks a task token (`park`) and is released (`SendTaskSuccess`) by the wait step itself
or by the last dependency to finish (`finish`), whichever comes later: each is one atomic
update that returns the item, and only the later one sees both the token and no dependency
left, so exactly one of them sends the token.
A node whose dependency failed or was skipped is released with `skip` and skips its own
dependents in turn. Because items are in topological order, the Map's concurrency slots
always hold a runnable node: no wait can starve the nodes it waits for.

The engine's graph lists every node a node waits for, directly or not (`deps`: the results a
node reads). Release counts only the direct ones (the transitive reduction: `remaining`,
`dependents`): a node whose direct dependencies are done has all of them done, and a finished
node updates a handful of items instead of every node after it.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pynamodb.exceptions import UpdateError
from pynamodb.expressions.update import Action

from functions.common import artifacts
from functions.common.aws import client
from functions.common.clock import now_iso
from functions.common.models import Node


def key(index: int) -> str:
    return f"{index:06d}"


def topological(graph: dict[str, list[str]]) -> list[str]:
    """Node ids so that every node comes after the nodes it waits for (ties by id; Kahn's
    algorithm over a heap). A cycle is a ValueError naming the nodes left."""
    import heapq

    waiting = {n: len(set(deps)) for n, deps in graph.items()}
    dependents: dict[str, set[str]] = {n: set() for n in graph}
    for node, deps in graph.items():
        for d in set(deps):
            dependents[d].add(node)
    ready = [n for n, count in waiting.items() if count == 0]
    heapq.heapify(ready)
    order: list[str] = []
    while ready:
        n = heapq.heappop(ready)
        order.append(n)
        for m in dependents[n]:
            waiting[m] -= 1
            if waiting[m] == 0:
                heapq.heappush(ready, m)
    if len(order) != len(graph):
        raise ValueError("the apply graph has a cycle among: " +
                         ", ".join(sorted(set(graph) - set(order))))
    return order


def direct(graph: dict[str, list[str]]) -> dict[str, list[str]]:
    """Each node's dependencies less those another of its dependencies waits for, directly or
    not (the graph's transitive reduction), sorted. The graph must have no cycle."""
    order = topological(graph)
    bit = {n: 1 << i for i, n in enumerate(order)}
    above: dict[str, int] = {}  # node -> bitset of every node it waits for
    reduced: dict[str, list[str]] = {}
    for n in order:
        deps = set(graph[n])
        implied = 0
        closure = 0
        for d in deps:
            implied |= above[d]
            closure |= above[d] | bit[d]
        above[n] = closure
        reduced[n] = sorted(d for d in deps if not implied & bit[d])
    return reduced


def schedule(graph: dict[str, list[str]]) -> list[str]:
    """The order the Map takes the nodes in: by level (the longest chain of dependencies
    before a node), and within a level the node with the longest chain of dependents after
    it first, then by id. A topological order that fills the Map's concurrency slots in the
    order nodes can start: a slot taken by a node that waits for a late dependency is a slot
    no runnable node can use (by simulation of the benchmark's 500-node graph at
    MaxConcurrency 40: 1.35x the lower bound, against 2.19x for Kahn's order by id)."""
    order = topological(graph)
    level: dict[str, int] = {}
    for n in order:
        level[n] = 1 + max((level[d] for d in set(graph[n])), default=-1)
    dependents: dict[str, set[str]] = {n: set() for n in order}
    for n in order:
        for d in set(graph[n]):
            dependents[d].add(n)
    tail: dict[str, int] = {}
    for n in reversed(order):
        tail[n] = 1 + max((tail[k] for k in dependents[n]), default=0)
    return sorted(order, key=lambda n: (level[n], -tail[n], n))


def prepare(run_id: str, graph: dict[str, list[str]]) -> list[int]:
    """Write the run's nodes; the Map items (indices in `schedule` order, a topological
    one)."""
    order = schedule(graph)
    index = {n: i for i, n in enumerate(order)}
    waits = direct(graph)
    dependents: dict[str, list[str]] = {n: [] for n in order}
    for node, deps in waits.items():
        for d in deps:
            dependents[d].append(key(index[node]))
    with Node.batch_write() as batch:
        for n in order:
            batch.save(Node(run_id, key(index[n]), node_id=n,
                            deps=sorted(key(index[d]) for d in set(graph[n])),
                            remaining=len(waits[n]), dependents=sorted(dependents[n])))
    return list(range(len(order)))


def get(run_id: str, index: int | str) -> Node:
    k = index if isinstance(index, str) else key(index)
    return Node.get(run_id, k, consistent_read=True)


def _release(node: Node) -> bool:
    """Send the parked token (skip or go) if `node`, as the update just made returned it,
    has its token and no dependency left; True when it did. Only one update sees both: the
    token and the last dependency's decrement are two atomic updates of the item, and only
    the later of the two sees the other's effect, so the token is sent once."""
    if not node.token or (node.remaining or 0) > 0:
        return False
    client("stepfunctions").send_task_success(
        taskToken=node.token, output=json.dumps({"skip": bool(node.skip)}))
    if node.skip:
        finish(node, "skipped")
    return True


def park(run_id: str, index: int, token: str) -> None:
    """The wait step of node `index` parked `token`; release it now if it may start."""
    node = Node(run_id, key(index))
    node.update(actions=[Node.token.set(token)], condition=Node.node_id.exists())
    _release(node)  # the dependencies were done before the token came


def claim(run_id: str, index: int) -> tuple[Node, bool]:
    """Mark node `index` running unless it already ran: (the node, True), or (the node,
    False) when it was applied (or skipped) already."""
    node = Node(run_id, key(index))
    try:
        node.update(actions=[Node.status.set("running"), Node.started_at.set(now_iso())],
                    condition=Node.status.is_in("pending", "running", "failed"))
    except UpdateError as exc:
        if getattr(exc, "cause_response_code", None) == "ConditionalCheckFailedException":
            return get(run_id, index), False
        raise
    return node, True


def _went(node: Node, dep_key: str, outcome: str) -> None:
    dep = Node(node.run_id, dep_key)
    updates: list[Action] = [Node.remaining.add(-1)]
    if outcome != "applied":
        updates.append(Node.skip.set(True))
    dep.update(actions=updates)
    _release(dep)  # the last dependency to finish, after the token came


def finish(node: Node, outcome: str, error: str | None = None) -> None:
    """Record `outcome` (applied, failed, skipped) and let the dependents go (or skip)."""
    actions: list[Action] = [Node.status.set(outcome), Node.finished_at.set(now_iso())]
    if error is not None:
        actions.append(Node.error.set(error[:2000]))
    node.update(actions=actions)
    dependents = [str(k) for k in node.dependents or []]
    if len(dependents) == 1:
        _went(node, dependents[0], outcome)
    elif dependents:
        with ThreadPoolExecutor(max_workers=min(8, len(dependents))) as pool:
            for done in [pool.submit(_went, node, k, outcome) for k in dependents]:
                done.result()


def result_key(run_id: str, index_key: str) -> str:
    return artifacts.run_key(run_id, f"nodes/{index_key}.result.json")


#: (run id, node key) -> an applied node's result document, the most recent 5,000:
#: a warm function reads each dependency's result from S3 once (an applied node's result
#: never changes).
_applied: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
_applied_mu = threading.Lock()
_APPLIED_KEPT = 5_000


def remember(run_id: str, index_key: str, doc: dict[str, Any]) -> None:
    """Keep the result of node `index_key`, applied, for the dependents this function runs."""
    with _applied_mu:
        _applied[(run_id, index_key)] = doc
        _applied.move_to_end((run_id, index_key))
        while len(_applied) > _APPLIED_KEPT:
            _applied.popitem(last=False)


def dependency_results(node: Node) -> list[dict[str, Any]]:
    """The results of the nodes `node` waits for, all applied (their S3 objects, small; the
    ones this warm function has not seen are read concurrently)."""
    keys = [str(k) for k in node.deps or []]
    with _applied_mu:
        found = {k: _applied[(node.run_id, k)] for k in keys if (node.run_id, k) in _applied}
    missing = [k for k in keys if k not in found]
    if len(missing) == 1:
        found[missing[0]] = read_result(node.run_id, missing[0])
    elif missing:
        with ThreadPoolExecutor(max_workers=min(16, len(missing))) as pool:
            for k, doc in zip(missing, pool.map(lambda k: read_result(node.run_id, k), missing)):
                found[k] = doc
    for k in missing:
        remember(node.run_id, k, found[k])
    return [found[k] for k in keys]


def write_result(run_id: str, index_key: str, doc: dict[str, Any]) -> None:
    """Store a node's result, encrypted (it holds the objects' attributes, secrets included)."""
    from functions.common.sealing import seal_bytes
    from functions.common.settings import settings

    data = seal_bytes(json.dumps(doc).encode(), "node", run_id, reuse_key=True)
    artifacts.put(settings().artifact_bucket, result_key(run_id, index_key), data,
                  "application/octet-stream")


def read_result(run_id: str, index_key: str) -> dict[str, Any]:
    """A node's result as `write_result` stored it."""
    from functions.common.sealing import unseal_bytes
    from functions.common.settings import settings

    blob = artifacts.get(settings().artifact_bucket, result_key(run_id, index_key))
    doc: dict[str, Any] = json.loads(unseal_bytes(blob, "node", run_id))
    return doc


def all_nodes(run_id: str) -> list[Node]:
    return sorted(Node.query(run_id, consistent_read=True), key=lambda n: n.address)


def picture(run_id: str) -> list[dict[str, Any]]:
    """The run's apply graph as the fan-out stands: each node (in topological order) with the
    node ids it waits for, its level (0 for a node that waits for none, else one more than the
    highest level it waits for) and its status (pending, running, applied, failed, skipped)
    with when it started and finished. Empty until the apply is prepared."""
    nodes = sorted(Node.query(run_id, consistent_read=True), key=lambda n: n.address)
    ids = {n.address: n.node_id for n in nodes}
    level: dict[str, int] = {}
    out = []
    for n in nodes:  # the keys are in topological order: what a node waits for comes first
        deps = [str(k) for k in n.deps or []]
        level[n.address] = 1 + max((level.get(d, 0) for d in deps), default=-1)
        out.append({"id": n.node_id, "depends_on": [ids[d] for d in deps if d in ids],
                    "level": level[n.address], "status": n.status,
                    "started_at": n.started_at, "finished_at": n.finished_at})
    return out
