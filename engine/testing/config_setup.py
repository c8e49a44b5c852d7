"""The configuration one run executes, as terraform's TransformConfigForTest prepares it.

The configuration is the module under test, or the module a run's `module` block names
(`run.config`: loaded with the configuration, from the directory `init` installed it in,
keyed `test.<dirs>.<file>.<run>` in modules.json; engine.testing.loading).
The test file's `provider` blocks replace the module's blocks of the same name while the run
executes (and while its state is destroyed); `mock_provider` blocks make those configurations
mocked (engine.testing.providers). `override_module` replaces a module call's contents by its
given outputs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.addrs import Provider as ProviderAddr
from engine.configs.exprs import static_value
from engine.configs.module_calls import clean_local_source, is_local_source
from engine.diags import Diagnostics, error
from engine.testing.files import Run, TestFile
from engine.testing.module_overrides import install_module_overrides
from engine.testing.overrides import module_overrides
from engine.testing.providers import TestRegistry, mock_data_for
from engine.values import Value


@dataclass
class RunConfig:
    """A run's configuration, registry and the undo of the changes made to the config."""

    config: Any
    registry: TestRegistry
    working_dir: str
    state_key: str
    install: Any = None
    undo: list[Any] = field(default_factory=list)

    def reopen(self) -> None:
        """Put the run's changes to the configuration back (for destroying its state)."""
        if not self.undo and self.install is not None:
            self.undo = self.install()

    def close(self) -> None:
        """Undo the changes to the configuration and stop the run's provider instances."""
        for fn in reversed(self.undo):
            fn()
        self.undo = []
        self.registry.close()


def _mocks(config: Any, file: TestFile) -> tuple[dict[Any, Any], Diagnostics]:
    diags = Diagnostics()
    out: dict[Any, Any] = {}
    for mock in file.mocks.values():
        pa = config.module.provider_for_local_name(mock.name)
        addr = ProviderAddr(pa.hostname, pa.namespace, pa.type)
        defaults: dict[tuple[str, bool], Value] = {}
        for table, data in ((mock.resources, False), (mock.data, True)):
            for tname, mt in table.items():
                if mt.defaults is None:
                    continue
                val, more = static_value(mt.defaults)
                diags.extend(more)
                if val is not None:
                    defaults[(tname, data)] = val
        out[(addr, mock.alias)] = (mock, mock_data_for(mock, defaults))
    return out, diags


def _run_providers(file: TestFile, run: Run) -> dict[str, Any]:
    """The provider blocks a run installs: all of the file's, or only those its `providers`
    argument maps (under the names it maps them to)."""
    if not run.providers:
        return dict(file.providers)
    from dataclasses import replace

    from engine.hcl.ast import traversal_str

    out: dict[str, Any] = {}
    for child, (trav, _rng) in run.providers.items():
        pc = file.providers.get(traversal_str(trav))
        if pc is None:
            continue
        name, _, alias = child.partition(".")
        out[child] = replace(pc, name=name, alias=alias)
    return out


def prepare_run_config(ctx: Any, file: TestFile, run: Run,
                       registries: dict[int, TestRegistry]
                       ) -> tuple[RunConfig | None, Diagnostics]:
    """The configuration `run` executes, with the test file's providers installed.
    `registries` keeps one registry per configuration for the file (schemas fetched once;
    provider instances are stopped after every run)."""
    diags = Diagnostics()
    config = ctx.config
    state_key = ""
    if run.module is not None:
        if run.config is None:
            diags.append(error(
                "Module not installed",
                "This module is not yet installed. Run \"groundplan init\" to install all "
                "modules required by this configuration.", run.module.decl_range))
            return None, diags
        config = run.config
        # as terraform: the state of a run's module is kept under its source address
        source = run.module.source
        state_key = clean_local_source(source) if is_local_source(source) else source
    registry = registries.get(id(config))
    if registry is None:
        mocks, more = _mocks(config, file)
        diags.extend(more)
        if diags.has_errors:
            return None, diags
        registry = registries[id(config)] = TestRegistry(ctx.cwd, mocks)
    registry.override_layers = [run.overrides, file.overrides]
    layers = [run.overrides, file.overrides]

    def install() -> list[Any]:
        undo: list[Any] = []
        module = config.module
        saved = module.provider_configs
        merged = dict(saved)
        merged.update(_run_providers(file, run))
        module.provider_configs = merged
        undo.append(lambda: setattr(module, "provider_configs", saved))
        undo.extend(install_module_overrides(config, module_overrides(layers)))
        return undo

    rc = RunConfig(config, registry, ctx.cwd, state_key, install)
    rc.undo = install()
    return rc, diags
