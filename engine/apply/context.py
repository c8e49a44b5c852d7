"""The shared context of one apply walk.

`ApplyContext` bundles what `apply_instance` needs: the plan and its changes by address, the
module instance tree re-evaluated with apply-time values (plan_phase off), the provider
bindings (through an embedded `PlanContext`, so provider configuration and state decoding are
the planner's), the state manager that records every result, hooks, the stop event, and the
per-resource expansions (`count.index` / `each` roots) computed once per module instance.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.addrs import AbsResourceInstance, ModuleInstance
from engine.apply.progress import Ticker
from engine.core.instances import InstanceTree
from engine.diags import Diagnostics
from engine.plans.hooks import Hooks
from engine.plans.model import Plan, ResourceInstanceChange
from engine.plans.planner_context import PlanContext
from engine.plans.planner_expand import expand_resource
from engine.states.journal import RESULT, Record
from engine.states.state import ResourceInstanceObject
from engine.states.sync import SyncState
from engine.values import Value


class Recorder(Protocol):
    """Where an apply step records what it did: the working state (`sync`) and a journal
    intent before each provider call, a result after it. The `StateManager` of a local apply
    is one; a single-node run (engine.apply.node) records in memory."""

    @property
    def sync(self) -> SyncState: ...

    def record_intent(
        self, addr: AbsResourceInstance, action: str, deposed: str = ""
    ) -> tuple[int, Diagnostics]: ...

    def record_result(
        self,
        addr: AbsResourceInstance,
        seq: int,
        obj: ResourceInstanceObject | None,
        status: str = "ok",
        *,
        provider: str = "",
        deposed: str = "",
    ) -> Diagnostics: ...


@dataclass
class InstanceResult:
    """What one apply step did: the new value (None: no object), its diagnostics, whether
    the new object is tainted, and `records`: the state changes it recorded, in order (journal
    result records; replaying them over the state before the step gives the state after)."""

    addr: AbsResourceInstance
    kind: str
    value: Value | None = None
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    tainted: bool = False
    records: list[Record] = field(default_factory=list)


@dataclass
class ApplyContext:
    """What every node of one apply walk shares: the plan, the walk context, the state recorder,
    dependencies and the stop signal."""

    plan: Plan
    pctx: PlanContext
    manager: Recorder
    dependencies: dict[Any, list[str]] = field(default_factory=dict)
    stop_event: threading.Event = field(default_factory=threading.Event)
    changes: dict[tuple[AbsResourceInstance, str], ResourceInstanceChange] = field(
        default_factory=dict)
    deposed_keys: dict[AbsResourceInstance, str] = field(default_factory=dict)
    ticker: Ticker | None = None
    _expansions: dict[tuple[ModuleInstance, str], dict[Any, dict[str, Value]]] = field(
        default_factory=dict)
    _mu: threading.Lock = field(default_factory=threading.Lock)

    @property
    def tree(self) -> InstanceTree:
        return self.pctx.tree

    @property
    def hooks(self) -> Hooks:
        return self.pctx.hooks

    def change(self, addr: AbsResourceInstance, deposed: str = "") -> ResourceInstanceChange | None:
        return self.changes.get((addr, deposed))

    def roots(self, mi: ModuleInstance, res: Any, key: Any) -> tuple[dict[str, Value], Diagnostics]:
        """The `count`/`each` roots of instance `key` of `res` in `mi` (expanded once)."""
        k = (mi, res.key)
        with self._mu:
            got = self._expansions.get(k)
        diags = Diagnostics()
        if got is None:
            _rep, insts, diags = expand_resource(self.tree.scope(mi), res)
            got = {ikey: roots for ikey, roots in insts}
            with self._mu:
                self._expansions[k] = got
        return got.get(key, {}), diags

    def record(self, result: InstanceResult, addr: AbsResourceInstance, seq: int,
               obj: ResourceInstanceObject | None, status: str = "ok", *, provider: str = "",
               deposed: str = "") -> Diagnostics:
        """Record the outcome of `seq` through the manager and in `result.records`."""
        result.records.append(Record(RESULT, seq=seq, addr=str(addr), deposed=deposed,
                                     status=status, provider=provider, object=obj))
        return self.manager.record_result(addr, seq, obj, status, provider=provider,
                                          deposed=deposed)

    def new_deposed_key(self, addr: AbsResourceInstance) -> str:
        """A fresh 8-hex-digit deposed key for `addr` (as terraform's NewDeposedKey)."""
        import secrets

        key = secrets.token_hex(4)
        with self._mu:
            self.deposed_keys[addr] = key
        return key
