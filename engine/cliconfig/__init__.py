"""The CLI configuration file (`TF_CLI_CONFIG_FILE`, `~/.terraformrc`): provider installation."""

from __future__ import annotations

from engine.cliconfig.provider_installation import (
    CliConfig,
    InstallationMethod,
    ProviderPattern,
    cli_config_path,
    implied_local_mirror_dirs,
    load_cli_config,
    parse_cli_config,
    parse_pattern,
)

__all__ = [
    "CliConfig",
    "InstallationMethod",
    "ProviderPattern",
    "cli_config_path",
    "implied_local_mirror_dirs",
    "load_cli_config",
    "parse_cli_config",
    "parse_pattern",
]
