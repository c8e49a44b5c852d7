"""State surgery shared by every front end: terraform 1.11's `state mv` and `state rm` on
in-memory states, with nothing printed and nothing persisted.

`move(state_from, state_to, source, destination, dry_run)` moves the objects the source
address selects (terraform's `state mv`):

- a module moves with every module nested in it (each is one moved object); the
  destination module must not exist yet;
- a whole resource (a source without a key whose resource has `count`/`for_each`) moves to
  a whole resource address that is free; a resource without `count`/`for_each` is moved as
  its single instance, so `a.b` can become `a.c[1]`;
- an instance moves to a free instance address (a resource address means its key-less
  instance), creating the destination resource with the source's provider when needed;
- mode and type must not change; whatever depends on a moved object forgets its recorded
  dependencies (the next apply records them again).

`remove(state, addresses, dry_run)` forgets the instances the addresses select (terraform's
`state rm`): addresses that select nothing are not an error, and a resource left without
instances goes too.

Both return what they did (or would do) in order, with terraform's diagnostics; on a refusal
the states may be partly changed, so callers edit copies (`engine.states.edit.copy_state_file`)
and persist only a result without `refused`. The CLI commands print the results; the control
plane's state inspector answers them as JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.addrs import AbsResource, AbsResourceInstance, ModuleInstance, ResourceMode
from engine.diags import Diagnostics, error
from engine.operations.state_addrs import Target, parse_target_str
from engine.states import edit
from engine.states.edit import (
    find_instance,
    find_resource,
    instance_order,
    instances_in_module,
    is_ancestor,
    module_contains,
    module_instances,
    resource_instances,
)
from engine.states.state import State

_INVALID_SOURCE = "Invalid source address"
_INVALID_TARGET = "Invalid target address"


@dataclass
class MoveResult:
    """What a move did: (object, destination as terraform's message names it) pairs in
    order; `diagnostics` (errors mean nothing must be persisted); `refused` is the plain
    reason terraform prints as "Error moving state: ..." (no diagnostics then)."""

    moves: list[tuple[str, str]] = field(default_factory=list)
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    refused: str = ""

    @property
    def failed(self) -> bool:
        return bool(self.refused) or self.diagnostics.has_errors


#: terraform's `state rm` error detail ("Invalid target address") when no address selects
#: anything; nothing is written then
NOTHING_MATCHED = ('No matching objects found. To view the available instances, use "groundplan '
                   'state list". Please modify the address to reference a specific instance.')


@dataclass
class RemoveResult:
    """What a removal did: the removed (or, dry, selected) instances in terraform's order and
    the diagnostics; `nothing_matched` when no address selected anything."""

    removed: list[AbsResourceInstance] = field(default_factory=list)
    diagnostics: Diagnostics = field(default_factory=Diagnostics)

    @property
    def nothing_matched(self) -> bool:
        return not self.removed and not self.diagnostics.has_errors


class _Refused(Exception):
    def __init__(self, diags: Diagnostics | None = None, text: str = "") -> None:
        super().__init__(text)
        self.diags = diags
        self.text = text


def move(state_from: State, state_to: State, source: str, destination: str,
         dry_run: bool = False) -> MoveResult:
    """Move what `source` selects in `state_from` to `destination` in `state_to` (the same
    object for a move within one state); see the module docstring."""
    result = MoveResult()
    diags = result.diagnostics
    src, more = parse_target_str(source)
    diags.extend(more)
    dst, more = parse_target_str(destination)
    diags.extend(more)
    if src is None or dst is None or diags.has_errors:
        return result
    objects = _source_objects(state_from, src)
    if not objects:
        diags.append(error(_INVALID_SOURCE, f"Cannot move {src}: does not match anything in "
                                            "the current state."))
        return result
    try:
        for obj in objects:
            shown_to = _move_one(state_from, state_to, src, obj, dst, destination, dry_run)
            result.moves.append((str(obj), shown_to))
            edit.clear_dependencies(state_to, obj)
    except _Refused as refused:
        if refused.diags is not None:
            diags.extend(refused.diags)
        else:
            result.refused = refused.text
    return result


def remove(state: State, addresses: list[str], dry_run: bool = False) -> RemoveResult:
    """Forget every instance `addresses` select (unless `dry_run`); see the module docstring."""
    result = RemoveResult()
    for text in addresses:
        found, more = lookup_instances(state, text, allow_missing=True)
        result.removed.extend(found)
        result.diagnostics.extend(more)
    if result.diagnostics.has_errors or dry_run:
        return result
    for addr in result.removed:
        edit.forget_instance(state, addr)
    return result


def lookup_instances(
    state: State, text: str, allow_missing: bool
) -> tuple[list[AbsResourceInstance], Diagnostics]:
    """terraform's lookupResourceInstanceAddr: the instances address `text` selects, sorted.

    A module selects every instance in it and in its descendants (a module call without a
    key selects all of its instances); a resource all of its instances; an instance itself.
    Unless `allow_missing`, selecting nothing is terraform's "Unknown module" / "Unknown
    resource" / "Unknown resource instance" error."""
    target, diags = parse_target_str(text)
    found: list[AbsResourceInstance] = []
    if target is None:
        return found, diags
    if isinstance(target, ModuleInstance):
        modules = [m for m in module_instances(state)
                   if m == target or is_ancestor(target, m) or module_contains(target, m)]
        if not modules and not allow_missing:
            diags.append(error(
                "Unknown module",
                f"The current state contains no module at {target}. If you've just added "
                "this module to the configuration, you must run \"groundplan apply\" first to "
                "create the module's entry in the state."))
        for m in modules:
            found.extend(instances_in_module(state, m))
    elif isinstance(target, AbsResource):
        rs = find_resource(state, target)
        if rs is None:
            if not allow_missing:
                diags.append(error(
                    "Unknown resource",
                    f"The current state contains no resource {target}. If you've just added "
                    "this resource to the configuration, you must run \"groundplan apply\" "
                    "first to create the resource's entry in the state."))
        else:
            found.extend(resource_instances(rs))
    elif find_instance(state, target) is None:
        if not allow_missing:
            diags.append(error(
                "Unknown resource instance",
                f"The current state contains no resource instance {target}. If you've just "
                "added its resource to the configuration or have changed the count or "
                "for_each arguments, you must run \"groundplan apply\" first to update the "
                "resource's entry in the state."))
    else:
        found.append(target)
    return sorted(found, key=instance_order), diags


def _source_objects(state: State, matched: Target) -> list[Target]:
    """terraform's sourceObjectAddrs: a module and the modules nested in it; a resource
    without count/for_each as its single instance; anything else as given."""
    if isinstance(matched, ModuleInstance):
        n = len(matched.steps)
        return [m for m in edit.module_instances(state)
                if len(m.steps) >= n and n and ModuleInstance(m.steps[:n]) == matched]
    if isinstance(matched, AbsResource):
        rs = edit.find_resource(state, matched)
        if rs is None:
            return []
        if edit.find_instance(state, matched.instance(None)) is not None:
            return [matched.instance(None)]
        return [matched]
    return [matched]


def _move_one(
    state_from: State, state_to: State, search: Target, obj: Target, dst: Target,
    dst_text: str, dry_run: bool,
) -> str:
    """Move one object (unless `dry_run`); the destination as the move message names it."""
    if isinstance(obj, ModuleInstance):
        return _move_module(state_from, state_to, search, obj, dst, dry_run)
    if isinstance(obj, AbsResource):
        return _move_resource(state_from, state_to, obj, dst, dry_run)
    _move_instance(state_from, state_to, obj, dst, dry_run)
    return dst_text


def _refuse(summary: str, detail: str) -> _Refused:
    diags = Diagnostics()
    diags.append(error(summary, detail))
    return _Refused(diags)


def _move_module(
    state_from: State, state_to: State, search: Target, obj: ModuleInstance, dst: Target,
    dry_run: bool,
) -> str:
    if not isinstance(dst, ModuleInstance):
        raise _refuse(_INVALID_TARGET,
                      f"Cannot move {obj} to {dst}: the target must also be a module.")
    assert isinstance(search, ModuleInstance)
    to = ModuleInstance(dst.steps + obj.steps[len(search.steps):])
    if edit.has_module(state_to, to):
        raise _Refused(text="destination module already exists")
    if not dry_run:
        edit.put_module(state_to, to, edit.take_module(state_from, obj))
    return str(to)


def _validate(addr_from: AbsResource, addr_to: AbsResource) -> Diagnostics:
    """terraform's validateResourceMove: the mode and the type must stay."""
    diags = Diagnostics()
    invalid = "Invalid state move request"
    if addr_from.resource.mode is not addr_to.resource.mode:
        kind = "managed" if addr_from.resource.mode is ResourceMode.MANAGED else "data"
        diags.append(error(invalid, f"Cannot move {addr_from} to {addr_to}: a {kind} resource "
                                    f"can be moved only to another {kind} resource address."))
    if addr_from.resource.type != addr_to.resource.type:
        diags.append(error(invalid, f"Cannot move {addr_from} to {addr_to}: resource types "
                                    "don't match."))
    return diags


def _move_resource(
    state_from: State, state_to: State, obj: AbsResource, dst: Target, dry_run: bool
) -> str:
    if not isinstance(dst, AbsResource):
        raise _refuse(_INVALID_TARGET,
                      f"Cannot move {obj} to {dst}: the source is a whole resource (not a "
                      "resource instance) so the target must also be a whole resource.")
    diags = _validate(obj, dst)
    if edit.find_resource(state_to, dst) is not None:
        diags.append(error(_INVALID_TARGET, f"Cannot move to {dst}: there is already a "
                                            "resource at that address in the current state."))
    if edit.find_resource(state_from, obj) is None:
        diags.append(error(_INVALID_SOURCE, f"The current state does not contain {obj}."))
    if diags.has_errors:
        raise _Refused(diags)
    if not dry_run:
        rs = edit.take_resource(state_from, obj)
        assert rs is not None
        edit.put_resource(state_to, dst, rs)
    return str(dst)


def _move_instance(
    state_from: State, state_to: State, obj: AbsResourceInstance, dst: Target, dry_run: bool
) -> None:
    if isinstance(dst, AbsResource):
        dst = dst.instance(None)
    if not isinstance(dst, AbsResourceInstance):
        raise _refuse(_INVALID_TARGET, f"Cannot move {obj} to {dst}: the target must also be "
                                       "a resource instance.")
    diags = _validate(obj.abs_resource, dst.abs_resource)
    if edit.find_instance(state_to, dst) is not None:
        diags.append(error(_INVALID_TARGET, f"Cannot move to {dst}: there is already a "
                                            "resource instance at that address in the current "
                                            "state."))
    inst = edit.find_instance(state_from, obj)
    if inst is None:
        diags.append(error(_INVALID_SOURCE, f"The current state does not contain {obj}."))
    if diags.has_errors:
        raise _Refused(diags)
    if dry_run:
        return
    assert inst is not None
    rs = edit.find_resource(state_from, obj.abs_resource)
    provider = rs.provider if rs is not None else ""
    edit.forget_instance(state_from, obj)
    edit.put_instance(state_to, dst, inst, provider)
