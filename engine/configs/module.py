"""The Module: everything one directory of configuration declares, merged across its files.

`append_file(module, file, diags)` adds one primary file's objects, reporting duplicates as
Terraform does; `merge.build_module` builds a whole module from its primary and override
files.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.configs.check_blocks import Check
from engine.configs.files import FileContents
from engine.configs.module_calls import ModuleCall
from engine.configs.outputs import Local, Output
from engine.configs.providers import (
    ProviderAddr,
    ProviderConfig,
    RequiredProvider,
    default_provider,
)
from engine.configs.refactoring import Import, Moved, Removed
from engine.configs.resources import Resource
from engine.configs.terraform_block import Backend, RawBlock
from engine.configs.variables import Variable
from engine.configs.versions import VersionConstraint
from engine.diags import Diagnostics, error
from engine.source import Range


@dataclass(slots=True)
class Module:
    """One module's configuration. Resources are keyed by `type.name` (data resources by
    `data.type.name`, ephemeral by `ephemeral.type.name`), provider configurations by
    `name` or `name.alias`."""

    source_dir: str
    files: list[str] = field(default_factory=list)
    variables: dict[str, Variable] = field(default_factory=dict)
    locals: dict[str, Local] = field(default_factory=dict)
    outputs: dict[str, Output] = field(default_factory=dict)
    provider_configs: dict[str, ProviderConfig] = field(default_factory=dict)
    required_providers: dict[str, RequiredProvider] = field(default_factory=dict)
    required_providers_range: Range | None = None
    required_versions: list[VersionConstraint] = field(default_factory=list)
    backend: Backend | None = None
    cloud: Backend | None = None
    encryption: RawBlock | None = None
    provider_metas: dict[str, RawBlock] = field(default_factory=dict)
    managed_resources: dict[str, Resource] = field(default_factory=dict)
    data_resources: dict[str, Resource] = field(default_factory=dict)
    ephemeral_resources: dict[str, Resource] = field(default_factory=dict)
    module_calls: dict[str, ModuleCall] = field(default_factory=dict)
    moved: list[Moved] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    removed: list[Removed] = field(default_factory=list)
    checks: dict[str, Check] = field(default_factory=dict)

    # ---------------------------------------------------------------------- lookups
    def resource(self, key: str) -> Resource | None:
        """A resource by `type.name`, `data.type.name` or `ephemeral.type.name`."""
        if key.startswith("data."):
            return self.data_resources.get(key)
        if key.startswith("ephemeral."):
            return self.ephemeral_resources.get(key)
        return self.managed_resources.get(key)

    def all_resources(self) -> list[Resource]:
        return [*self.managed_resources.values(), *self.data_resources.values(), *self.ephemeral_resources.values()]

    def provider_for_local_name(self, local_name: str) -> ProviderAddr:
        """The fully-qualified provider a local name means in this module."""
        req = self.required_providers.get(local_name)
        if req is not None:
            return req.addr
        return default_provider(local_name)

    def local_name_for_provider(self, addr: ProviderAddr) -> str:
        """The local name this module uses for a provider (its type if none declared)."""
        for name, req in self.required_providers.items():
            if req.addr == addr:
                return name
        return addr.type

    def resource_provider(self, r: Resource) -> ProviderAddr:
        """The provider that manages a resource."""
        return self.provider_for_local_name(r.provider_local_name)


def _dup(summary: str, detail: str, subject: Range, diags: Diagnostics) -> None:
    diags.append(error(summary, detail, subject))


def append_file(m: Module, f: FileContents, diags: Diagnostics) -> None:
    """Add a primary file's declarations to the module (Terraform's Module.appendFile)."""
    m.files.append(f.filename)
    for ts in f.terraform:
        m.required_versions.extend(ts.required_versions)
        for reqs, rng in ts.required_providers:
            if m.required_providers_range is not None:
                _dup(
                    "Duplicate required providers configuration",
                    "A module may have only one required providers configuration. The required "
                    f"providers were previously configured at {m.required_providers_range}.",
                    rng,
                    diags,
                )
                continue
            m.required_providers_range = rng
            for rp in reqs:
                m.required_providers[rp.name] = rp
        for b in ts.backends:
            if m.backend is not None:
                _dup(
                    "Duplicate backend configuration",
                    "A module may have only one backend configuration. The backend was previously "
                    f"configured at {m.backend.decl_range}.",
                    b.decl_range,
                    diags,
                )
                continue
            m.backend = b
        for c in ts.clouds:
            if m.cloud is not None:
                _dup(
                    "Duplicate HCP Terraform configurations",
                    "A module may have only one 'cloud' block configuring HCP Terraform or "
                    f"Terraform Enterprise. The 'cloud' block was previously configured at {m.cloud.decl_range}.",
                    c.decl_range,
                    diags,
                )
                continue
            m.cloud = c
        for pm in ts.provider_metas:
            if pm.label in m.provider_metas:
                _dup(
                    "Duplicate provider_meta block",
                    f'A provider_meta block for provider "{pm.label}" was already declared at '
                    f"{m.provider_metas[pm.label].decl_range}. Providers may only have one "
                    "provider_meta block per module.",
                    pm.decl_range,
                    diags,
                )
                continue
            m.provider_metas[pm.label] = pm
        for enc in ts.encryptions:
            if m.encryption is not None:
                _dup(
                    "Duplicate encryption configuration",
                    "A module may have only one encryption configuration. Encryption was "
                    f"previously configured at {m.encryption.decl_range}.",
                    enc.decl_range,
                    diags,
                )
                continue
            m.encryption = enc
    if m.backend is not None and m.cloud is not None and (f.terraform and (
        any(ts.backends for ts in f.terraform) or any(ts.clouds for ts in f.terraform)
    )):
        _dup(
            "Both a backend and cloud configuration are present",
            "A module may declare either one 'cloud' block OR one 'backend' block configuring a "
            "state backend. The 'cloud' block is configured at "
            f"{m.cloud.decl_range}; a backend is configured at {m.backend.decl_range}. Remove the "
            "backend block to configure HCP Terraform or Terraform Enteprise.",
            m.backend.decl_range,
            diags,
        )
    for pc in f.providers:
        existing = m.provider_configs.get(pc.key)
        if existing is not None:
            if existing.alias == "":
                detail = (
                    f'A default (non-aliased) provider configuration for "{existing.name}" was '
                    f"already given at {existing.decl_range}. If multiple configurations are "
                    'required, set the "alias" argument for alternative configurations.'
                )
            else:
                detail = (
                    f'A provider configuration for "{existing.name}" with alias '
                    f'"{existing.alias}" was already given at {existing.decl_range}. Each '
                    "configuration for the same provider must have a distinct alias."
                )
            _dup("Duplicate provider configuration", detail, pc.decl_range, diags)
            continue
        m.provider_configs[pc.key] = pc
    for v in f.variables:
        ev = m.variables.get(v.name)
        if ev is not None:
            _dup(
                "Duplicate variable declaration",
                f'A variable named "{v.name}" was already declared at {ev.decl_range}. Variable '
                "names must be unique within a module.",
                v.decl_range,
                diags,
            )
        m.variables[v.name] = v
    for lv in f.locals:
        el = m.locals.get(lv.name)
        if el is not None:
            _dup(
                "Duplicate local value definition",
                f'A local value named "{lv.name}" was already defined at {el.decl_range}. Local '
                "value names must be unique within a module.",
                lv.decl_range,
                diags,
            )
        m.locals[lv.name] = lv
    for o in f.outputs:
        eo = m.outputs.get(o.name)
        if eo is not None:
            _dup(
                "Duplicate output definition",
                f'An output named "{o.name}" was already defined at {eo.decl_range}. Output names '
                "must be unique within a module.",
                o.decl_range,
                diags,
            )
        m.outputs[o.name] = o
    for mc in f.module_calls:
        em = m.module_calls.get(mc.name)
        if em is not None:
            _dup(
                "Duplicate module call",
                f'A module call named "{mc.name}" was already defined at {em.decl_range}. Module '
                "calls must have unique names within a module.",
                mc.decl_range,
                diags,
            )
        m.module_calls[mc.name] = mc
    for r in f.managed:
        er = m.managed_resources.get(r.key)
        if er is not None:
            _dup(
                f'Duplicate resource "{er.type}" configuration',
                f'A {er.type} resource named "{er.name}" was already declared at {er.decl_range}. '
                "Resource names must be unique per type in each module.",
                r.decl_range,
                diags,
            )
            continue
        m.managed_resources[r.key] = r
    for r in f.ephemeral:
        er = m.ephemeral_resources.get(r.key)
        if er is not None:
            _dup(
                f'Duplicate ephemeral "{er.type}" configuration',
                f'A {er.type} ephemeral resource named "{er.name}" was already declared at '
                f"{er.decl_range}. Resource names must be unique per type in each module.",
                r.decl_range,
                diags,
            )
            continue
        m.ephemeral_resources[r.key] = r
    for r in f.data:
        _add_data(m, r, diags)
    for chk in f.checks:
        if chk.data_resource is not None:
            _add_data(m, chk.data_resource, diags)
        ec = m.checks.get(chk.name)
        if ec is not None:
            _dup(
                f'Duplicate check "{chk.name}" configuration',
                f'A check block named "{chk.name}" was already declared at {ec.decl_range}. Check '
                "blocks must be unique within each module.",
                chk.decl_range,
                diags,
            )
            continue
        m.checks[chk.name] = chk
    m.moved.extend(f.moved)
    m.removed.extend(f.removed)
    for imp in f.imports:
        static = imp.to_key and "[...]" not in imp.to_key and imp.for_each is None
        if static:
            for other in m.imports:
                if other.to_key == imp.to_key and other.for_each is None:
                    _dup(
                        f'Duplicate import configuration for "{imp.to_key}"',
                        f'An import block for the resource "{imp.to_key}" was already declared at '
                        f"{other.decl_range}. A resource can have only one import block.",
                        imp.to.range if imp.to is not None else imp.decl_range,
                        diags,
                    )
                    break
        m.imports.append(imp)


def _add_data(m: Module, r: Resource, diags: Diagnostics) -> None:
    er = m.data_resources.get(r.key)
    if er is not None:
        _dup(
            f'Duplicate data "{er.type}" configuration',
            f'A {er.type} data resource named "{er.name}" was already declared at {er.decl_range}. '
            "Resource names must be unique per type in each module.",
            r.decl_range,
            diags,
        )
        return
    m.data_resources[r.key] = r
