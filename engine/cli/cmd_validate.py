"""`validate`: load the configuration and evaluate it with unknown inputs.

`-json` prints Terraform's validate JSON (format_version "1.0", valid, error_count,
warning_count, diagnostics with range and snippet); otherwise "Success! The configuration
is valid." or the diagnostics. Exit 0 when valid, 1 otherwise.
"""

from __future__ import annotations

from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.diags import Diagnostics, to_json
from engine.operations.validate import check_config
from engine.plugin.loader import PluginRegistry
from engine.plugin.registry import ProviderRegistry
from engine.states import gojson


def validate_config(meta: Meta) -> Diagnostics:
    """Every problem `validate` reports for the configuration in the working directory;
    resources are checked against the schemas of their providers (the built-in one, and
    installed plugins)."""
    config, diags = meta.load_config()
    if diags.has_errors or config is None:
        return diags
    registry: ProviderRegistry = PluginRegistry(meta.cwd)
    try:
        diags.extend(check_config(config, meta.cwd, registry))
    finally:
        registry.close()
    return diags


def run_validate(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().boolean("json")
    rest = meta.parse_flags("validate", fs, args)
    if rest is None:
        return 1
    diags = validate_config(meta)
    if fs.get("json"):
        doc = {
            "format_version": "1.0",
            "valid": not diags.has_errors,
            "error_count": len(diags.errors),
            "warning_count": len(diags.warnings),
            "diagnostics": [to_json(d) for d in diags],
        }
        meta.ui.raw(gojson.dumps(doc) + "\n")
        return 1 if diags.has_errors else 0
    meta.ui.diagnostics(diags)
    if diags.has_errors:
        return 1
    if diags.warnings:
        meta.ui.out(
            "[green][bold]Success![reset] The configuration is valid, but there were some "
            "validation warnings as shown above.\n"
        )
        return 0
    meta.ui.out("[green][bold]Success![reset] The configuration is valid.\n")
    return 0
