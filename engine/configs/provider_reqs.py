"""Which providers a configuration requires: terraform's `Config.ProviderRequirements`.

`provider_requirements(config)` walks the module tree once, as terraform's
addProviderRequirements does, and returns every provider the configuration depends on
(built-in ones included: callers that install or lock skip them) with the version
constraints that apply to it, in the order first seen:

- each module's `required_providers` entries (with their `version`);
- the provider each managed, data and ephemeral resource uses (implied by its type, or named
  by its `provider` argument; an undeclared local name means `hashicorp/<name>`);
- the provider of each import block whose target the module does not declare (its
  configuration will be generated: the block's `provider`, else the one the type implies);
- each `provider` block (with its legacy `version` argument);
- the modules that test files' run blocks load (`Config.test_modules`), then the children.

Its diagnostics are terraform's from the same walk: an import block whose target resource is
declared may name a `provider` only when the resource names the same one ("Invalid import
provider argument", at the import block's `provider` argument). terraform reports them from
`init`, from validate (and so stops validation), and inside "Inconsistent dependency lock
file" when planning.
"""

from __future__ import annotations

from typing import Any

from engine.addrs import Provider
from engine.configs.module import Module
from engine.diags import Diagnostics, error

#: provider -> the version constraint strings that apply to it (none: any version)
Requirements = dict[Provider, list[str]]

_IMPORT_PROVIDER_DETAIL = (
    "The provider argument can only be specified in import blocks that will generate "
    "configuration.\n\nUse the provider argument in the target resource block to configure "
    "the provider for a resource with explicit provider configuration."
)


def provider_requirements(config: Any, *, tests: bool = True) -> tuple[Requirements, Diagnostics]:
    """See the module docstring; `tests=False` leaves out the modules of test files
    (terraform's ProviderRequirementsConfigOnly, what validate checks are installed)."""
    reqs: Requirements = {}
    diags = Diagnostics()
    _add(config, reqs, diags, tests)
    return reqs, diags


def _need(reqs: Requirements, given: Any, constraint: str = "") -> None:
    addr = Provider(given.hostname, given.namespace, given.type)
    found = reqs.setdefault(addr, [])
    if constraint:
        found.append(constraint)


def _add(node: Any, reqs: Requirements, diags: Diagnostics, tests: bool) -> None:
    m: Module = node.module
    for rp in m.required_providers.values():
        _need(reqs, rp.addr, rp.requirement.text if rp.requirement is not None else "")
    for r in m.all_resources():
        _need(reqs, m.resource_provider(r))
    _add_imports(m, reqs, diags)
    for pc in m.provider_configs.values():
        _need(reqs, m.provider_for_local_name(pc.name), pc.version.text if pc.version else "")
    if tests:
        for test_module in node.test_modules.values():
            _add(test_module, reqs, diags, False)
    for name in sorted(node.children):
        _add(node.children[name], reqs, diags, False)


def _add_imports(m: Module, reqs: Requirements, diags: Diagnostics) -> None:
    for imp in m.imports:
        if not imp.to_key or imp.to_key.startswith("module."):
            continue  # a module's providers come from its module block
        rtype, _, rest = imp.to_key.partition(".")
        name = rest.split("[", 1)[0].split(".", 1)[0]
        target = m.managed_resources.get(f"{rtype}.{name}")
        if target is not None:
            ref = imp.provider
            if ref is not None and (target.provider is None or (
                    ref.name, ref.alias) != (target.provider.name, target.provider.alias)):
                diags.append(error("Invalid import provider argument", _IMPORT_PROVIDER_DETAIL,
                                   imp.provider_range))
            continue
        local = imp.provider.name if imp.provider is not None else rtype.split("_", 1)[0]
        _need(reqs, m.provider_for_local_name(local))
