"""`ProviderRegistry`: from provider addresses to configured provider instances.

The registry maps a provider source address (`engine.addrs.Provider`) to a factory that makes
`Provider` instances. The built-in `terraform` provider is registered from the start; other
providers (the gRPC plugin client) plug in through `register(provider, factory)`.

For a walk, the core asks for:

- `schema(provider)`: the provider's GetProviderSchema response, fetched once per provider
  address (from a short-lived instance when no configured one exists yet) and cached;
- `configured(config_addr, config_value)`: one instance per provider configuration
  (`AbsProviderConfig`), configured once with its evaluated `provider` block (a null/empty
  body when the configuration has none); later calls return the same instance;
- `close()`: stops every instance it created.

All methods are thread-safe. Problems come back as diagnostics, never exceptions.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from engine.addrs import BUILTIN_TERRAFORM, AbsProviderConfig, AbsResourceInstance
from engine.addrs import Provider as ProviderAddr
from engine.diags import Diagnostic, Diagnostics, error
from engine.plugin.protocol import (
    ConfigureProviderRequest,
    GetProviderSchemaResponse,
    Provider,
    ValidateProviderConfigRequest,
)
from engine.values import Value
from engine.version import TERRAFORM_VERSION

ProviderFactory = Callable[[], Provider]


def _builtin_factory(working_dir: str | None) -> ProviderFactory:
    def make() -> Provider:
        from engine.plugin.builtin.provider import TerraformProvider

        return TerraformProvider(working_dir)

    return make


class ProviderRegistry:
    """Factories by provider address, cached schemas and configured instances."""

    def __init__(self, working_dir: str | None = None) -> None:
        self._mu = threading.RLock()
        self._factories: dict[ProviderAddr, ProviderFactory] = {
            BUILTIN_TERRAFORM: _builtin_factory(working_dir)
        }
        self._schemas: dict[ProviderAddr, GetProviderSchemaResponse] = {}
        self._instances: dict[AbsProviderConfig, Provider] = {}
        self._config_diags: dict[AbsProviderConfig, Diagnostics] = {}
        self._spare: dict[ProviderAddr, Provider] = {}

    def register(self, provider: ProviderAddr, factory: ProviderFactory) -> None:
        """Make `factory` the source of instances of `provider` (replacing any earlier one)."""
        with self._mu:
            self._factories[provider] = factory
            self._schemas.pop(provider, None)

    def has(self, provider: ProviderAddr) -> bool:
        with self._mu:
            return provider in self._factories

    def missing_provider(self, provider: ProviderAddr, full_address: bool = False) -> Diagnostics:
        """terraform's "Missing required provider" for a provider with no factory (naming it
        by its full address, as terraform's validate does, with `full_address`)."""
        shown = str(provider) if full_address else provider.for_display()
        return Diagnostics(
            [
                error(
                    "Missing required provider",
                    f"This configuration requires provider {shown}, but that "
                    "provider isn't available. You may be able to install it automatically by "
                    'running:\n  groundplan init',
                )
            ]
        )

    def new_instance(self, provider: ProviderAddr) -> tuple[Provider | None, Diagnostics]:
        """A fresh, unconfigured instance of `provider` (the caller closes it)."""
        with self._mu:
            factory = self._factories.get(provider)
        if factory is None:
            return None, self.missing_provider(provider)
        try:
            return factory(), Diagnostics()
        except Exception as exc:  # an edge: a plugin that cannot start
            return None, Diagnostics(
                [error("Failed to load plugin schemas", f"Could not start {provider}: {exc}")]
            )

    def schema(self, provider: ProviderAddr) -> tuple[GetProviderSchemaResponse | None, Diagnostics]:
        """The provider's schemas, fetched once and cached."""
        with self._mu:
            cached = self._schemas.get(provider)
            if cached is not None:
                return cached, Diagnostics()
            inst = next(
                (p for a, p in self._instances.items() if a.provider == provider), None
            ) or self._spare.get(provider)
            if inst is None:
                inst, diags = self.new_instance(provider)
                if inst is None:
                    return None, diags
                self._spare[provider] = inst
            resp = inst.get_provider_schema()
            if resp.diagnostics.has_errors:
                return None, resp.diagnostics
            self._schemas[provider] = resp
            return resp, resp.diagnostics

    def configured(
        self, addr: AbsProviderConfig, config: Value | None,
        place: Callable[[Iterable[Diagnostic]], Iterable[Diagnostic]] | None = None,
    ) -> tuple[Provider | None, Diagnostics]:
        """The instance for provider configuration `addr`, configured with `config` the first
        time it is asked for (None: an empty configuration of the provider's schema).
        `place`, when given, maps the provider's own ValidateProviderConfig/ConfigureProvider
        diagnostics (for example to point them at the provider block)."""
        with self._mu:
            inst = self._instances.get(addr)
            if inst is not None:
                return inst, self._config_diags.get(addr, Diagnostics())
            schema, diags = self.schema(addr.provider)
            if schema is None:
                return None, diags
            inst = self._spare.pop(addr.provider, None)
            if inst is None:
                inst, more = self.new_instance(addr.provider)
                diags.extend(more)
                if inst is None:
                    return None, diags
            if config is None:
                config = schema.provider.block.empty_value()
            plain, _ = config.unmark_deep()
            vresp = inst.validate_provider_config(ValidateProviderConfigRequest(plain))
            diags.extend(place(vresp.diagnostics) if place else vresp.diagnostics)
            if not vresp.diagnostics.has_errors:
                cresp = inst.configure_provider(ConfigureProviderRequest(TERRAFORM_VERSION, plain))
                diags.extend(place(cresp.diagnostics) if place else cresp.diagnostics)
            self._instances[addr] = inst
            self._config_diags[addr] = diags
            return inst, diags

    def instance_provider(self, config: AbsProviderConfig, instance: AbsResourceInstance,
                          provider: Provider) -> Provider:
        """The provider that serves resource instance `instance` of configuration `config`:
        `provider` itself (a test registry answers with an override's provider instead)."""
        return provider

    def stop_all(self) -> None:
        """Ask every instance to finish in-flight calls early (a stop request)."""
        with self._mu:
            instances = list(self._instances.values())
        for inst in instances:
            inst.stop_provider()

    def close(self) -> Diagnostics:
        """Close every instance this registry created; the registry can be used again."""
        diags = Diagnostics()
        with self._mu:
            instances = [*self._instances.values(), *self._spare.values()]
            self._instances.clear()
            self._spare.clear()
            self._config_diags.clear()
        for inst in instances:
            diags.extend(inst.close())
        return diags
