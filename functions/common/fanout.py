"""The apply fan-out: one `Node` item per graph node of a run's plan, and each node's task
started as soon as its own dependencies are done and a slot is free, the node with the
longest chain of nodes after it first.

`prepare` writes the nodes (keys in `schedule` order: the nodes that wait for none first,
then the others, each part longest chain after a node first; a topological order) and one
control item (`CONTROL`). The control item counts the nodes no other node waits for that
have not settled (`remaining`: such a node settles only after every node it waits for,
directly or not, so at zero every node has settled), the nodes holding one of the apply's
`parallelism` slots (`running`), the nodes that wait for none (`roots`, keys 0 .. roots - 1)
with the first of them not started yet (`next_root`), and the queue items (`queued`). The
state machine's apply step parks its task token there and starts the first roots
(`start`); every node task is an asynchronous invocation of the apply-node function
(`InvocationType=Event`), so only nodes that can run hold one of the function's concurrent
executions.

A node that settles (`finish`: applied, failed) decrements each dependent's count in one
atomic update that returns the item: the update that brings it to zero is the only one
that sees zero, so exactly one finisher readies each dependent. A dependent of a failed (or
skipped) node is skipped without a task, and its dependents in turn. The finisher's slot
passes to the first dependent it readied; the others take free slots or wait in the queue
(one item each, keyed by the node's key in a partition of their own, `queue_of`: the
queue's order is the keys' order, the priority). A finisher that readied none gives its
slot back, and whoever gives a slot back or queues a node then fills the free slots
(`_fill`): from the head of the queue, then with the roots not started, each by one
conditional update of the control item that takes a slot and a waiting node at once, so no
slot is left free while a node waits. On a machine that can run every ready node at once
nothing waits; when it cannot, the nodes on the longest chains start first (the local
benchmark: first-come order wastes a third of the makespan at 40 slots on a graph that is
180 roots wide). The last node to settle brings `remaining` to zero and sends the parked
token: the state machine goes on to finalize. Once the fan-out is stopped (`stop`:
canceled, timed out) no node starts.

A node task runs at least once (Lambda retries a failed asynchronous invocation, and may
deliver one twice): `claim` marks the node running with a fresh attempt id, and only the
latest attempt's `finish` settles it, so a node's dependents and the counts are counted
down once. A node already settled is not applied again.

The engine's graph lists every node a node waits for, directly or not (`deps`: the results a
node reads). Release counts only the direct ones (the transitive reduction: `remaining`,
`dependents`): a node whose direct dependencies are done has all of them done, and a settled
node updates a handful of items instead of every node after it.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pynamodb.exceptions import DeleteError, UpdateError
from pynamodb.expressions.update import Action

from functions.common import artifacts
from functions.common.aws import client
from functions.common.clock import now_iso
from functions.common.errors import condition_failed
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
    """The order of the nodes' keys, which is the order in which ready nodes take free
    slots: the nodes that wait for none first, then the others; in each part the node with
    the longest chain of dependents after it first, then by level (the longest chain of
    dependencies before it), then by id. A topological order (a node's chain is longer than
    any of its dependents'): the keys (and `picture`) list what a node waits for before
    it."""
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
    return sorted(order, key=lambda n: (level[n] > 0, -tail[n], level[n], n))


#: the range key of a run's control item: it sorts after every node's key
CONTROL = "~fanout"


def queue_of(run_id: str) -> str:
    """The hash key of a run's queue items (range key: the node's key), a partition of its
    own: the head of the queue is one short query whatever the size of the plan."""
    return run_id + "#queue"


def prepare(run_id: str, graph: dict[str, list[str]], parallelism: int) -> int:
    """Write the run's nodes (keys in `schedule` order: the nodes that wait for none come
    first) and its control item, which starts the first `parallelism` of those and counts
    the rest for `_fill`; how many nodes there are."""
    order = schedule(graph)
    index = {n: i for i, n in enumerate(order)}
    waits = direct(graph)
    dependents: dict[str, list[str]] = {n: [] for n in order}
    for node, deps in waits.items():
        for d in deps:
            dependents[d].append(key(index[node]))
    roots = sum(1 for n in order if not waits[n])  # keys 0 .. roots - 1
    first = [key(i) for i in range(min(roots, max(1, parallelism)))]
    with Node.batch_write() as batch:
        for n in order:
            batch.save(Node(run_id, key(index[n]), node_id=n,
                            deps=sorted(key(index[d]) for d in set(graph[n])),
                            remaining=len(waits[n]), dependents=sorted(dependents[n])))
        batch.save(Node(run_id, CONTROL, node_id="",
                        remaining=sum(1 for n in order if not dependents[n]),
                        dependents=first, running=len(first), roots=roots,
                        next_root=len(first)))
    return len(order)


def get(run_id: str, index: int | str) -> Node:
    k = index if isinstance(index, str) else key(index)
    return Node.get(run_id, k, consistent_read=True)


def start(run_id: str, token: str) -> list[str]:
    """Park the apply step's `token` on the run's control item and start the first nodes
    that wait for none (the keys started; `_fill` starts the others as slots free). With no
    node to apply, or the fan-out stopped, the token is answered at once."""
    control = Node(run_id, CONTROL)
    control.update(actions=[Node.token.set(token)], condition=Node.node_id.exists())
    if (control.remaining or 0) <= 0 or control.skip:
        _answer(control)
        return []
    roots = [str(k) for k in control.dependents or []]
    invoke_nodes(run_id, roots)
    return roots


def stop(run_id: str) -> None:
    """Start no further node of the run (it was canceled, or its apply step ended); nodes
    already running finish. Nothing happens for a run without a fan-out."""
    try:
        Node(run_id, CONTROL).update(actions=[Node.skip.set(True)],
                                     condition=Node.node_id.exists())
    except UpdateError as exc:
        if condition_failed(exc):
            return
        raise


def _answer(control: Node) -> None:
    """Let the state machine's apply step go on (its token, if it is still waiting)."""
    if not control.token:
        return
    sfn = client("stepfunctions")
    # the step may have timed out or its execution stopped: finalize runs (or ran) anyway
    with contextlib.suppress(sfn.exceptions.TaskTimedOut, sfn.exceptions.InvalidToken,
                             sfn.exceptions.TaskDoesNotExist):
        sfn.send_task_success(taskToken=control.token,
                              output=json.dumps({"stopped": bool(control.skip)}))


def invoke_nodes(run_id: str, keys: list[str]) -> None:
    """Start each node's task: an asynchronous invocation of the apply-node function."""
    from functions.common.settings import settings

    if not keys:
        return
    lam = client("lambda")
    name = settings().apply_node_function

    def one(k: str) -> None:
        lam.invoke(FunctionName=name, InvocationType="Event",
                   Payload=json.dumps({"action": "apply", "run_id": run_id,
                                       "index": int(k)}).encode())

    if len(keys) == 1:
        one(keys[0])
        return
    with ThreadPoolExecutor(max_workers=min(8, len(keys))) as pool:
        for done in [pool.submit(one, k) for k in keys]:
            done.result()


def claim(run_id: str, index: int) -> tuple[Node, bool]:
    """Mark node `index` running under a new attempt unless it is settled: (the node, True),
    or (the node, False) when it was applied, failed or skipped already."""
    import uuid

    node = Node(run_id, key(index))
    try:
        node.update(actions=[Node.status.set("running"), Node.started_at.set(now_iso()),
                             Node.attempt.set(uuid.uuid4().hex)],
                    condition=Node.status.is_in("pending", "running"))
    except UpdateError as exc:
        if condition_failed(exc):
            return get(run_id, index), False
        raise
    return node, True


def finish(node: Node, outcome: str, error: str | None = None,
           result: tuple[bytes | None, bool] | None = None) -> list[str]:
    """Settle `node` (as `claim` or `get` returned it) with `outcome` (applied, failed) and
    its `result` (as `seal_result` made it), skip what can no longer run, and pass its slot
    on: the keys of the nodes started (see the module docstring). A later attempt of the
    same node settles it instead (nothing is done here then)."""
    from functions.common.settings import settings

    actions: list[Action] = [Node.status.set(outcome), Node.finished_at.set(now_iso())]
    if error is not None:
        actions.append(Node.error.set(error[:2000]))
    if result is not None:
        blob, in_s3 = result
        if blob is not None:
            actions.append(Node.result.set(blob))
        actions.append(Node.result_in_s3.set(in_s3))
    try:
        node.update(actions=actions,
                    condition=(Node.attempt == node.attempt) if node.attempt
                    else Node.attempt.does_not_exist())
    except UpdateError as exc:
        if condition_failed(exc):
            return []
        raise
    run_id = node.run_id
    ready, ends = _release(run_id, [str(k) for k in node.dependents or []],
                           skip=outcome != "applied")
    if not node.dependents:
        ends += 1
    ready.sort()  # the queue's order: the longest chain after a node first
    # this node's slot goes to the first node it readied; the others take a slot each,
    # given back below for those there is no room for
    control = Node(run_id, CONTROL)
    counts: list[Action] = [Node.running.add(len(ready) - 1)]
    if ends:
        counts.append(Node.remaining.add(-ends))
    control.update(actions=counts)
    if ends and (control.remaining or 0) <= 0:
        _answer(control)
    if control.skip:
        return []
    limit = settings().apply_parallelism
    over = max(0, min(len(ready) - 1, int(control.running or 0) - limit))
    now, later = ready[:len(ready) - over], ready[len(ready) - over:]
    fill = _waiting(control) and int(control.running or 0) < limit
    if later:
        with Node.batch_write() as batch:  # queued before they are counted (see _fill)
            for k in later:
                batch.save(Node(queue_of(run_id), k, node_id=""))
        control.update(actions=[Node.running.add(-len(later)), Node.queued.add(len(later))])
        fill = int(control.running or 0) < limit and not control.skip
    invoke_nodes(run_id, now)
    if fill:
        now += _fill(run_id, limit, bool(control.queued))
    return now


def _waiting(control: Node) -> bool:
    """Whether, as `control` was read, a node waits for a slot."""
    return bool(control.queued) or int(control.next_root or 0) < int(control.roots or 0)


def _fill(run_id: str, limit: int, queued: bool) -> list[str]:
    """Start waiting nodes while a slot is free: the keys started. Queued nodes go first
    (they were readied on chains under way), then the nodes that wait for none, in key
    order.

    Each round takes a slot and a waiting node in one conditional update of the control
    item (running below `limit`, a node waiting, not stopped). A node that waits for none
    is counted off `next_root`, whose value names it (its key), so no two fillers take the
    same one. A queued node is counted off `queued`, then the filler removes a queue item
    nobody else removed (`_pop`): a node is queued (its item written) before it is counted,
    so a count taken always has an item to remove. Whoever frees a slot or queues a node
    fills afterwards, so a free slot and a waiting node never wait for each other.
    `queued`: whether the caller saw nodes queued (the queue is tried first then)."""
    started: list[str] = []
    control = Node(run_id, CONTROL)
    while True:
        take: list[Action]
        if queued:
            take = [Node.running.add(1), Node.queued.add(-1)]
            waits = Node.queued > 0
        else:
            take = [Node.running.add(1), Node.next_root.add(1)]
            waits = Node.next_root < Node.roots
        try:
            control.update(actions=take, condition=(Node.running < limit) & waits
                           & (Node.skip == False))  # noqa: E712 (a DynamoDB condition)
        except UpdateError as exc:
            if not condition_failed(exc):
                raise
            if not queued:
                return started
            queued = False  # nothing queued any more, or no slot: the next round says
            continue
        k = _pop(run_id) if queued else key(int(control.next_root) - 1)
        invoke_nodes(run_id, [k])
        started.append(k)
        if int(control.running or 0) >= limit or not _waiting(control):
            return started  # (as of this round's update: no slot, or no node, left)
        queued = bool(control.queued)


def _pop(run_id: str) -> str:
    """Remove the first queue item of the run that no one else removes first: its node's
    key. The caller holds a count of the queue (see `_fill`), so there is one."""
    while True:
        head = next(iter(Node.query(queue_of(run_id), limit=1, consistent_read=True)), None)
        if head is None:
            raise RuntimeError(f"run {run_id}: the queue count is ahead of its items")
        try:
            head.delete(condition=Node.address.exists())
        except DeleteError as exc:
            if condition_failed(exc):
                continue  # another filler took it: the next one
            raise
        return str(head.address)


def _release(run_id: str, dependents: list[str], skip: bool) -> tuple[list[str], int]:
    """Count down `dependents` of a node that settled (`skip`: not applied); (the keys that
    may run now, how many of the nodes skipped have no dependents)."""
    ready: list[str] = []
    ends = 0
    pending = [(k, skip) for k in dependents]
    while pending:
        k, skipping = pending.pop()
        dep = Node(run_id, k)
        updates: list[Action] = [Node.remaining.add(-1)]
        if skipping:
            updates.append(Node.skip.set(True))
        dep.update(actions=updates)
        if (dep.remaining or 0) > 0:
            continue
        if not dep.skip:
            ready.append(k)
            continue
        dep.update(actions=[Node.status.set("skipped"), Node.finished_at.set(now_iso())])
        if not dep.dependents:
            ends += 1
        pending.extend((str(d), True) for d in dep.dependents or [])
    return ready, ends


def result_key(run_id: str, index_key: str) -> str:
    return artifacts.run_key(run_id, f"nodes/{index_key}.result.json")


#: a sealed result up to this size is kept in its node's item (one write with the node's
#: outcome, and the finalize step reads it with the nodes); a larger one goes to S3
RESULT_INLINE_LIMIT = 64 * 1024


def seal_result(run_id: str, index_key: str, doc: dict[str, Any]) -> tuple[bytes | None, bool]:
    """A node's result, encrypted (it holds the objects' attributes, secrets included), as
    `finish` stores it: (the sealed bytes, False), or (None, True) once written to S3 when
    too large for the node's item."""
    from functions.common.sealing import seal_bytes
    from functions.common.settings import settings

    data = seal_bytes(json.dumps(doc).encode(), "node", run_id, reuse_key=True)
    if len(data) <= RESULT_INLINE_LIMIT:
        return data, False
    artifacts.put(settings().artifact_bucket, result_key(run_id, index_key), data,
                  "application/octet-stream")
    return None, True


def result_of(node: Node) -> dict[str, Any] | None:
    """The result `node`'s task stored with its outcome (None: none stored)."""
    from functions.common.sealing import unseal_bytes
    from functions.common.settings import settings

    blob = node.result
    if blob is None and node.result_in_s3:
        blob = artifacts.get(settings().artifact_bucket, result_key(node.run_id, node.address))
    if blob is None:
        return None
    doc: dict[str, Any] = json.loads(unseal_bytes(bytes(blob), "node", node.run_id))
    return doc


#: (run id, node key) -> an applied node's result document, the most recent 5,000:
#: a warm function reads each dependency's result once (an applied node's result never
#: changes).
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


def read_results(run_id: str, keys: list[str]) -> dict[str, dict[str, Any]]:
    """The stored results of nodes `keys` (applied: each has one), read in one batch."""
    found: dict[str, dict[str, Any]] = {}
    for n in Node.batch_get([(run_id, k) for k in keys], consistent_read=True):
        doc = result_of(n)
        if doc is not None:
            found[n.address] = doc
    return found


def dependency_results(node: Node) -> list[dict[str, Any]]:
    """The results of the nodes `node` waits for, all applied (those this warm function has
    not seen are read from their items)."""
    keys = [str(k) for k in node.deps or []]
    with _applied_mu:
        found = {k: _applied[(node.run_id, k)] for k in keys if (node.run_id, k) in _applied}
    missing = [k for k in keys if k not in found]
    if missing:
        read = read_results(node.run_id, missing)
        lost = [k for k in missing if k not in read]
        if lost:
            raise RuntimeError(f"no stored result for applied node(s) {', '.join(lost)}")
        for k in missing:
            found[k] = read[k]
            remember(node.run_id, k, read[k])
    return [found[k] for k in keys]


def all_nodes(run_id: str) -> list[Node]:
    """The run's nodes in topological order (its control item left out; queue items are in
    a partition of their own)."""
    return sorted((n for n in Node.query(run_id, consistent_read=True)
                   if n.address != CONTROL), key=lambda n: n.address)


def picture(run_id: str) -> list[dict[str, Any]]:
    """The run's apply graph as the fan-out stands: each node (in topological order) with the
    node ids it waits for, its level (0 for a node that waits for none, else one more than the
    highest level it waits for) and its status (pending, running, applied, failed, skipped)
    with when it started and finished. Empty until the apply is prepared."""
    nodes = all_nodes(run_id)
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
