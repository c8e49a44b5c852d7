"""The concurrent graph walk: run every node once its dependencies are done.

`walk(graph, callback)` visits an acyclic DiGraph (edge `u -> v`: `v` depends on
`u`) with a ready-queue scheduler: nodes whose dependencies have all finished run on a thread
pool, at most `parallelism` at once. Each callback returns Diagnostics; a node with an error
diagnostic (or whose callback raised) has failed, and everything that depends on it, directly
or not, is skipped (never run, reported in `skipped`, no diagnostics of its own). Independent
failures are all reported. When the StopController says stop, no new node starts; running
ones finish; the rest are reported in `not_started` and the result is `interrupted`.

The graph is checked for cycles first; a cyclic graph is not walked (the cycle errors are the
result). Diagnostics come out in completion order; each node's own diagnostics stay together.
"""

from __future__ import annotations

import queue
import traceback
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from engine.diags import Diagnostics, error
from engine.graph.dag import Name, check_acyclic
from engine.graph.digraph import DiGraph
from engine.graph.signals import StopController

DEFAULT_PARALLELISM = 10
_POLL_SECONDS = 0.05

Callback = Callable[[Any], Diagnostics]


@dataclass(slots=True)
class WalkResult:
    """What happened to each node, and every diagnostic the walk produced."""

    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    completed: list[Any] = field(default_factory=list)
    failed: list[Any] = field(default_factory=list)
    skipped: list[Any] = field(default_factory=list)
    not_started: list[Any] = field(default_factory=list)
    interrupted: bool = False

    @property
    def ok(self) -> bool:
        """Every node ran without error and the walk was not interrupted."""
        return not self.diagnostics.has_errors and not self.interrupted


def _run(callback: Callback, node: Hashable, name: Name) -> Diagnostics:
    try:
        result = callback(node)
    except Exception as exc:  # a bug in a node's operation must not kill the walk
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        return Diagnostics([error(f"Internal error while processing {name(node)}", detail)])
    if not isinstance(result, Diagnostics):
        return Diagnostics(
            [error(f"Internal error while processing {name(node)}", "No diagnostics returned.")]
        )
    return result


def walk(
    graph: DiGraph,
    callback: Callback,
    parallelism: int = DEFAULT_PARALLELISM,
    stop: StopController | None = None,
    name: Name = str,
) -> WalkResult:
    """Walk `graph`, calling `callback(node)` for each node after all of its dependencies
    succeeded; see the module docstring for the rules."""
    result = WalkResult()
    cycles = check_acyclic(graph, name)
    if cycles.has_errors:
        result.diagnostics = cycles
        return result
    if parallelism < 1:
        parallelism = 1

    pending: dict[Any, int] = {n: d for n, d in graph.in_degree()}
    ready: list[Any] = [n for n, d in pending.items() if d == 0]
    ready.reverse()  # pop() from the end visits roots in graph order
    blocked: set[Any] = set()  # nodes with a failed or skipped dependency
    done: queue.SimpleQueue[tuple[Any, Diagnostics]] = queue.SimpleQueue()
    running = 0
    succ = graph.succ

    def release(node: Any, ok: bool) -> None:
        # iterative: a failure at the head of a long chain skips the whole chain
        work = [(node, ok)]
        while work:
            parent, parent_ok = work.pop()
            for child in succ[parent]:
                if not parent_ok:
                    blocked.add(child)
                pending[child] -= 1
                if pending[child] == 0:
                    if child in blocked:
                        result.skipped.append(child)
                        work.append((child, False))
                    else:
                        ready.append(child)

    with ThreadPoolExecutor(max_workers=parallelism, thread_name_prefix="walk") as pool:

        def task(node: Any) -> None:
            diags = Diagnostics([error(f"Internal error while processing {name(node)}")])
            try:
                diags = _run(callback, node, name)
            finally:  # always report back, or the scheduler would wait forever
                done.put((node, diags))

        def submit(node: Any) -> None:
            pool.submit(task, node)

        while True:
            stopping = stop is not None and stop.stop_requested
            while ready and running < parallelism and not stopping:
                submit(ready.pop())
                running += 1
            if running == 0:
                break
            try:
                # a short timeout: a signal delivered to a worker thread only runs its
                # Python handler once the main thread executes bytecode again
                node, diags = done.get(timeout=_POLL_SECONDS)
            except queue.Empty:
                continue
            running -= 1
            result.diagnostics.extend(diags)
            ok = not diags.has_errors
            (result.completed if ok else result.failed).append(node)
            release(node, ok)

    if stop is not None and stop.stop_requested:
        finished = set(result.completed) | set(result.failed) | set(result.skipped)
        result.not_started = [n for n in graph.nodes if n not in finished]
        result.interrupted = True
        result.diagnostics.append(
            error(
                "Operation interrupted",
                f"A stop was requested; {len(result.not_started)} of {len(pending)} "
                "operations were not started.",
            )
        )
    return result
