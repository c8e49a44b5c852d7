"""The apply fan-out's bookkeeping: one `Node` item per graph node of a run's plan.

`prepare` writes the nodes (index, node id, how many dependencies remain, dependents) in a
topological order; the Map state's items are those indices, so a node's wait step parks a task
token (`park`) and is released (`SendTaskSuccess`) by whoever sees both that token and zero
remaining dependencies first: the wait step itself or the last dependency to finish
(`finish`). Release is a conditional update (`released` false → true), so it happens once.
A node whose dependency failed or was skipped is released with `skip` and skips its own
dependents in turn. Because items are in topological order, the Map's concurrency slots
always hold a runnable node: no wait can starve the nodes it waits for.
"""

from __future__ import annotations

import json
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


def prepare(run_id: str, graph: dict[str, list[str]]) -> list[int]:
    """Write the run's nodes; the Map items (indices in topological order)."""
    order = topological(graph)
    index = {n: i for i, n in enumerate(order)}
    dependents: dict[str, list[str]] = {n: [] for n in order}
    for node, deps in graph.items():
        for d in deps:
            dependents[d].append(key(index[node]))
    with Node.batch_write() as batch:
        for n in order:
            batch.save(Node(run_id, key(index[n]), node_id=n,
                            deps=[key(index[d]) for d in graph[n]],
                            remaining=len(graph[n]), dependents=sorted(dependents[n])))
    return list(range(len(order)))


def get(run_id: str, index: int | str) -> Node:
    k = index if isinstance(index, str) else key(index)
    return Node.get(run_id, k, consistent_read=True)


def _release(node: Node) -> bool:
    """Send the parked token once (skip or go); True when this call sent it."""
    try:
        node.update(actions=[Node.released.set(True)],
                    condition=(Node.released == False) & Node.token.exists()  # noqa: E712
                    & (Node.remaining <= 0))
    except UpdateError as exc:
        if getattr(exc, "cause_response_code", None) == "ConditionalCheckFailedException":
            return False
        raise
    client("stepfunctions").send_task_success(
        taskToken=node.token, output=json.dumps({"skip": bool(node.skip)}))
    if node.skip:
        finish(node, "skipped")
    return True


def park(run_id: str, index: int, token: str) -> None:
    """The wait step of node `index` parked `token`; release it now if it may start."""
    node = get(run_id, index)
    node.update(actions=[Node.token.set(token)])
    _release(node)


def claim(node: Node) -> bool:
    """Mark `node` running unless it already ran; False when it was applied already."""
    try:
        node.update(actions=[Node.status.set("running"), Node.started_at.set(now_iso())],
                    condition=Node.status.is_in("pending", "running", "failed"))
    except UpdateError as exc:
        if getattr(exc, "cause_response_code", None) == "ConditionalCheckFailedException":
            return False
        raise
    return True


def finish(node: Node, outcome: str, error: str | None = None) -> None:
    """Record `outcome` (applied, failed, skipped) and let the dependents go (or skip)."""
    actions: list[Action] = [Node.status.set(outcome), Node.finished_at.set(now_iso())]
    if error is not None:
        actions.append(Node.error.set(error[:2000]))
    node.update(actions=actions)
    for dep_key in node.dependents or []:
        dep = Node(node.run_id, dep_key)
        updates: list[Action] = [Node.remaining.add(-1)]
        if outcome != "applied":
            updates.append(Node.skip.set(True))
        dep.update(actions=updates)
        _release(dep)


def result_key(run_id: str, index_key: str) -> str:
    return artifacts.run_key(run_id, f"nodes/{index_key}.result.json")


def dependency_results(node: Node) -> list[dict[str, Any]]:
    """The results of the nodes `node` waits for (their S3 objects, small)."""

    return [read_result(node.run_id, str(k)) for k in node.deps or []]


def write_result(run_id: str, index_key: str, doc: dict[str, Any]) -> None:
    """Store a node's result, encrypted (it holds the objects' attributes, secrets included)."""
    from functions.common.sealing import seal_bytes
    from functions.common.settings import settings

    data = seal_bytes(json.dumps(doc).encode(), "node", run_id)
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
