"""The configuration one run executes, as terraform's TransformConfigForTest prepares it.

The configuration is the module under test, or the module a run's `module` block names
(loaded with the modules `init` installed for it, keyed `test.<file>.<run>` in modules.json).
The test file's `provider` blocks replace the module's blocks of the same name while the run
executes (and while its state is destroyed); `mock_provider` blocks make those configurations
mocked (engine.testing.providers). `override_module` replaces a module call's contents by its
given outputs.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from engine.addrs import Provider as ProviderAddr
from engine.configs.exprs import static_value
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


def _manifest(cwd: str, prefix: str) -> dict[str, tuple[str, str]]:
    path = os.path.join(cwd, ".terraform", "modules", "modules.json")
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return {}
    out: dict[str, tuple[str, str]] = {}
    for rec in data.get("Modules", []) if isinstance(data, dict) else []:
        key = str(rec.get("Key", ""))
        if key.startswith(prefix + "."):
            out[key[len(prefix) + 1:]] = (os.path.join(cwd, str(rec.get("Dir", ""))),
                                          str(rec.get("Source", "")))
    return out


def _module_key(file: TestFile, run: Run) -> str:
    stem = file.name
    for ext in (".tftest.hcl", ".tftest.json"):
        if stem.endswith(ext):
            stem = stem[: -len(ext)]
    return "test." + stem.replace(os.sep, ".").replace("/", ".") + "." + run.name


_module_cache: dict[tuple[str, str], tuple[Any, Diagnostics]] = {}


def _load_module(ctx: Any, file: TestFile, run: Run) -> tuple[Any, Diagnostics]:
    from engine.configs import load_config

    assert run.module is not None
    directory = os.path.normpath(os.path.join(ctx.cwd, run.module.source))
    key = (directory, _module_key(file, run))
    if key not in _module_cache:
        if not os.path.isdir(directory):
            return None, Diagnostics([error(
                "Module not installed",
                f"The module {run.module.source} of run \"{run.name}\" could not be found. Run "
                '"groundplan init" to install all modules required by this configuration.',
                run.module.decl_range)])
        _module_cache[key] = load_config(directory, _manifest(ctx.cwd, key[1]))
    return _module_cache[key]


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
        config, more = _load_module(ctx, file, run)
        diags.extend(more)
        if more.has_errors or config is None:
            return None, diags
        state_key = run.module.source
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
