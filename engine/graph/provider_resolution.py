"""Which provider configuration serves each resource, decided as terraform's provider graph
transformers decide it (ProviderConfigTransformer, MissingProviderTransformer and
ProviderTransformer).

`ProviderMap(config)` holds every provider configuration address of the configuration tree:

- *concrete* configurations: each `provider` block of each module, plus, in the root module,
  an implied empty configuration for each `required_providers` entry without a block; a
  default (unaliased) configuration in the root module is always available (terraform adds
  one for every provider type in use);
- *proxies*: each entry `child(.alias) = parent(.alias)` of a module call's `providers`
  argument stands, at `module.<call>.provider["<child's provider>"](.alias)`, for the parent
  module's configuration (itself possibly a proxy). A passed entry replaces the child's own
  block of the same name only when that block is empty (a legacy "proxy provider block");
  a non-empty block keeps its own configuration (validation reports the override). A parent
  address that exists neither as a configuration nor a proxy is terraform's sourceless
  "missing provider <address>" error.

`resolve(module, provider, alias)` finds the configuration a resource uses: the address in
its own module, else (unaliased only) the same provider's default configuration in each
ancestor module in turn, ending at the root's default; proxies are followed to the concrete
configuration, which is what state records. `resolve_exact(addr)` is the lookup for objects
known only from state (orphans): no inheritance. Both return None when nothing matches; the
caller reports terraform's "Provider configuration not present" (`not_present`).
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

from engine.addrs import ROOT_MODULE, AbsProviderConfig, Module
from engine.addrs import Provider as ProviderAddr
from engine.diags import Diagnostic, Diagnostics, error


def fqn(module: Any, local: str) -> ProviderAddr:
    """The provider a local name means in a configuration module, as an `engine.addrs`
    provider address."""
    pa = module.provider_for_local_name(local)
    return ProviderAddr(pa.hostname, pa.namespace, pa.type)


def is_empty_block(pc: Any) -> bool:
    """Whether a `provider` block has no arguments and no nested blocks besides `alias` (and
    no `version`): terraform then treats a child module's block as a proxy that a caller's
    `providers` entry may replace."""
    body = pc.config
    return not body.attributes and not body.blocks and pc.version is None


class ProviderMap:
    """See the module docstring."""

    def __init__(self, config: Any) -> None:
        # address -> the address it stands for (itself for concrete configurations)
        self._entries: dict[AbsProviderConfig, AbsProviderConfig] = {}
        # provider blocks replaced by a passed configuration (not configured themselves)
        self.proxied_blocks: set[AbsProviderConfig] = set()
        self.diagnostics = Diagnostics()
        self._add(config)

    # ------------------------------------------------------------------ building
    def _add(self, cfg: Any) -> None:
        module = Module(tuple(cfg.path))
        mod = cfg.module
        proxiable: set[AbsProviderConfig] = set()
        if module.is_root:
            for name, req in mod.required_providers.items():
                if name in mod.provider_configs:
                    continue
                addr = AbsProviderConfig(module, ProviderAddr(
                    req.addr.hostname, req.addr.namespace, req.addr.type), None)
                self._entries.setdefault(addr, addr)
        for pc in mod.provider_configs.values():
            addr = AbsProviderConfig(module, fqn(mod, pc.name), pc.alias or None)
            if addr in self._entries:
                continue
            self._entries[addr] = addr
            if not module.is_root and is_empty_block(pc):
                proxiable.add(addr)
        if cfg.parent is not None and cfg.call is not None:
            parent = Module(tuple(cfg.parent.path))
            for pair in cfg.call.providers:
                provider = fqn(mod, pair.in_child.name)
                child_addr = AbsProviderConfig(module, provider, pair.in_child.alias or None)
                parent_addr = AbsProviderConfig(parent, provider, pair.in_parent.alias or None)
                if parent_addr not in self._entries:
                    self.diagnostics.append(error(f"missing provider {parent_addr}"))
                    continue
                if child_addr in self._entries:
                    if child_addr in proxiable:
                        self._entries[child_addr] = parent_addr
                        self.proxied_blocks.add(child_addr)
                    continue
                self._entries[child_addr] = parent_addr
        for name in sorted(cfg.children):
            self._add(cfg.children[name])

    # ------------------------------------------------------------------ lookups
    def _follow(self, addr: AbsProviderConfig) -> AbsProviderConfig | None:
        seen: set[AbsProviderConfig] = set()
        cur = addr
        while cur not in seen:
            seen.add(cur)
            nxt = self._entries.get(cur)
            if nxt is None:
                if cur.module.is_root and cur.alias is None:
                    return cur  # the implied default configuration
                return None
            if nxt == cur:
                return cur
            cur = nxt
        return None

    def is_concrete(self, addr: AbsProviderConfig) -> bool:
        """Whether `addr` is a configuration of its own (a block or an implied root one)."""
        return self._entries.get(addr) == addr

    def resolve(self, module: Module, provider: ProviderAddr, alias: str | None
                ) -> AbsProviderConfig | None:
        """The concrete configuration a resource in `module` asking for `provider`(.alias)
        uses (see the module docstring)."""
        addr = AbsProviderConfig(module, provider, alias or None)
        if addr in self._entries:
            return self._follow(addr)
        if alias:
            return None
        names = module.names
        while names:
            names = names[:-1]
            up = AbsProviderConfig(Module(names), provider, None)
            if up in self._entries or not names:
                return self._follow(up)
        return self._follow(AbsProviderConfig(ROOT_MODULE, provider, None))

    def resolve_exact(self, addr: AbsProviderConfig) -> AbsProviderConfig | None:
        """The concrete configuration for an address recorded in state, or None."""
        return self._follow(addr)


def not_present(what: str, addr: AbsProviderConfig) -> Diagnostic:
    """Terraform's error for an object whose provider configuration does not exist; `what`
    names the graph node (`module.a.aws_x.y`, `module.a.aws_x.y[0] (orphan)`)."""
    return error(
        "Provider configuration not present",
        f"To work with {what} its original provider configuration at {addr} is required, but "
        "it has been removed. This occurs when a provider configuration is removed while "
        "objects created by that provider still exist in the state. Re-add the provider "
        f"configuration to destroy {what}, after which you can remove the provider "
        "configuration again.")


_CACHE: weakref.WeakKeyDictionary[Any, ProviderMap] = weakref.WeakKeyDictionary()
_CACHE_MU = threading.Lock()


def provider_map(config: Any) -> ProviderMap:
    """The (cached) provider map of the configuration tree `config` belongs to."""
    root = config.root
    with _CACHE_MU:
        pm = _CACHE.get(root)
        if pm is None:
            pm = ProviderMap(root)
            _CACHE[root] = pm
        return pm


def requested_addr(cfg: Any, res: Any) -> AbsProviderConfig:
    """The address a resource asks for, in its own module (before resolution)."""
    local = res.provider_local_name
    alias = res.provider.alias if res.provider is not None else ""
    return AbsProviderConfig(Module(tuple(cfg.path)), fqn(cfg.module, local), alias or None)


def resolve_resource(cfg: Any, res: Any) -> AbsProviderConfig | None:
    """The concrete provider configuration a resource of module config `cfg` uses."""
    want = requested_addr(cfg, res)
    return provider_map(cfg).resolve(want.module, want.provider, want.alias)
