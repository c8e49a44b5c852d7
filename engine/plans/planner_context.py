"""The shared context of one plan walk: configuration, providers, prior state and results.

`PlanContext` is what every node of the plan walk works with: the expanded module tree (with
the resource values expressions read), the provider registry and resolved provider
configurations, the prior state (by instance address, decoded lazily), the refreshed working
state, and the changes, drift and relevant attributes found so far. Results are recorded
through its thread-safe methods.
"""

from __future__ import annotations

import threading
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from engine.addrs import (
    AbsProviderConfig,
    AbsResourceInstance,
    Module,
    ModuleInstance,
    parse_abs_provider_config,
)
from engine.addrs import Provider as ProviderAddr
from engine.checks import ChecksState
from engine.configs import Config
from engine.configs.providers import ProviderAddr as ConfigProviderAddr
from engine.core.body import decode_body
from engine.core.diag_paths import in_config_body
from engine.core.instances import InstanceTree
from engine.diags import Diagnostics, error
from engine.graph.steps import provider_addr_for
from engine.hcl.ast import Body
from engine.plans.hooks import Hooks
from engine.plans.model import PlanMode, ResourceInstanceChange
from engine.plans.planner_state import StateEntry, decode_object
from engine.plugin.protocol import Provider
from engine.plugin.registry import ProviderRegistry
from engine.plugin.schema import Schema
from engine.states.state import ResourceInstanceObject
from engine.states.sync import SyncState
from engine.values import Value


@dataclass(slots=True)
class ProviderBinding:
    """A resolved provider configuration with its instance and the resource's schema."""

    addr: AbsProviderConfig
    provider: Provider
    schema: Schema
    registry: ProviderRegistry | None = None

    def for_instance(self, instance: AbsResourceInstance) -> Provider:
        """The provider that serves `instance`: the configuration's, unless the registry
        gives that instance another one (`groundplan test` overrides)."""
        if self.registry is None:
            return self.provider
        return self.registry.instance_provider(self.addr, instance, self.provider)


@dataclass
class PlanContext:
    """See the module docstring."""

    config: Config
    mode: PlanMode
    refresh: bool
    tree: InstanceTree
    registry: ProviderRegistry
    hooks: Hooks
    prior: dict[AbsResourceInstance, StateEntry]
    refreshed: SyncState
    force_replace: set[AbsResourceInstance] = field(default_factory=set)
    targets: list[Any] = field(default_factory=list)
    refresh_only: set[Any] = field(default_factory=set)
    destroy_unrefreshed: set[Any] = field(default_factory=set)
    moved: dict[AbsResourceInstance, AbsResourceInstance] = field(default_factory=dict)
    move_ranges: dict[AbsResourceInstance, Any] = field(default_factory=dict)  # their blocks
    changes: dict[tuple[AbsResourceInstance, str], ResourceInstanceChange] = field(
        default_factory=dict)
    drift: list[ResourceInstanceChange] = field(default_factory=list)
    relevant: list[tuple[str, Any]] = field(default_factory=list)
    schemas: dict[ProviderAddr, Any] = field(default_factory=dict)
    # managed instances of one resource are planned on this pool (None: in the node's own
    # thread), so at most `parallelism` instances refresh and plan at once, as terraform
    instance_pool: Executor | None = None
    # where condition statuses are recorded (terraform's checks.State)
    checks: ChecksState = field(default_factory=lambda: ChecksState(None))
    _mu: threading.Lock = field(default_factory=threading.Lock)
    _providers: dict[AbsProviderConfig, tuple[Provider | None, Diagnostics]] = field(
        default_factory=dict)
    _prov_mu: threading.Lock = field(default_factory=threading.Lock)

    # ------------------------------------------------------------------ providers
    def provider(self, addr: AbsProviderConfig) -> tuple[Provider | None, Diagnostics]:
        """The configured provider instance for `addr` (configured once, from its block)."""
        with self._prov_mu:
            got = self._providers.get(addr)
            if got is not None:
                return got[0], Diagnostics() if got[0] is not None else got[1]
            schema, diags = self.registry.schema(addr.provider)
            config_val: Value | None = None
            body: Body | None = None  # the provider block's, where its diagnostics point
            if schema is not None:
                self.schemas[addr.provider] = schema
                cfg = self.config.descendant(addr.module.names)
                local = addr.provider.type if cfg is None else \
                    cfg.module.local_name_for_provider(ConfigProviderAddr(
                        addr.provider.hostname, addr.provider.namespace, addr.provider.type))
                key = f"{local}.{addr.alias}" if addr.alias else local
                pblock = None if cfg is None else cfg.module.provider_configs.get(key)
                if pblock is None and cfg is not None:
                    pblock = next((p for p in cfg.module.provider_configs.values()
                                   if p.key == key), None)
                instances = self.tree.instances(addr.module)
                body = pblock.config if pblock is not None else None
                if pblock is not None and instances:
                    scope = self.tree.scope(instances[0])
                    config_val, more = decode_body(
                        pblock.config, schema.provider.block,
                        lambda e, r: scope.evaluate(e, r),
                        skip_attrs=frozenset({"alias", "version"}), skip_blocks=frozenset(),
                        subject=pblock.decl_range)
                    diags.extend(more)
            inst = None
            if not diags.has_errors:
                inst, more = self.registry.configured(
                    addr, config_val,
                    lambda ds: in_config_body(ds, body, str(addr), not addr.provider.is_builtin))
                diags.extend(more)
            self._providers[addr] = (inst, diags)
            return inst, diags

    def binding(self, addr: AbsProviderConfig, mode: str, type_name: str
                ) -> tuple[ProviderBinding | None, Diagnostics]:
        """Provider, its configuration address and the resource type's schema."""
        inst, diags = self.provider(addr)
        if inst is None:
            return None, diags
        schemas = self.schemas[addr.provider]
        table = schemas.data_sources if mode == "data" else schemas.resource_types
        schema = table.get(type_name)
        if schema is None:
            kind = "data source" if mode == "data" else "resource type"
            diags.append(error(
                f"Invalid {kind}",
                f'The provider {addr.provider.for_display()} does not support {kind} '
                f'"{type_name}".'))
            return None, diags
        return ProviderBinding(addr, inst, schema, self.registry), diags

    def state_provider(self, entry: StateEntry) -> AbsProviderConfig:
        return parse_abs_provider_config(entry.provider)

    # ------------------------------------------------------------------ prior objects
    def decode(self, b: ProviderBinding, addr: AbsResourceInstance,
               obj: ResourceInstanceObject, fresh: bool = False
               ) -> tuple[Value | None, Diagnostics]:
        """`obj` as a Value; `fresh`: the provider returned it in this apply (so it is at the
        schema's version and needs no upgrade call), as a builtin provider's objects are
        always decoded."""
        return decode_object(b.provider, addr.resource.type, b.schema, obj,
                             data=addr.resource.mode.value == "data",
                             direct=b.addr.provider.is_builtin or fresh, addr=str(addr))

    # ------------------------------------------------------------------ results
    def add_change(self, change: ResourceInstanceChange) -> None:
        with self._mu:
            self.changes[(change.addr, change.deposed_key or "")] = change

    def change(self, addr: AbsResourceInstance, deposed: str = "") -> ResourceInstanceChange | None:
        with self._mu:
            return self.changes.get((addr, deposed))

    def add_drift(self, change: ResourceInstanceChange) -> None:
        with self._mu:
            self.drift.append(change)

    def module_instances(self, module: Module) -> list[ModuleInstance]:
        return self.tree.instances(module)


__all__ = ["PlanContext", "ProviderBinding", "provider_addr_for"]
