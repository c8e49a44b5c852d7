"""Editing a `State` by address: what `state mv`, `state rm` and `state replace-provider` do.

The state model keeps resources in one flat list, each naming its module instance as text;
terraform keeps them grouped by module. This module gives the grouped view the state
commands need — which module instances exist, a resource or instance by address — and the
edits, with terraform's semantics (`states.SyncState`'s `ForgetResourceInstanceAll`,
`RemoveResourceIfEmpty`, `RemoveModule`, ...):

- a module instance "exists" when some resource lives directly in it (the root always does);
- removing an instance removes its current and deposed objects, and the resource with it
  when no instance is left;
- moved objects keep their provider configuration, status, attributes and dependencies.

Every function edits the `State` it is given in place; none reads or writes files.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from functools import lru_cache

from engine.addrs import (
    AbsProviderConfig,
    AbsResource,
    AbsResourceInstance,
    AddressSyntaxError,
    ModuleInstance,
    Provider,
    ResourceMode,
    key_sort,
    parse_abs_provider_config,
    parse_abs_resource,
    parse_module_instance,
)
from engine.addrs.resources import Resource as ResourceAddr
from engine.states.state import Resource, ResourceInstance, State, StateFile
from engine.states.sync import copy_object

Target = ModuleInstance | AbsResource | AbsResourceInstance


def copy_state_file(sf: StateFile) -> StateFile:
    """A deep copy of `sf` to edit (the snapshot read stays as it was, so the persistence
    policy can tell whether anything changed)."""
    st = sf.state
    resources = [
        Resource(rs.mode, rs.type, rs.name, rs.provider, rs.module, rs.each, [
            ResourceInstance(
                inst.index_key,
                copy_object(inst.current) if inst.current is not None else None,
                {k: copy_object(o) for k, o in inst.deposed.items()})
            for inst in rs.instances])
        for rs in st.resources
    ]
    checks = None if st.check_results is None else copy.deepcopy(st.check_results)
    state = State(outputs=dict(st.outputs), resources=resources, check_results=checks)
    return StateFile(state, sf.lineage, sf.serial, sf.terraform_version)


# ------------------------------------------------------------------------------ ordering
def module_order(m: ModuleInstance) -> tuple[object, ...]:
    """terraform's ModuleInstance.Less: shorter paths first, then step by step."""
    return (len(m.steps), m.sort_key())


def resource_order(r: ResourceAddr) -> tuple[int, str, str]:
    """terraform's Resource.Less: data resources before managed ones, then type, name."""
    return (0 if r.mode is ResourceMode.DATA else 1, r.type, r.name)


def instance_order(a: AbsResourceInstance) -> tuple[object, ...]:
    """terraform's AbsResourceInstance.Less (the order `state list` and `state rm` print)."""
    return (module_order(a.module), resource_order(a.resource), key_sort(a.key))


def resource_addr_order(a: AbsResource) -> tuple[object, ...]:
    return (module_order(a.module), resource_order(a.resource))


# ------------------------------------------------------------------------------ addresses
def module_of(rs: Resource) -> ModuleInstance:
    """The module instance a state resource lives in."""
    return _module(rs.module)


@lru_cache(maxsize=4096)
def _module(text: str) -> ModuleInstance:
    try:
        return parse_module_instance(text)
    except AddressSyntaxError:  # a state file that names an impossible module
        return ModuleInstance()


def address_of(rs: Resource) -> AbsResource:
    mode = ResourceMode.MANAGED if rs.mode == "managed" else ResourceMode.DATA
    return AbsResource(module_of(rs), ResourceAddr(mode, rs.type, rs.name))


def instance_address(rs: Resource, inst: ResourceInstance) -> AbsResourceInstance:
    return address_of(rs).instance(inst.index_key)


def module_instances(state: State) -> list[ModuleInstance]:
    """The module instances that exist in `state` (the root first), in terraform's order."""
    found = {module_of(rs) for rs in state.resources}
    found.add(ModuleInstance())
    return sorted(found, key=module_order)


def has_module(state: State, module: ModuleInstance) -> bool:
    return module.is_root or any(module_of(rs) == module for rs in state.resources)


def find_resource(state: State, addr: AbsResource) -> Resource | None:
    r = addr.resource
    mode = "managed" if r.mode is ResourceMode.MANAGED else "data"
    for rs in state.resources:
        if (rs.name == r.name and rs.type == r.type and rs.mode == mode
                and module_of(rs) == addr.module):
            return rs
    return None


def _key_id(key: object) -> tuple[str, object]:
    return (type(key).__name__, key)


def find_instance(state: State, addr: AbsResourceInstance) -> ResourceInstance | None:
    rs = find_resource(state, addr.abs_resource)
    if rs is None:
        return None
    for inst in rs.instances:
        if _key_id(inst.index_key) == _key_id(addr.key):
            return inst
    return None


def resource_instances(rs: Resource) -> list[AbsResourceInstance]:
    """Every instance address of `rs` (with a current or only deposed objects)."""
    return [instance_address(rs, inst) for inst in rs.instances]


def module_contains(outer: ModuleInstance, inner: ModuleInstance) -> bool:
    """terraform's ModuleInstance.TargetContains for another module instance: a prefix, where
    a last step without a key covers every instance of that call."""
    if len(inner.steps) < len(outer.steps):
        return False
    for i, step in enumerate(outer.steps):
        other = inner.steps[i]
        if step.name != other.name:
            return False
        if i == len(outer.steps) - 1 and step.key is None:
            return True
        if _key_id(step.key) != _key_id(other.key):
            return False
    return True


def is_ancestor(outer: ModuleInstance, inner: ModuleInstance) -> bool:
    """Whether `outer` is a strict prefix of `inner` (keys compared exactly)."""
    n = len(outer.steps)
    return len(inner.steps) > n and all(
        _key_id(a.key) == _key_id(b.key) and a.name == b.name
        for a, b in zip(outer.steps, inner.steps[:n], strict=True)
    )


def instances_in_module(state: State, module: ModuleInstance) -> list[AbsResourceInstance]:
    """Every instance directly in `module`, in state order."""
    return [a for rs in state.resources if module_of(rs) == module for a in resource_instances(rs)]


# ------------------------------------------------------------------------------ removing
def forget_instance(state: State, addr: AbsResourceInstance) -> None:
    """Remove the instance's current and deposed objects, and its resource when it has no
    instance left (ForgetResourceInstanceAll, then RemoveResourceIfEmpty)."""
    rs = find_resource(state, addr.abs_resource)
    if rs is None:
        return
    rs.instances = [i for i in rs.instances if _key_id(i.index_key) != _key_id(addr.key)]
    if not rs.instances:
        state.resources.remove(rs)


# ------------------------------------------------------------------------------ moving
def take_module(state: State, module: ModuleInstance) -> list[Resource]:
    """Remove and return the resources that live directly in `module`."""
    taken = [rs for rs in state.resources if module_of(rs) == module]
    state.resources[:] = [rs for rs in state.resources if module_of(rs) != module]
    return taken


def put_module(state: State, module: ModuleInstance, resources: Iterable[Resource]) -> None:
    """Add `resources` to `state` as living in `module`."""
    for rs in resources:
        rs.module = str(module)
        state.resources.append(rs)


def take_resource(state: State, addr: AbsResource) -> Resource | None:
    rs = find_resource(state, addr)
    if rs is not None:
        state.resources.remove(rs)
    return rs


def put_resource(state: State, addr: AbsResource, rs: Resource) -> None:
    """Add resource `rs` to `state` at `addr` (its provider, instances and objects kept)."""
    rs.module = str(addr.module)
    rs.mode = "managed" if addr.resource.mode is ResourceMode.MANAGED else "data"
    rs.type, rs.name = addr.resource.type, addr.resource.name
    state.resources.append(rs)


def put_instance(
    state: State, addr: AbsResourceInstance, inst: ResourceInstance, provider: str
) -> None:
    """Set `inst` as the instance at `addr`; a resource that does not exist yet is created
    with `provider` (the moved instance's own)."""
    rs = find_resource(state, addr.abs_resource)
    if rs is None:
        rs = Resource(mode="", type="", name="", provider=provider)
        put_resource(state, addr.abs_resource, rs)
    inst.index_key = addr.key
    rs.instances = [i for i in rs.instances if _key_id(i.index_key) != _key_id(addr.key)]
    rs.instances.append(inst)


def _dependency_matches(dep: str, moved: Target) -> bool:
    """terraform's `dep.TargetContains(moved) || moved.TargetContains(dep)` for a recorded
    dependency (a resource in a static module path)."""
    try:
        dep_addr = parse_abs_resource(dep)
    except AddressSyntaxError:
        return False
    dep_names = [s.name for s in dep_addr.module.steps]
    if isinstance(moved, ModuleInstance):
        steps = moved.steps
        return len(dep_names) >= len(steps) and all(
            s.key is None and s.name == dep_names[i] for i, s in enumerate(steps)
        )
    resource = moved if isinstance(moved, AbsResource) else moved.abs_resource
    return str(resource.config()) == str(dep_addr.config())


def clear_dependencies(state: State, moved: Target) -> None:
    """Forget the recorded dependencies of every current object that depends on what was
    moved (or on something inside it), so the next apply records them afresh."""
    for rs in state.resources:
        for inst in rs.instances:
            obj = inst.current
            if obj is None:
                continue
            if any(_dependency_matches(d, moved) for d in obj.dependencies):
                obj.dependencies = []


# ------------------------------------------------------------------------------ providers
def resources_using(state: State, provider: Provider) -> list[Resource]:
    """The resources whose provider configuration is for `provider`, in terraform's order."""
    found: list[Resource] = []
    for rs in state.resources:
        config = _provider_config(rs)
        if config is not None and config.provider == provider:
            found.append(rs)
    return sorted(found, key=lambda r: resource_addr_order(address_of(r)))


def _provider_config(rs: Resource) -> AbsProviderConfig | None:
    try:
        return parse_abs_provider_config(rs.provider)
    except AddressSyntaxError:
        return None


def replace_provider(rs: Resource, provider: Provider) -> None:
    """Point `rs` at `provider`, keeping the configuration's module and alias."""
    config = _provider_config(rs)
    if config is not None:
        rs.provider = str(AbsProviderConfig(config.module, provider, config.alias))


__all__ = [
    "Target", "address_of", "copy_state_file", "clear_dependencies", "find_instance", "find_resource",
    "forget_instance", "has_module", "instance_address", "instance_order", "instances_in_module",
    "is_ancestor", "module_contains", "module_instances", "module_order", "put_instance",
    "put_module", "put_resource", "replace_provider", "resource_addr_order", "resource_instances",
    "resources_using", "take_module", "take_resource",
]
