"""Validating provider configuration blocks (terraform's NodeApplyableProvider.ValidateProvider
in the validate walk).

`validate_provider_blocks(node, registry, instances, evaluate_arg, failed)`: each `provider` block of
module config `node` that has arguments or blocks besides `alias`/`version` (terraform skips an
empty one) is decoded against the provider's schema (Unsupported argument, Missing required
argument, wrong types of arguments that need nothing else to be evaluated; references are
unknown) and, when that succeeds, sent to ValidateProviderConfig. The provider's diagnostics
point into the block (engine.core.diag_paths) and name the provider configuration address
(`provider["registry.terraform.io/hashicorp/aws"].west`, `module.m.provider[...]`).
The addresses of configurations with errors are added to `failed`: as in terraform's walk, the
resources that use them are not validated.
Provider instances are taken from (and added to) `instances`; the caller closes them.
"""

from __future__ import annotations

from typing import Any

from engine.addrs import AbsProviderConfig, Module
from engine.addrs import Provider as ProviderAddr
from engine.core.body import Evaluate, decode_body
from engine.core.diag_paths import in_config_body
from engine.diags import Diagnostics
from engine.plugin.protocol import Provider, ValidateProviderConfigRequest
from engine.plugin.registry import ProviderRegistry

_META = frozenset({"alias", "version"})


def validate_provider_blocks(
    node: Any, registry: ProviderRegistry, instances: dict[ProviderAddr, Provider | None],
    evaluate_arg: Evaluate, failed: set[AbsProviderConfig],
) -> Diagnostics:
    """See the module docstring."""
    diags = Diagnostics()
    module = node.module
    for pblock in module.provider_configs.values():
        body = pblock.config
        if not any(n not in _META for n in body.attributes) and not body.blocks:
            continue
        local = module.provider_for_local_name(pblock.name)
        provider = ProviderAddr(local.hostname, local.namespace, local.type)
        resp, _ = registry.schema(provider)
        if resp is None:
            continue  # the plan reports a provider that cannot be started
        addr = AbsProviderConfig(Module(tuple(node.path)), provider, pblock.alias or None)
        value, more = decode_body(body, resp.provider.block, evaluate_arg, skip_attrs=_META,
                                  skip_blocks=frozenset(), subject=pblock.decl_range)
        diags.extend(more)
        if more.has_errors:
            failed.add(addr)
            continue
        if provider not in instances:
            instances[provider] = registry.new_instance(provider)[0]
        inst = instances[provider]
        if inst is None:
            continue
        vresp = inst.validate_provider_config(ValidateProviderConfigRequest(value.unmark_deep()[0]))
        diags.extend(in_config_body(vresp.diagnostics, body, str(addr),
                                    not provider.is_builtin))
        if vresp.diagnostics.has_errors:
            failed.add(addr)
    return diags
