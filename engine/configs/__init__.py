"""The typed configuration: modules, resources, variables, outputs, providers and the rest,
decoded from the syntax tree with Terraform's validation messages.

Entry points:
- `load_module(dir) -> (Module, Diagnostics)` and `load_config(root_dir) -> (Config, Diagnostics)`.
- `check_references(config_or_module) -> Diagnostics` (what `validate` reports about references).
- `collect_variable_values(module, cli_args, environ, cwd) -> (dict[str, Value], Diagnostics)`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from engine.configs.check_blocks import Check
    from engine.configs.checks import CheckRule
    from engine.configs.loader import Config, load_config, load_module, module_files
    from engine.configs.meta import ProviderConfigRef
    from engine.configs.module import Module
    from engine.configs.module_calls import ModuleCall, PassedProvider
    from engine.configs.outputs import Local, Output
    from engine.configs.providers import (
        ProviderAddr,
        ProviderConfig,
        RequiredProvider,
        default_provider,
        parse_provider_source,
    )
    from engine.configs.provisioners import Connection, Provisioner
    from engine.configs.refactoring import Endpoint, Import, Moved, Removed
    from engine.configs.refcheck import check_module_references, check_references
    from engine.configs.refs import Reference, parse_ref
    from engine.configs.resources import DATA, EPHEMERAL, MANAGED, Lifecycle, Resource
    from engine.configs.terraform_block import Backend, RawBlock
    from engine.configs.variable_values import collect_variable_values
    from engine.configs.variables import PARSE_HCL, PARSE_LITERAL, Variable
    from engine.configs.versions import VersionConstraint, check_core_version

# name -> (module, attribute): each re-export is imported on first use, so importing one
# module of this package does not import the others.
_LAZY: dict[str, tuple[str, str]] = {
    "Check": ("engine.configs.check_blocks", "Check"),
    "CheckRule": ("engine.configs.checks", "CheckRule"),
    "Config": ("engine.configs.loader", "Config"),
    "load_config": ("engine.configs.loader", "load_config"),
    "load_module": ("engine.configs.loader", "load_module"),
    "module_files": ("engine.configs.loader", "module_files"),
    "ProviderConfigRef": ("engine.configs.meta", "ProviderConfigRef"),
    "Module": ("engine.configs.module", "Module"),
    "ModuleCall": ("engine.configs.module_calls", "ModuleCall"),
    "PassedProvider": ("engine.configs.module_calls", "PassedProvider"),
    "Local": ("engine.configs.outputs", "Local"),
    "Output": ("engine.configs.outputs", "Output"),
    "ProviderAddr": ("engine.configs.providers", "ProviderAddr"),
    "ProviderConfig": ("engine.configs.providers", "ProviderConfig"),
    "RequiredProvider": ("engine.configs.providers", "RequiredProvider"),
    "default_provider": ("engine.configs.providers", "default_provider"),
    "parse_provider_source": ("engine.configs.providers", "parse_provider_source"),
    "Connection": ("engine.configs.provisioners", "Connection"),
    "Provisioner": ("engine.configs.provisioners", "Provisioner"),
    "Endpoint": ("engine.configs.refactoring", "Endpoint"),
    "Import": ("engine.configs.refactoring", "Import"),
    "Moved": ("engine.configs.refactoring", "Moved"),
    "Removed": ("engine.configs.refactoring", "Removed"),
    "check_module_references": ("engine.configs.refcheck", "check_module_references"),
    "check_references": ("engine.configs.refcheck", "check_references"),
    "Reference": ("engine.configs.refs", "Reference"),
    "parse_ref": ("engine.configs.refs", "parse_ref"),
    "DATA": ("engine.configs.resources", "DATA"),
    "EPHEMERAL": ("engine.configs.resources", "EPHEMERAL"),
    "MANAGED": ("engine.configs.resources", "MANAGED"),
    "Lifecycle": ("engine.configs.resources", "Lifecycle"),
    "Resource": ("engine.configs.resources", "Resource"),
    "Backend": ("engine.configs.terraform_block", "Backend"),
    "RawBlock": ("engine.configs.terraform_block", "RawBlock"),
    "collect_variable_values": ("engine.configs.variable_values", "collect_variable_values"),
    "PARSE_HCL": ("engine.configs.variables", "PARSE_HCL"),
    "PARSE_LITERAL": ("engine.configs.variables", "PARSE_LITERAL"),
    "Variable": ("engine.configs.variables", "Variable"),
    "VersionConstraint": ("engine.configs.versions", "VersionConstraint"),
    "check_core_version": ("engine.configs.versions", "check_core_version"),
}


__getattr__ = lazy_exports(globals(), _LAZY)


__all__ = [
    "DATA", "EPHEMERAL", "MANAGED", "PARSE_HCL", "PARSE_LITERAL",
    "Backend", "Check", "CheckRule", "Config", "Connection", "Endpoint", "Import", "Lifecycle",
    "Local", "Module", "ModuleCall", "Moved", "Output", "PassedProvider", "ProviderAddr",
    "ProviderConfig", "ProviderConfigRef", "Provisioner", "RawBlock", "Reference", "Removed",
    "RequiredProvider", "Resource", "Variable", "VersionConstraint",
    "check_core_version", "check_module_references", "check_references",
    "collect_variable_values", "default_provider", "load_config", "load_module", "module_files",
    "parse_provider_source", "parse_ref",
]
