"""Move endpoints relative to the module that declares them (terraform's MoveEndpointInModule).

A `moved` block in module `M` selects objects in *every* instance of `M`: its endpoints are a
pattern made of the declaring module path (wildcard instance keys) and a relative subject,
one of

- `ModuleInstance`: a module instance, `module.a[0]` (relative to `M`);
- `ModuleCallRel`: every instance of a module call, `module.a`;
- `AbsResource`: every instance of a resource, `module.x.aws_y.z` (module part relative);
- `AbsResourceInstance`: one resource instance, `aws_y.z["k"]`.

`endpoint(module_path, config_endpoint)` builds one; `unify(from, to)` turns a pair written
as (resource, instance) or (call, module instance) into two of the instance kind, as
terraform's UnifyMoveEndpoints does. The matching rules (`selects_module`,
`selects_resource`, `can_chain_from`, `nested_within`, `*_destination`, `is_module_reindex`)
follow terraform's addrs package exactly; `str()` is terraform's `[*]` pattern notation.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.addrs import (
    AbsResource,
    AbsResourceInstance,
    AddressSyntaxError,
    ModuleInstance,
    ModuleInstanceStep,
    parse_abs_resource_instance,
)
from engine.addrs.parse import split_steps
from engine.source import Range


@dataclass(frozen=True, slots=True)
class ModuleCallRel:
    """All instances of call `name` in module instance `module` (relative)."""

    module: ModuleInstance
    name: str

    def instance(self, key: int | str | None) -> ModuleInstance:
        return self.module.child(self.name, key)

    def __str__(self) -> str:
        own = f"module.{self.name}"
        return f"{self.module}.{own}" if self.module.steps else own


Rel = ModuleInstance | ModuleCallRel | AbsResource | AbsResourceInstance

_ANY = object()  # the wildcard instance key of a declaring module's steps
SynthStep = tuple[str, object]


@dataclass(frozen=True, slots=True)
class MoveEndpoint:
    """One endpoint: declaring module path, relative subject, and where it was written."""

    module: tuple[str, ...]
    rel: Rel
    range: Range | None = None

    @property
    def kind(self) -> str:
        """"module" or "resource"."""
        return "module" if isinstance(self.rel, (ModuleInstance, ModuleCallRel)) else "resource"

    def __str__(self) -> str:
        prefix = "".join(f"module.{n}[*]." for n in self.module)
        tail = "[*]" if isinstance(self.rel, (ModuleCallRel, AbsResource)) else ""
        return f"{prefix}{self.rel}{tail}"

    def rel_module(self) -> ModuleInstance:
        """The module steps of the subject (for a module instance: all but the last)."""
        rel = self.rel
        if isinstance(rel, ModuleInstance):
            return ModuleInstance(rel.steps[:-1])
        return rel.module

    def synth(self) -> list[SynthStep]:
        """The full module path, declaring steps and any call with wildcard keys."""
        out: list[SynthStep] = [(n, _ANY) for n in self.module]
        rel = self.rel
        if isinstance(rel, ModuleInstance):
            out.extend((s.name, s.key) for s in rel.steps)
        elif isinstance(rel, ModuleCallRel):
            out.extend((s.name, s.key) for s in rel.module.steps)
            out.append((rel.name, _ANY))
        else:
            out.extend((s.name, s.key) for s in rel.module.steps)
        return out

    def in_module_instance(self, mi: ModuleInstance) -> Rel:
        """The absolute address this endpoint names in instance `mi` of its module."""
        rel = self.rel
        if isinstance(rel, ModuleInstance):
            return ModuleInstance((*mi.steps, *rel.steps))
        base = ModuleInstance((*mi.steps, *rel.module.steps))
        if isinstance(rel, ModuleCallRel):
            return ModuleCallRel(base, rel.name)
        if isinstance(rel, AbsResource):
            return AbsResource(base, rel.resource)
        return AbsResourceInstance(base, rel.resource, rel.key)

    def selects_module(self, mi: ModuleInstance) -> bool:
        synth = self.synth()
        if len(synth) != len(mi.steps):
            return False
        for (name, key), step in zip(synth, mi.steps):
            if name != step.name or (key is not _ANY and key != step.key):
                return False
        return True

    def selects_resource(self, addr: AbsResource) -> bool:
        rel = self.rel
        if not isinstance(rel, (AbsResource, AbsResourceInstance)):
            return False
        return self.selects_module(addr.module) and rel.resource == addr.resource

    def can_chain_from(self, other: MoveEndpoint) -> bool:
        e, o = self.synth(), other.synth()
        if len(e) != len(o) or not _can_match(o, e):
            return False
        es, os_ = self.rel, other.rel
        if isinstance(os_, (ModuleCallRel, ModuleInstance)):
            return isinstance(es, (ModuleCallRel, ModuleInstance))
        if isinstance(os_, AbsResource):
            return isinstance(es, AbsResource) and es.resource == os_.resource
        return isinstance(es, AbsResourceInstance) and es.resource == os_.resource and \
            es.key == os_.key

    def nested_within(self, other: MoveEndpoint) -> bool:
        e, o = self.synth(), other.synth()
        if len(o) > len(e) or not _can_match(o, e):
            return False
        es, os_ = self.rel, other.rel
        if isinstance(os_, ModuleCallRel):
            return len(e) > len(o) if isinstance(es, ModuleCallRel) else True
        if isinstance(os_, ModuleInstance):
            return len(e) > len(o) if isinstance(es, (ModuleInstance, ModuleCallRel)) else True
        if isinstance(os_, AbsResource):
            return len(e) == len(o) and isinstance(es, AbsResourceInstance) and \
                es.resource == os_.resource
        return False

    def is_module_reindex(self, to: MoveEndpoint) -> bool:
        f, t = self.rel, to.rel
        if isinstance(f, ModuleCallRel) and isinstance(t, ModuleInstance):
            return f.instance(None).module() == t.module()
        if isinstance(f, ModuleInstance) and isinstance(t, ModuleCallRel):
            return t.instance(None).module() == f.module()
        if isinstance(f, ModuleInstance) and isinstance(t, ModuleInstance):
            return t.module() == f.module()
        return False

    def _split(self, mi: ModuleInstance) -> tuple[tuple[ModuleInstanceStep, ...],
                                                  tuple[ModuleInstanceStep, ...]] | None:
        n = len(self.module)
        if n > len(mi.steps) or any(self.module[i] != mi.steps[i].name for i in range(n)):
            return None
        return mi.steps[:n], mi.steps[n:]


def _can_match(a: list[SynthStep], b: list[SynthStep]) -> bool:
    for (an, ak), (bn, bk) in zip(a, b):
        if an != bn or (ak is not _ANY and bk is not _ANY and ak != bk):
            return False
    return True


def module_destination(mi: ModuleInstance, frm: MoveEndpoint,
                       to: MoveEndpoint) -> ModuleInstance | None:
    """Where module instance `mi` moves under a module statement (None: not selected)."""
    if mi.is_root or frm.kind != "module":
        return None
    split = frm._split(mi)
    if split is None:
        return None
    prefix, rel = split
    rel_from = frm.rel
    if isinstance(rel_from, ModuleInstance):
        if len(rel_from.steps) > len(rel) or rel[: len(rel_from.steps)] != rel_from.steps:
            return None
        assert isinstance(to.rel, ModuleInstance)
        new, suffix = to.rel.steps, rel[len(rel_from.steps):]
    else:
        assert isinstance(rel_from, ModuleCallRel)
        n = len(rel_from.module.steps)
        if n > len(rel) - 1 or rel[:n] != rel_from.module.steps or rel[n].name != rel_from.name:
            return None
        assert isinstance(to.rel, ModuleCallRel)
        new, suffix = to.rel.instance(rel[n].key).steps, rel[n + 1:]
    return ModuleInstance((*prefix, *new, *suffix))


def resource_destination(addr: AbsResource, frm: MoveEndpoint,
                         to: MoveEndpoint) -> AbsResource | None:
    """Where a whole resource moves (None: the statement does not select it as a whole)."""
    if frm.kind == "module":
        mod = module_destination(addr.module, frm, to)
        return None if mod is None else AbsResource(mod, addr.resource)
    rel_from = frm.rel
    if not isinstance(rel_from, AbsResource) or rel_from.resource != addr.resource:
        return None
    split = frm._split(addr.module)
    if split is None or split[1] != rel_from.module.steps:
        return None
    assert isinstance(to.rel, AbsResource)
    return AbsResource(ModuleInstance((*split[0], *to.rel.module.steps)), to.rel.resource)


def instance_destination(addr: AbsResourceInstance, frm: MoveEndpoint,
                         to: MoveEndpoint) -> AbsResourceInstance | None:
    """Where one resource instance moves (None: not selected)."""
    if frm.kind == "module" or isinstance(frm.rel, AbsResource):
        res = resource_destination(addr.abs_resource, frm, to)
        return None if res is None else res.instance(addr.key)
    rel_from = frm.rel
    assert isinstance(rel_from, AbsResourceInstance)
    if rel_from.resource != addr.resource or rel_from.key != addr.key:
        return None
    split = frm._split(addr.module)
    if split is None or split[1] != rel_from.module.steps:
        return None
    assert isinstance(to.rel, AbsResourceInstance)
    return AbsResourceInstance(ModuleInstance((*split[0], *to.rel.module.steps)),
                               to.rel.resource, to.rel.key)


def parse_rel(text: str, last_is_key: bool) -> Rel:
    """A relative endpoint from its address text; `last_is_key`: it ends with `[...]`.

    Raises AddressSyntaxError."""
    steps = split_steps(text)
    names = [s for s in steps if s[0] == "name"]
    if (names and names[-1] == ("name", "module")) or not steps:
        raise AddressSyntaxError('Prefix "module." must be followed by a module name.')
    i, path = 0, []
    while i < len(steps) and steps[i] == ("name", "module"):
        name = steps[i + 1][1]
        assert isinstance(name, str)
        key = None
        i += 2
        if i < len(steps) and steps[i][0] == "key":
            key, i = steps[i][1], i + 1
        path.append(ModuleInstanceStep(name, key))
    if i == len(steps):
        mi = ModuleInstance(tuple(path))
        if last_is_key:
            return mi
        return ModuleCallRel(ModuleInstance(mi.steps[:-1]), mi.steps[-1].name)
    inst = parse_abs_resource_instance(text)
    return inst if last_is_key else inst.abs_resource


def unify(frm: MoveEndpoint, to: MoveEndpoint) -> tuple[MoveEndpoint, MoveEndpoint] | None:
    """Both endpoints of one kind: a whole resource/call paired with an instance becomes its
    no-key instance; mixed module/resource endpoints give None."""
    f, t = frm.rel, to.rel
    if type(f) is type(t):
        return frm, to
    pair = {type(f), type(t)}
    if pair == {AbsResource, AbsResourceInstance}:
        return _as_instance(frm), _as_instance(to)
    if pair == {ModuleCallRel, ModuleInstance}:
        return _as_instance(frm), _as_instance(to)
    return None


def _as_instance(ep: MoveEndpoint) -> MoveEndpoint:
    rel = ep.rel
    if isinstance(rel, AbsResource):
        return MoveEndpoint(ep.module, rel.instance(None), ep.range)
    if isinstance(rel, ModuleCallRel):
        return MoveEndpoint(ep.module, rel.instance(None), ep.range)
    return ep


__all__ = [
    "ModuleCallRel",
    "MoveEndpoint",
    "Rel",
    "instance_destination",
    "module_destination",
    "parse_rel",
    "resource_destination",
    "unify",
]
