"""What `validate` (and the validation step of `plan`/`apply`) reports for a configuration.

First the import blocks whose target module does not exist (terraform finds them building its
graph, and reports nothing else then: `engine.plans.validate_imports`), then the static
reference check of every module (`engine.configs.refcheck`; with a provider
registry, references to resource attributes are checked against the resource types' schemas
too), then, for a configuration without resources, an evaluation of the root module with
unknown inputs (`engine.core`), whose diagnostics are kept unless they repeat a reference
problem already reported for the same place. A configuration with resources has each resource
block validated against its schema and by its provider (`engine.plans.validate`), and its
provisioner blocks (`engine.provisioners.validate`), and its import blocks' targets, when the
references are fine; its expressions are evaluated by the planner.

`check_config_dependencies(config, registry)` is what validate checks first: the providers the
configuration requires are all installed.
"""

from __future__ import annotations

from typing import Any

from engine.configs import Config
from engine.core import evaluate_root
from engine.diags import Diagnostic, Diagnostics, error
from engine.plugin.loader import PluginRegistry
from engine.plugin.registry import ProviderRegistry


def _key(d: Diagnostic) -> tuple[Any, ...]:
    rng = d.subject
    where = (rng.filename, rng.start_offset, rng.end_offset) if rng is not None else None
    return (d.severity, d.summary, where)


def _overlaps(a: Diagnostic, b: Diagnostic) -> bool:
    ra, rb = a.subject, b.subject
    if ra is None or rb is None or ra.filename != rb.filename:
        return False
    return ra.start_offset < rb.end_offset and rb.start_offset < ra.end_offset


def check_config(config: Config, cwd: str, registry: ProviderRegistry | None = None) -> Diagnostics:
    """Reference problems, then evaluation problems that are not repeats of them (or, for a
    configuration with resources and a `registry`, the resources' schema problems)."""
    from engine.configs.refcheck import check_references
    from engine.graph.builder import build_graph, validate_steps
    from engine.plans.validate import resource_ref_check, validate_resources
    from engine.plans.validate_eval import validate_expressions
    from engine.plans.validate_imports import validate_imports
    from engine.provisioners import validate_config_provisioners

    diags = Diagnostics()
    imports = validate_imports(config, cwd)
    if imports.graph_errors:
        return imports.diags  # terraform's graph cannot be built: nothing else is checked
    refs = check_references(config, resource_ref_check(registry) if registry else None)
    diags.extend(refs)
    if not refs.has_errors:
        diags.extend(imports.diags)
        # terraform's validate graph is built first: a cycle (between modules' variables
        # and outputs, resources, locals) is the only error reported
        _, cycles = build_graph(config, validate_steps())
        if cycles.has_errors:
            diags.extend(cycles)
            return diags
    if _declares_resources(config):
        evaluated, skip = validate_expressions(config, cwd)
        if registry is not None and not refs.has_errors:
            diags.extend(validate_resources(config, registry, cwd, skip))
            diags.extend(validate_config_provisioners(config))
    else:
        _, evaluated = evaluate_root(config, {}, cwd, for_validation=True)
    seen = {_key(d) for d in diags}
    for d in evaluated:
        if _key(d) in seen:
            continue
        if d.is_error and any(_overlaps(d, r) for r in refs.errors):
            continue
        seen.add(_key(d))
        diags.append(d)
    return diags


def check_config_dependencies(config: Config, registry: PluginRegistry) -> Diagnostics:
    """terraform's checkConfigDependencies, what validate checks before anything else (and
    stops at when it fails): the diagnostics of working out the configuration's provider
    requirements (`engine.configs.provider_reqs`, test files' modules left out), else a
    "Missing required provider" for each required provider `registry` cannot give, in the
    order of their addresses, as terraform shows them."""
    from engine.configs.provider_reqs import provider_requirements

    reqs, diags = provider_requirements(config, tests=False)
    if diags.has_errors:
        return diags
    for addr in sorted(reqs, key=str):
        if registry.has(addr) or (not addr.is_builtin and not registry.resolve(addr).has_errors):
            continue
        if addr.is_builtin:
            diags.append(error(
                "Missing required provider",
                f"This configuration requires built-in provider {addr}, but that provider "
                "isn't available in this groundplan version."))
        else:
            diags.extend(registry.missing_provider(addr, full_address=True))
    return diags


def _declares_resources(config: Config) -> bool:
    return any(node.module.all_resources() for node in config.walk())


def unique(diags: Diagnostics) -> Diagnostics:
    """`diags` without repeats (same severity, summary and place), first one kept."""
    seen: set[tuple[Any, ...]] = set()
    out = Diagnostics()
    for d in diags:
        k = _key(d)
        if k not in seen:
            seen.add(k)
            out.append(d)
    return out
