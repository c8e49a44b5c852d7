"""Provider plugins for a working directory: from `init`'s installation to registry factories.

`PluginRegistry(workdir)` is a `ProviderRegistry` that finds every provider other than the
built-in one on demand: the first time a walk (or `show`, `state show`, `import`) asks for an
instance of provider P, it looks up P's executable with `installed_provider(workdir, P)` (lock
file entry, `.terraform/providers/...` package, `h1:` hash check) and registers a gRPC factory
for it (`grpc_provider_factory`), with the schema cache under `<workdir>/.terraform/`. The
registry then keeps one process per provider configuration for the whole command and
`close()` reaps them all (callers call it in a `finally`; the gRPC client's atexit hook and the
parent-death signal cover the remaining exits, SIGKILL included).

When P cannot be used the result is an error diagnostic naming P, never an exception:
terraform's "Required plugins are not installed" (no lock entry, package missing, hash mismatch)
or "Failed to load plugin schemas" (the binary is not a plugin, prints a bad handshake, exits).
A failed lookup is remembered so that it is reported once per command.

`needed_providers(config, state)` lists the providers a configuration and a state use (the
`required_providers` entries, provider blocks, implied providers of resources, and the
providers recorded in state), and `PluginRegistry.preload(providers)` resolves them up front,
for commands that want the errors before doing anything else.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING, Any

from engine.addrs import AddressSyntaxError, parse_abs_provider_config
from engine.addrs import Provider as ProviderAddr
from engine.diags import Diagnostics
from engine.plugin.protocol import Provider
from engine.plugin.registry import ProviderRegistry
from engine.providercache import installed_provider
from engine.states.state import State

if TYPE_CHECKING:
    from engine.plugin.grpc_client.schema_cache import SchemaCache

__all__ = ["PluginRegistry", "needed_providers", "schema_cache_dir"]

SCHEMA_CACHE = "schema-cache"


def schema_cache_dir(workdir: str) -> str:
    """Where provider schemas of `workdir` are cached (`.terraform/schema-cache`)."""
    data_dir = os.environ.get("TF_DATA_DIR") or ".terraform"
    return os.path.join(workdir, data_dir, SCHEMA_CACHE)


def needed_providers(config: Any | None, state: State | None) -> list[ProviderAddr]:
    """Every non-built-in provider `config` (`engine.configs.provider_reqs`, its diagnostics
    left to the commands that report them) and `state` use, in first-seen order."""
    from engine.configs.provider_reqs import provider_requirements

    out: list[ProviderAddr] = []

    def add(p: ProviderAddr) -> None:
        if not p.is_builtin and p not in out:
            out.append(p)

    if config is not None:
        for p in provider_requirements(config)[0]:
            add(p)
    if state is not None:
        for rs in state.resources:
            try:
                add(parse_abs_provider_config(rs.provider).provider)
            except AddressSyntaxError:
                continue
    return out


class PluginRegistry(ProviderRegistry):
    """A registry whose non-built-in providers are the plugins installed in `workdir`."""

    def __init__(self, working_dir: str, *, start_timeout: float = 60.0,
                 provider_env: dict[str, str] | None = None) -> None:
        """`provider_env` is the whole environment of every provider process started (None:
        this process's); credentials given at execute time reach only the providers this way."""
        super().__init__(working_dir)
        self.workdir = working_dir
        self._env = dict(provider_env) if provider_env is not None else None
        self._start_timeout = start_timeout
        self._cache: SchemaCache | None = None
        self._failed: dict[ProviderAddr, Diagnostics] = {}
        self._resolve_mu = threading.Lock()

    def resolve(self, provider: ProviderAddr) -> Diagnostics:
        """Register the installed plugin of `provider` unless a factory exists; its errors."""
        with self._resolve_mu:
            if self.has(provider):
                return Diagnostics()
            failed = self._failed.get(provider)
            if failed is not None:
                return Diagnostics(list(failed))
            exe, diags = installed_provider(self.workdir, provider)
            if exe is None:
                self._failed[provider] = diags
                return Diagnostics(list(diags))
            from engine.plugin.grpc_client import SchemaCache, grpc_provider_factory

            if self._cache is None:
                self._cache = SchemaCache(schema_cache_dir(self.workdir))
            self.register(provider, grpc_provider_factory(
                str(provider), exe, schema_cache=self._cache, start_timeout=self._start_timeout,
                env=self._env))
            return diags

    def preload(self, providers: list[ProviderAddr]) -> Diagnostics:
        """Resolve each of `providers` now (errors for those that are not usable)."""
        diags = Diagnostics()
        for p in providers:
            diags.extend(self.resolve(p))
        return diags

    def new_instance(self, provider: ProviderAddr) -> tuple[Provider | None, Diagnostics]:
        """A fresh process of `provider`'s plugin (resolved on first use); the caller closes
        it. A plugin that cannot start is an error diagnostic naming the provider."""
        diags = self.resolve(provider)
        if diags.has_errors:
            return None, diags
        with self._resolve_mu:
            failed = self._failed.get(provider)
        if failed is not None:
            return None, Diagnostics(list(failed))
        inst, more = super().new_instance(provider)
        if inst is None and more.has_errors:
            with self._resolve_mu:
                self._failed[provider] = more
        diags.extend(more)
        return inst, diags
