"""`SyncState`: the thread-safe working state of one graph walk.

Workers set and remove resource instance objects (current or deposed) by address and set
root outputs while the walk runs; the persister takes `snapshot()`s. Each change is O(1): the
state is held indexed by resource and by instance key, and the `State` model's lists are only
built when a snapshot is taken. A snapshot is a deep copy, so it can be serialised while the
walk goes on changing the working state.

Objects handed to `set_current`/`set_deposed` belong to the SyncState from then on (callers
must not mutate them); objects returned by `current`/`deposed` are copies. A caller that treats
its objects as immutable (the planner: nothing mutates a prior object in place, refreshes
replace them) can skip the copies at both ends: `SyncState(state, share=True)` adopts the
initial objects, and `snapshot(share=True)` hands the working objects out.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from engine.addrs import AbsResourceInstance, InstanceKey, ResourceMode
from engine.states.state import (
    CheckResult,
    OutputValue,
    Resource,
    ResourceInstance,
    ResourceInstanceObject,
    State,
)

# (module path text, mode, type, name): how the state file groups instances into resources.
ResourceKey = tuple[str, str, str, str]
_KeyId = tuple[str, int | str | None]  # instance keys tagged by kind (so 0 and "0" differ)


def copy_data(data: Any) -> Any:
    """A deep copy of decoded JSON data (dicts, lists, strings, numbers, booleans, None)."""
    if isinstance(data, dict):
        return {k: copy_data(v) for k, v in data.items()}
    if isinstance(data, list):
        return [copy_data(v) for v in data]
    return data  # immutable: str (RawNumber too), int, float, bool, None


def copy_object(obj: ResourceInstanceObject) -> ResourceInstanceObject:
    """A deep copy of a resource instance object."""
    return ResourceInstanceObject(
        schema_version=obj.schema_version,
        attributes=copy_data(obj.attributes),
        attributes_flat=dict(obj.attributes_flat) if obj.attributes_flat is not None else None,
        sensitive_attributes=copy_data(obj.sensitive_attributes),
        private=obj.private,
        dependencies=list(obj.dependencies),
        create_before_destroy=obj.create_before_destroy,
        status=obj.status,
    )


def _shared(obj: ResourceInstanceObject) -> ResourceInstanceObject:
    return obj


def resource_key(addr: AbsResourceInstance) -> ResourceKey:
    """The state-file resource an instance address belongs to."""
    res = addr.resource
    mode = "managed" if res.mode is ResourceMode.MANAGED else "data"
    return (str(addr.module), mode, res.type, res.name)


def _key_id(key: InstanceKey) -> _KeyId:
    return (type(key).__name__, key)


@dataclass(slots=True)
class _Res:
    """One state-file resource in the working state: its provider, each-mode and instances by key.
    """

    provider: str
    each: str = ""
    instances: dict[_KeyId, ResourceInstance] = field(default_factory=dict)


class SyncState:
    """A mutable, lock-protected, indexed working copy of a `State`."""

    def __init__(self, initial: State | None = None, share: bool = False) -> None:
        self._mu = threading.Lock()
        self._resources: dict[ResourceKey, _Res] = {}
        self._outputs: dict[str, OutputValue] = {}
        self._check_results: list[CheckResult] | None = (
            None if initial is None else initial.check_results
        )
        self._changes = 0
        if initial is not None:
            self._load(initial, share)

    def _load(self, state: State, share: bool) -> None:
        copy = _shared if share else copy_object
        self._outputs = dict(state.outputs)
        for rs in state.resources:
            entry = self._resources.setdefault(
                (rs.module, rs.mode, rs.type, rs.name), _Res(rs.provider, rs.each)
            )
            for inst in rs.instances:
                entry.instances[_key_id(inst.index_key)] = ResourceInstance(
                    inst.index_key,
                    copy(inst.current) if inst.current is not None else None,
                    {k: copy(o) for k, o in inst.deposed.items()},
                )

    @property
    def changes(self) -> int:
        """How many changes were made since this SyncState was created."""
        return self._changes

    # -------------------------------------------------------------------- resource objects
    def _instance(self, addr: AbsResourceInstance, provider: str) -> ResourceInstance:
        entry = self._resources.get(resource_key(addr))
        if entry is None:
            entry = self._resources[resource_key(addr)] = _Res(provider)
        elif provider:
            entry.provider = provider
        kid = _key_id(addr.key)
        inst = entry.instances.get(kid)
        if inst is None:
            inst = entry.instances[kid] = ResourceInstance(addr.key)
        return inst

    def _existing(self, addr: AbsResourceInstance) -> ResourceInstance | None:
        entry = self._resources.get(resource_key(addr))
        return None if entry is None else entry.instances.get(_key_id(addr.key))

    def set_current(
        self, addr: AbsResourceInstance, obj: ResourceInstanceObject, provider: str
    ) -> None:
        """Make `obj` the current object of `addr` (its resource recorded with `provider`)."""
        with self._mu:
            self._instance(addr, provider).current = obj
            self._changes += 1

    def set_deposed(
        self, addr: AbsResourceInstance, deposed_key: str, obj: ResourceInstanceObject,
        provider: str,
    ) -> None:
        """Record `obj` as the deposed object `deposed_key` of `addr`."""
        with self._mu:
            self._instance(addr, provider).deposed[deposed_key] = obj
            self._changes += 1

    def remove_current(self, addr: AbsResourceInstance) -> None:
        """Forget the current object of `addr` (no-op when there is none)."""
        with self._mu:
            inst = self._existing(addr)
            if inst is not None:
                inst.current = None
                self._changes += 1

    def remove_deposed(self, addr: AbsResourceInstance, deposed_key: str) -> None:
        """Forget the deposed object `deposed_key` of `addr` (no-op when there is none)."""
        with self._mu:
            inst = self._existing(addr)
            if inst is not None and inst.deposed.pop(deposed_key, None) is not None:
                self._changes += 1

    def current(self, addr: AbsResourceInstance) -> ResourceInstanceObject | None:
        """A copy of the current object of `addr`, or None."""
        with self._mu:
            inst = self._existing(addr)
            obj = None if inst is None else inst.current
            return None if obj is None else copy_object(obj)

    def deposed(self, addr: AbsResourceInstance, deposed_key: str) -> ResourceInstanceObject | None:
        """A copy of the deposed object `deposed_key` of `addr`, or None."""
        with self._mu:
            inst = self._existing(addr)
            obj = None if inst is None else inst.deposed.get(deposed_key)
            return None if obj is None else copy_object(obj)

    # -------------------------------------------------------------------- outputs
    def set_output(self, name: str, value: OutputValue) -> None:
        """Set a root module output (values are immutable, so no copy is needed)."""
        with self._mu:
            self._outputs[name] = value
            self._changes += 1

    def remove_output(self, name: str) -> None:
        with self._mu:
            if self._outputs.pop(name, None) is not None:
                self._changes += 1

    # -------------------------------------------------------------------- check results
    def set_check_results(self, results: list[CheckResult] | None) -> None:
        """Replace the recorded check results (terraform's RecordCheckResults)."""
        with self._mu:
            self._check_results = results
            self._changes += 1

    # -------------------------------------------------------------------- snapshots
    def snapshot(self, share: bool = False) -> State:
        """A deep copy of the working state as a `State` (empty instances and resources out);
        with `share`, the objects themselves (for a caller that never mutates them)."""
        copy = _shared if share else copy_object
        with self._mu:
            resources: list[Resource] = []
            for (module, mode, rtype, name), entry in self._resources.items():
                instances = [
                    ResourceInstance(
                        inst.index_key,
                        copy(inst.current) if inst.current is not None else None,
                        {k: copy(o) for k, o in inst.deposed.items()},
                    )
                    for inst in entry.instances.values()
                    if inst.current is not None or inst.deposed
                ]
                if instances:
                    resources.append(
                        Resource(mode, rtype, name, entry.provider, module, entry.each, instances)
                    )
            return State(
                outputs=dict(self._outputs),
                resources=resources,
                check_results=self._check_results,
            )


__all__ = ["ResourceKey", "SyncState", "copy_data", "copy_object", "resource_key"]
