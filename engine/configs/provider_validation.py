"""Static checks of provider configurations across the module tree, as terraform's
`validateProviderConfigs` (internal/configs/provider_validation.go) makes them when it builds
the configuration.

`validate_provider_configs(root)` walks the tree (children before their parent, as terraform
does) and reports, with terraform's summaries, details and source ranges:

- "Duplicate required provider" (warnings): one provider required under two local names, or
  under a name other than the one a `provider` block or a resource type implies;
- "Reference to undefined provider": a module call passing a default configuration the
  caller never declared (warning), or passing into a name the child does not declare
  (warning for an official provider, else error);
- "Missing required provider configuration": a module passing on a default configuration it
  did not receive (warning), or a child declaring `configuration_aliases` its caller does not
  pass (error);
- "Module is incompatible with count, for_each, and depends_on": a module with its own
  non-empty `provider` block below a call using one of them;
- "Cannot override provider configuration": passing a configuration for a name the child
  configures itself;
- "Provider type mismatch": passing a configuration of a different provider;
- "Redundant empty provider block" (warning): empty (proxy) `provider` blocks in a child.

A `provider` block counts as a configuration when it has any argument or block besides
`alias` (or a `version`); an empty one is a legacy proxy block.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.configs.providers import DEFAULT_REGISTRY, ProviderAddr, default_provider
from engine.configs.refs import traversal_range
from engine.diags import Diagnostics, error, warning
from engine.source import Range


def _official(name: str) -> ProviderAddr:
    return ProviderAddr(DEFAULT_REGISTRY, "hashicorp", name)


def _is_official(addr: ProviderAddr) -> bool:
    return addr.hostname == DEFAULT_REGISTRY and addr.namespace == "hashicorp"


def _key(name: str, alias: str) -> str:
    return f"{name}.{alias}" if alias else name


def _empty(pc: Any) -> bool:
    body = pc.config
    return not body.attributes and not body.blocks and pc.version is None


@dataclass(slots=True)
class _Scope:
    """What one module declares about providers (terraform's local maps)."""

    configured: dict[str, Range]
    empty: dict[str, Range]
    local_names: dict[str, ProviderAddr]
    config_aliases: dict[str, ProviderAddr]
    passed_in: dict[str, Any]


def validate_provider_configs(root: Any) -> Diagnostics:
    """See the module docstring; `root` is the root `Config` of the tree."""
    return _validate(None, root, None)


def _validate(parent_call: Any, cfg: Any, no_config_range: Range | None) -> Diagnostics:
    diags = Diagnostics()
    mod = cfg.module
    for name in sorted(cfg.children):
        mc = mod.module_calls[name]
        child_range = no_config_range
        if mc.count is not None:
            child_range = mc.count.range
        elif mc.for_each is not None:
            child_range = mc.for_each.range
        elif mc.depends_on:
            child_range = traversal_range(mc.depends_on[0])
        diags.extend(_validate(mc, cfg.children[name], child_range))

    scope = _Scope({}, {}, {}, {}, {})
    for pc in mod.provider_configs.values():
        (scope.empty if _empty(pc) else scope.configured)[_key(pc.name, pc.alias)] = \
            pc.decl_range
    _requirements(cfg, scope, diags)
    _implied_names(mod, scope, diags)
    if parent_call is not None:
        for passed in parent_call.providers:
            scope.passed_in[_key(passed.in_child.name, passed.in_child.alias)] = passed

    module_text = parent_text = "the root module"
    if cfg.path:
        module_text = ".".join(f"module.{p}" for p in cfg.path)
        if len(cfg.path) > 1:
            parent_text = ".".join(f"module.{p}" for p in cfg.path[:-1])
    _calls(cfg, parent_call, scope, module_text, parent_text, diags)
    if not cfg.path:
        return diags

    if scope.configured and no_config_range is not None:
        diags.append(error(
            "Module is incompatible with count, for_each, and depends_on",
            f"The module at {module_text} is a legacy module which contains its own local "
            "provider configurations, and so calls to it may not use the count, for_each, or "
            f'depends_on arguments.\n\nIf you also control the module "{parent_call.source}", '
            "consider updating this module to instead expect provider configurations to be "
            "passed by its caller.",
            no_config_range))
    for name in scope.configured:
        passed = scope.passed_in.get(name)
        if passed is not None:
            diags.append(error(
                "Cannot override provider configuration",
                f"The configuration of {module_text} has its own local configuration for "
                f"{name}, and so it cannot accept an overridden configuration provided by "
                f"{parent_text}.",
                passed.in_child.name_range))
    for name, addr in scope.config_aliases.items():
        if name in scope.configured or name in scope.passed_in:
            continue
        diags.append(error(
            "Missing required provider configuration",
            f"The child module requires an additional configuration for provider "
            f'{addr.for_display()}, with the local name "{name}".\n\nRefer to the module\'s '
            "documentation to understand the intended purpose of this additional provider "
            f'configuration, and then add an entry for {name} in the "providers" '
            "meta-argument in the module block to choose which provider configuration the "
            "module should use for that purpose.",
            parent_call.decl_range))
    _passed(cfg, scope, module_text, parent_text, diags)
    _redundant_empty(scope, module_text, diags)
    return diags


def _requirements(cfg: Any, scope: _Scope, diags: Diagnostics) -> None:
    mod = cfg.module
    seen_types: set[ProviderAddr] = set()
    for req in mod.required_providers.values():
        if req.addr in seen_types:
            prev = ""
            for local, typ in scope.local_names.items():
                if typ == req.addr:
                    prev = local
            diags.append(warning(
                "Duplicate required provider",
                f"Provider {req.addr.for_display()} with the local name \"{req.name}\" was "
                f'previously required as "{prev}". A provider can only be required once '
                "within required_providers.",
                req.decl_range))
        elif _is_official(req.addr):
            implied = req.addr.type
            for pc in mod.provider_configs.values():
                if pc.name == implied and req.name != implied:
                    diags.append(warning(
                        "Duplicate required provider",
                        f"Provider {req.addr.for_display()} with the local name "
                        f'"{req.name}" was implicitly required via a configuration block as '
                        f'"{implied}". The provider configuration block name must match the '
                        "name used in required_providers.",
                        req.decl_range))
                    break
        seen_types.add(req.addr)
        scope.local_names[req.name] = req.addr
        for alias, _rng in req.configuration_aliases:
            scope.config_aliases[_key(req.name, alias)] = req.addr


def _implied_names(mod: Any, scope: _Scope, diags: Diagnostics) -> None:
    """Resources with no `provider` argument whose implied provider is required under
    another local name."""
    for res in [*mod.managed_resources.values(), *mod.data_resources.values()]:
        if res.provider is not None:
            continue
        local = res.implied_provider
        if local in scope.local_names:
            continue
        implied = default_provider(local)
        for prev, addr in scope.local_names.items():
            if addr == implied:
                diags.append(warning(
                    "Duplicate required provider",
                    f'Provider "{implied}" was implicitly required via resource "{res.key}", '
                    f'but listed in required_providers as "{prev}". Either the local name in '
                    f'required_providers must match the resource name, or the "{prev}" '
                    "provider must be assigned within the resource block.",
                    res.decl_range))


def _calls(cfg: Any, parent_call: Any, scope: _Scope, module_text: str, parent_text: str,
           diags: Diagnostics) -> None:
    """Module calls of this module pass only default configurations it has."""
    for name in sorted(cfg.module.module_calls):
        for passed in cfg.module.module_calls[name].providers:
            if passed.in_parent.alias:
                continue  # aliases are checked in the child, never inherited
            pname = passed.in_parent.name
            conf_ok = pname in scope.configured
            local_ok = pname in scope.local_names
            if not (conf_ok or local_ok):
                shown = _official(pname).for_display()
                diags.append(warning(
                    "Reference to undefined provider",
                    f'There is no explicit declaration for local provider name "{pname}" in '
                    f"{module_text}, so groundplan is assuming you mean to pass a configuration "
                    f'for provider "{shown}".\n\nTo clarify your intent and silence this '
                    f"warning, add to {parent_text} a required_providers entry named "
                    f'"{pname}" with source = "{shown}", or a different source address if '
                    "appropriate.",
                    passed.in_parent.name_range))
                continue
            if cfg.path and not (conf_ok or pname in scope.passed_in):
                diags.append(warning(
                    "Missing required provider configuration",
                    f"The configuration for {module_text} expects to inherit a configuration "
                    f"for provider {_official(pname).for_display()} with local name "
                    f'"{pname}", but {parent_text} doesn\'t pass a configuration under that '
                    f'name.\n\nTo satisfy this requirement, add an entry for "{pname}" to the '
                    f'"providers" argument in the module "{parent_call.name}" block.',
                    parent_call.decl_range))


def _parent_type(parent: Any, local: str) -> ProviderAddr | None:
    """The provider a local name means in the calling module, when it names one there (a
    required_providers entry or a `provider` block), as terraform resolves provider types."""
    req = parent.required_providers.get(local)
    if req is not None:
        return req.addr
    if any(pc.name == local for pc in parent.provider_configs.values()):
        return default_provider(local)
    return None


def _passed(cfg: Any, scope: _Scope, module_text: str, parent_text: str,
            diags: Diagnostics) -> None:
    """Each configuration passed in must fit a name the child declares, of the same type."""
    parent = cfg.parent.module
    for name, passed in scope.passed_in.items():
        child_ty = _official(passed.in_child.name)
        local = name in scope.local_names
        if local:
            child_ty = scope.local_names[name]
        alias_ty = scope.config_aliases.get(name)
        if alias_ty is not None:
            child_ty = alias_ty
        if not (local or alias_ty is not None or name in scope.empty):
            shown = child_ty.for_display()
            if _is_official(child_ty):
                diags.append(warning(
                    "Reference to undefined provider",
                    f'There is no explicit declaration for local provider name "{name}" in '
                    f"{module_text}, so groundplan is assuming you mean to pass a configuration "
                    f'for "{shown}".\n\nIf you also control the child module, add a '
                    f'required_providers entry named "{name}" with the source address '
                    f'"{shown}".',
                    passed.in_child.name_range))
            else:
                diags.append(error(
                    "Reference to undefined provider",
                    "The child module does not declare any provider requirement with the local "
                    f'name "{name}".\n\nIf you also control the child module, you can add a '
                    f'required_providers entry named "{name}" with the source address '
                    f'"{shown}" to accept this provider configuration.',
                    passed.in_child.name_range))
        parent_ty = _parent_type(parent, passed.in_parent.name)
        if parent_ty is None:
            continue
        req = parent.required_providers.get(name)
        if req is not None:
            parent_ty = req.addr
        if parent_ty == child_ty:
            continue
        other = next((n for n, a in scope.local_names.items() if a == parent_ty), "")
        if other:
            diags.append(error(
                "Provider type mismatch",
                f'The assigned configuration is for provider "{parent_ty.for_display()}", but '
                f'local name "{passed.in_child.name}" in {parent_text} represents '
                f'"{child_ty.for_display()}".\n\nTo pass this configuration to the child '
                f'module, use the local name "{other}" instead.',
                passed.in_child.name_range))
        else:
            diags.append(error(
                "Provider type mismatch",
                f'The local name "{passed.in_parent}" in {parent_text} represents provider '
                f'"{parent_ty.for_display()}", but "{passed.in_child}" in {module_text} '
                f'represents "{child_ty.for_display()}".\n\nEach provider has its own distinct '
                f'configuration schema and provider types, so this module\'s '
                f'"{passed.in_child}" can be assigned only a configuration for '
                f"{child_ty.for_display()}, which is not required by {module_text}.",
                passed.in_parent.name_range))


def _redundant_empty(scope: _Scope, module_text: str, diags: Diagnostics) -> None:
    """One warning per provider with empty (proxy) blocks, suggesting required_providers."""
    groups: dict[str, tuple[ProviderAddr, list[str], list[Range]]] = {}
    for name, rng in scope.empty.items():
        local = name.split(".", 1)[0]
        src = scope.local_names.get(name, _official(local))
        group = groups.setdefault(local, (src, [], []))
        group[1].append(name)
        group[2].append(rng)
    for local in sorted(groups):
        src, names, ranges = groups[local]
        lines = [
            "Earlier versions of Terraform used empty provider blocks (\"proxy provider "
            "configurations\") for child modules to declare their need to be passed a provider "
            "configuration by their callers. That approach was ambiguous and is now deprecated."
            "\n\nIf you control this module, you can migrate to the new declaration syntax by "
            f'removing all of the empty provider "{local}" blocks and then adding or updating an '
            f"entry like the following to the required_providers block of {module_text}:",
            f"    {local} = {{",
            f'      source = "{src.for_display()}"',
        ]
        if any(n != local for n in names):
            lines.append("      configuration_aliases = [")
            lines.extend(f"        {n}," for n in sorted(names))
            lines.append("      ]")
        lines.append("    }")
        first = min(ranges, key=str)
        diags.append(warning("Redundant empty provider block", "\n".join(lines), first))
