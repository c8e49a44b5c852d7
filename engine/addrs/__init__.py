"""Address value types: modules, resources, instances and providers.

Frozen, slotted, hashable and ordered; `str()` gives terraform's notation and round-trips
through the `parse_*` functions, which raise `AddressSyntaxError` (callers turn it into a
diagnostic at the edge).
"""

from __future__ import annotations

from engine.addrs.keys import NO_KEY, InstanceKey, key_sort, key_str
from engine.addrs.parse import AddressSyntaxError
from engine.addrs.providers import (
    BUILTIN_TERRAFORM,
    DEFAULT_REGISTRY,
    AbsProviderConfig,
    Provider,
    implied_provider,
    parse_abs_provider_config,
    parse_provider_source,
)
from engine.addrs.resources import (
    ROOT_MODULE,
    ROOT_MODULE_INSTANCE,
    AbsResource,
    AbsResourceInstance,
    ConfigResource,
    Module,
    ModuleInstance,
    ModuleInstanceStep,
    Resource,
    ResourceInstance,
    ResourceMode,
    parse_abs_resource,
    parse_abs_resource_instance,
    parse_module_instance,
    parse_target,
)

__all__ = [
    "BUILTIN_TERRAFORM", "DEFAULT_REGISTRY", "NO_KEY", "ROOT_MODULE", "ROOT_MODULE_INSTANCE",
    "AbsProviderConfig", "AbsResource", "AbsResourceInstance", "AddressSyntaxError",
    "ConfigResource", "InstanceKey", "Module", "ModuleInstance", "ModuleInstanceStep",
    "Provider", "Resource", "ResourceInstance", "ResourceMode", "implied_provider", "key_sort",
    "key_str", "parse_abs_provider_config", "parse_abs_resource", "parse_abs_resource_instance",
    "parse_module_instance", "parse_provider_source", "parse_target",
]
