"""Module paths and resource addresses, as value types.

All types are frozen, slotted, hashable and ordered; `str()` gives terraform's notation and
the `parse_*` functions read it back (`parse_x(str(a)) == a`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.addrs.keys import NO_KEY, InstanceKey, key_sort, key_str
from engine.addrs.parse import AddressSyntaxError, Step, split_steps


class ResourceMode(enum.Enum):
    MANAGED = "managed"
    DATA = "data"


@dataclass(frozen=True, slots=True)
class ModuleInstanceStep:
    """One step of a module instance path: `module.NAME` with its instance key."""

    name: str
    key: InstanceKey = NO_KEY

    def __str__(self) -> str:
        return f"module.{self.name}{key_str(self.key)}"

    def sort_key(self) -> tuple[str, tuple[int, int, str]]:
        return (self.name, key_sort(self.key))


@dataclass(frozen=True, slots=True)
class ModuleInstance:
    """A module instance path; the root module is the empty path."""

    steps: tuple[ModuleInstanceStep, ...] = ()

    @property
    def is_root(self) -> bool:
        return not self.steps

    def child(self, name: str, key: InstanceKey = NO_KEY) -> ModuleInstance:
        return ModuleInstance((*self.steps, ModuleInstanceStep(name, key)))

    def module(self) -> Module:
        """The static module path this instance belongs to (keys dropped)."""
        return Module(tuple(s.name for s in self.steps))

    def __str__(self) -> str:
        return ".".join(str(s) for s in self.steps)

    def sort_key(self) -> tuple[tuple[str, tuple[int, int, str]], ...]:
        return tuple(s.sort_key() for s in self.steps)

    def __lt__(self, other: ModuleInstance) -> bool:
        return self.sort_key() < other.sort_key()


ROOT_MODULE_INSTANCE = ModuleInstance()


@dataclass(frozen=True, slots=True, order=True)
class Module:
    """A static module path (`module.a.module.b`), as configuration sees it."""

    names: tuple[str, ...] = ()

    @property
    def is_root(self) -> bool:
        return not self.names

    def child(self, name: str) -> Module:
        return Module((*self.names, name))

    def __str__(self) -> str:
        return ".".join(f"module.{n}" for n in self.names)


ROOT_MODULE = Module()


@dataclass(frozen=True, slots=True)
class Resource:
    """A resource in a module, without instance key: `aws_s3_bucket.b`, `data.x.y`."""

    mode: ResourceMode
    type: str
    name: str

    def __str__(self) -> str:
        if self.mode is ResourceMode.DATA:
            return f"data.{self.type}.{self.name}"
        return f"{self.type}.{self.name}"

    def instance(self, key: InstanceKey = NO_KEY) -> ResourceInstance:
        return ResourceInstance(self, key)

    def sort_key(self) -> tuple[int, str, str]:
        return (0 if self.mode is ResourceMode.MANAGED else 1, self.type, self.name)

    def __lt__(self, other: Resource) -> bool:
        return self.sort_key() < other.sort_key()


@dataclass(frozen=True, slots=True)
class ResourceInstance:
    """A resource instance within its module: the resource and its instance key (no module path)."""

    resource: Resource
    key: InstanceKey = NO_KEY

    def __str__(self) -> str:
        return f"{self.resource}{key_str(self.key)}"


@dataclass(frozen=True, slots=True)
class ConfigResource:
    """A resource block in a static module path (before expansion of count/for_each)."""

    module: Module
    resource: Resource

    def __str__(self) -> str:
        return f"{self.module}.{self.resource}" if self.module.names else str(self.resource)


@dataclass(frozen=True, slots=True)
class AbsResource:
    """A resource in a module instance, all of its instances."""

    module: ModuleInstance
    resource: Resource

    def instance(self, key: InstanceKey = NO_KEY) -> AbsResourceInstance:
        return AbsResourceInstance(self.module, self.resource, key)

    def config(self) -> ConfigResource:
        return ConfigResource(self.module.module(), self.resource)

    def __str__(self) -> str:
        return f"{self.module}.{self.resource}" if self.module.steps else str(self.resource)

    def sort_key(self) -> tuple[object, ...]:
        return (self.module.sort_key(), self.resource.sort_key())

    def __lt__(self, other: AbsResource) -> bool:
        return self.sort_key() < other.sort_key()


@dataclass(frozen=True, slots=True)
class AbsResourceInstance:
    """One instance of a resource: `module.a["k"].aws_s3_bucket.b[0]`."""

    module: ModuleInstance
    resource: Resource
    key: InstanceKey = NO_KEY

    @property
    def abs_resource(self) -> AbsResource:
        return AbsResource(self.module, self.resource)

    def __str__(self) -> str:
        own = f"{self.resource}{key_str(self.key)}"
        return f"{self.module}.{own}" if self.module.steps else own

    def sort_key(self) -> tuple[object, ...]:
        return (self.module.sort_key(), self.resource.sort_key(), key_sort(self.key))

    def __lt__(self, other: AbsResourceInstance) -> bool:
        return self.sort_key() < other.sort_key()


# ------------------------------------------------------------------------------------ parsing
def _take_module_path(steps: list[Step]) -> tuple[ModuleInstance, list[Step]]:
    path: list[ModuleInstanceStep] = []
    i = 0
    while i < len(steps) and steps[i] == ("name", "module"):
        if i + 1 >= len(steps) or steps[i + 1][0] != "name":
            raise AddressSyntaxError('Prefix "module." must be followed by a module name.')
        name = steps[i + 1][1]
        assert isinstance(name, str)
        key: InstanceKey = NO_KEY
        i += 2
        if i < len(steps) and steps[i][0] == "key":
            key = steps[i][1]
            i += 1
        path.append(ModuleInstanceStep(name, key))
    return ModuleInstance(tuple(path)), steps[i:]


def _take_resource(steps: list[Step]) -> tuple[Resource, InstanceKey, list[Step]]:
    mode = ResourceMode.MANAGED
    if steps and steps[0] == ("name", "data"):
        mode = ResourceMode.DATA
        steps = steps[1:]
    if len(steps) < 2 or steps[0][0] != "name" or steps[1][0] != "name":
        what = "data resource" if mode is ResourceMode.DATA else "resource"
        raise AddressSyntaxError(
            f"A {what} address must have a resource type and a name."
        )
    rtype, rname = steps[0][1], steps[1][1]
    assert isinstance(rtype, str) and isinstance(rname, str)
    rest = steps[2:]
    key: InstanceKey = NO_KEY
    if rest and rest[0][0] == "key":
        key = rest[0][1]
        rest = rest[1:]
    return Resource(mode, rtype, rname), key, rest


def parse_module_instance(text: str) -> ModuleInstance:
    """Parse `module.a[0].module.b`; raises AddressSyntaxError."""
    if text == "":
        return ROOT_MODULE_INSTANCE
    path, rest = _take_module_path(split_steps(text))
    if rest:
        raise AddressSyntaxError("Unexpected extra operators after address.")
    return path


def parse_abs_resource_instance(text: str) -> AbsResourceInstance:
    """Parse `module.a["k"].aws_s3_bucket.b[0]`; raises AddressSyntaxError."""
    path, rest = _take_module_path(split_steps(text))
    resource, key, rest = _take_resource(rest)
    if rest:
        raise AddressSyntaxError("Unexpected extra operators after address.")
    return AbsResourceInstance(path, resource, key)


def parse_abs_resource(text: str) -> AbsResource:
    """Parse a resource address without instance key; raises AddressSyntaxError."""
    inst = parse_abs_resource_instance(text)
    if inst.key is not NO_KEY:
        raise AddressSyntaxError("A resource address must not have an instance key.")
    return inst.abs_resource


def parse_target(text: str) -> AbsResource | AbsResourceInstance | ModuleInstance:
    """Parse a `-target`/`-replace` style address: a module, a resource or an instance."""
    steps = split_steps(text)
    path, rest = _take_module_path(steps)
    if not rest:
        return path
    resource, key, rest = _take_resource(rest)
    if rest:
        raise AddressSyntaxError("Unexpected extra operators after address.")
    if key is NO_KEY and not (steps and steps[-1][0] == "key"):
        return AbsResource(path, resource)
    return AbsResourceInstance(path, resource, key)
