"""One node of an apply, on its own: the seam between the local walker and other executors.

The local apply walks the whole apply graph in one process (engine.apply.applier). An
executor that runs each change elsewhere (a Lambda task of the control plane's Step
Functions fan-out) applies one `Op` at a time:

    run, diags = prepare_apply(config, plan, state, MemoryRecorder(state), registry, options)
    result = apply_one(run, op)          # -> NodeResult, result.to_json() for the wire

`apply_one` walks only what the op depends on (module calls, variables, locals, provider
configurations, the resource nodes it refers to), running no other op: the results of the
ops it depends on must already be in the working state (`MemoryRecorder(state)` built from
the plan's prior state with their `NodeResult`s merged in, `merge_results`). The op's change
is applied by the same `apply_instance` the local walker calls, so both executors record the
same state changes, in the same shape: journal result records, which `merge_results` replays.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.addrs import AbsResourceInstance, parse_abs_resource_instance
from engine.addrs.keys import key_str
from engine.apply.context import InstanceResult
from engine.apply.graph import CBD, Op
from engine.diags import Diagnostic, Diagnostics, Severity
from engine.gocompat import json as gojson
from engine.graph.digraph import DiGraph, ancestors
from engine.graph.walker import walk
from engine.states.journal import RESULT, Record, object_from_json, object_to_json, replay
from engine.states.state import ResourceInstanceObject, State
from engine.states.sync import SyncState

if TYPE_CHECKING:
    from engine.apply.applier import ApplyRun
    from engine.graph.signals import StopController

#: The kinds of `Op`: apply (create, update, read, the create half of a replacement),
#: destroy (of the current object, a deposed one, or `cbd`: the object a
#: create_before_destroy replacement deposed), forget (a `removed` block's, no provider call).
NODE_KINDS = ("apply", "destroy", "forget")


def node_id(op: Op) -> str:
    """A stable, unique name of an op in its plan: `ADDR`, `ADDR (destroy)`,
    `ADDR (destroy deposed KEY)`, `ADDR (forget)`."""
    if op.kind == "apply":
        return str(op.addr)
    suffix = f" deposed {op.deposed}" if op.deposed else ""
    return f"{op.addr} ({op.kind}{suffix})"


@dataclass
class NodeResult:
    """What applying one op did.

    `records` is the state delta: the result records it wrote, in order (each sets or removes
    one object: the current one, or a deposed one named by `deposed`); replaying them over the
    working state before the op gives the state after it. `diagnostics` are its problems;
    `success` is False when there is an error among them. `to_json()` gives JSON-able data
    (objects as the journal stores them, diagnostics in terraform's JSON shape) and
    `from_json` reads it back (diagnostics then carry no source ranges).
    """

    id: str
    address: str
    kind: str
    deposed: str = ""
    records: list[Record] = field(default_factory=list)
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    diagnostics_json: list[dict[str, Any]] | None = None

    @property
    def success(self) -> bool:
        return not self.diagnostics.has_errors

    @classmethod
    def of(cls, op: Op, result: InstanceResult | None, diags: Diagnostics) -> NodeResult:
        """The node result of `op` from its instance result (None: nothing was applied)."""
        return cls(node_id(op), str(op.addr), op.kind, op.deposed,
                   list(result.records) if result is not None else [], diags)

    def to_json(self) -> dict[str, Any]:
        from engine.diags.render import to_json

        diags = self.diagnostics_json
        if diags is None:
            diags = [to_json(d) for d in self.diagnostics]
        return {
            "id": self.id,
            "address": self.address,
            "kind": self.kind,
            "deposed": self.deposed,
            "success": self.success,
            "records": [_record_json(r) for r in self.records],
            "diagnostics": diags,
        }

    def to_json_text(self) -> str:
        """`to_json()` as compact Go-style JSON text (attribute numbers keep their digits)."""
        return gojson.dumps(self.to_json(), indent=None)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NodeResult:
        raw = list(data.get("diagnostics") or [])
        diags = Diagnostics([
            Diagnostic(Severity.ERROR if d.get("severity") == "error" else Severity.WARNING,
                       str(d.get("summary", "")), str(d.get("detail", "")),
                       address=d.get("address"))
            for d in raw])
        records = [Record(RESULT, seq=int(r.get("seq") or 0), addr=str(r["addr"]),
                          deposed=str(r.get("deposed") or ""), status=str(r.get("status") or ""),
                          provider=str(r.get("provider") or ""),
                          object=object_from_json(r["object"]) if r.get("object") else None)
                   for r in data.get("records") or []]
        return cls(str(data["id"]), str(data["address"]), str(data["kind"]),
                   str(data.get("deposed") or ""), records, diags, raw)


def _record_json(r: Record) -> dict[str, Any]:
    return {"seq": r.seq, "addr": r.addr, "deposed": r.deposed, "status": r.status,
            "provider": r.provider,
            "object": object_to_json(r.object) if r.object is not None else None}


def merge_results(state: State | None, results: Iterable[NodeResult]) -> State:
    """`state` with every result's records replayed, in the order given (a finalize step
    merges all node results into the plan's prior state this way)."""
    records = [r for res in results for r in res.records]
    merged, _ = replay(records, state)
    return merged


class MemoryRecorder:
    """Records an op's state changes in memory (no journal, no persistence): the working
    state of a single-node run."""

    def __init__(self, state: State | None = None) -> None:
        self._sync = SyncState(state)
        self._seq = 0
        self._mu = threading.Lock()

    @property
    def sync(self) -> SyncState:
        return self._sync

    def record_intent(self, addr: AbsResourceInstance, action: str,
                      deposed: str = "") -> tuple[int, Diagnostics]:
        with self._mu:
            self._seq += 1
            return self._seq, Diagnostics()

    def record_result(self, addr: AbsResourceInstance, seq: int,
                      obj: ResourceInstanceObject | None, status: str = "ok", *,
                      provider: str = "", deposed: str = "") -> Diagnostics:
        if deposed:
            if obj is None:
                self._sync.remove_deposed(addr, deposed)
            else:
                self._sync.set_deposed(addr, deposed, obj, provider)
        elif obj is None:
            self._sync.remove_current(addr)
        else:
            self._sync.set_current(addr, obj, provider)
        return Diagnostics()


def ops(graph: DiGraph) -> dict[str, Op]:
    """Every op of an apply graph by `node_id`."""
    return {node_id(n): n for n in graph.nodes if isinstance(n, Op)}


def op_dependencies(graph: DiGraph) -> dict[str, list[str]]:
    """For every op (by `node_id`), the ops it waits for, directly or through configuration
    nodes and barriers, sorted: what a scheduler must have finished before starting it."""
    return {node_id(n): op_dependencies_of(graph, n) for n in graph.nodes if isinstance(n, Op)}


def op_dependencies_of(graph: DiGraph, op: Op) -> list[str]:
    """The ops (by `node_id`) `op` waits for, sorted."""
    return sorted(node_id(a) for a in ancestors(graph, op) if isinstance(a, Op))


def apply_one(run: ApplyRun, op: Op, parallelism: int = 1,
              stop: StopController | None = None) -> NodeResult:
    """Apply `op` of `run` alone; see the module docstring. The ops it depends on must be in
    the working state already."""
    from engine.apply.applier import step
    from engine.apply.instance import apply_instance

    ctx = run.ctx
    if op.kind == "destroy" and op.deposed == CBD:
        # the deposed key the replacement's apply op chose is in the working state
        key = _deposed_key(ctx, op.addr)
        if key:
            ctx.deposed_keys[op.addr] = key
    needed = ancestors(run.graph, op)
    sub = run.graph.subgraph(needed)
    res = walk(sub, lambda n: step(run, n, only=op), parallelism, stop)
    diags = Diagnostics(list(res.diagnostics))
    if diags.has_errors or res.interrupted:
        return NodeResult.of(op, None, diags)
    result = apply_instance(ctx, ctx.plan, op.addr, None, op.kind, op.deposed)
    diags.extend(result.diagnostics)
    return NodeResult.of(op, result, diags)


def _deposed_key(ctx: Any, addr: AbsResourceInstance) -> str:
    """The key of the object a create_before_destroy replacement of `addr` deposed: the
    deposed object of `addr` in the working state that the plan does not know of."""
    planned = {dk for (a, dk) in ctx.changes if a == addr and dk}
    sync = ctx.manager.sync
    for rs in sync.snapshot().resources:
        for inst in rs.instances:
            if rs.address + key_str(inst.index_key) != str(addr):
                continue
            fresh = sorted(k for k in inst.deposed if k not in planned)
            if fresh:
                return fresh[0]
    return ""


def parse_node_address(address: str) -> AbsResourceInstance:
    """The instance address of a node id or address (raises AddressSyntaxError)."""
    return parse_abs_resource_instance(address.split(" (", 1)[0])


__all__ = [
    "NODE_KINDS",
    "MemoryRecorder",
    "NodeResult",
    "apply_one",
    "merge_results",
    "node_id",
    "op_dependencies",
    "op_dependencies_of",
    "ops",
    "parse_node_address",
]
