"""The typed configuration: modules, resources, variables, outputs, providers and the rest,
decoded from the syntax tree with Terraform's validation messages.

Entry points:
- `load_module(dir) -> (Module, Diagnostics)` and `load_config(root_dir) -> (Config, Diagnostics)`.
- `check_references(config_or_module) -> Diagnostics` (what `validate` reports about references).
- `collect_variable_values(module, cli_args, environ, cwd) -> (dict[str, Value], Diagnostics)`.
"""

from __future__ import annotations

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
