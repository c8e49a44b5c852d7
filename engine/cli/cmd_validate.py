"""`validate`: load the configuration and evaluate it with unknown inputs.

`-json` prints Terraform's validate JSON (format_version "1.0", valid, error_count,
warning_count, diagnostics with range and snippet); otherwise "Success! The configuration
is valid." or the diagnostics. Exit 0 when valid, 1 otherwise.
"""

from __future__ import annotations

from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.diags import Diagnostics, error, terraform_order, to_json
from engine.gocompat import json as gojson
from engine.operations.validate import check_config, check_config_dependencies
from engine.plugin.loader import PluginRegistry


def validate_config(meta: Meta, directory: str = ".") -> Diagnostics:
    """Every problem `validate` reports for the configuration in `directory` (the working
    directory's modules and providers); resources are checked against the schemas of their
    providers (the built-in one, and installed plugins)."""
    config, diags = meta.load_config(directory)
    if diags.has_errors or config is None:
        return diags
    registry: PluginRegistry = PluginRegistry(meta.cwd)
    try:
        # terraform's checkConfigDependencies: every provider the configuration needs must
        # be installed, or validation stops here (never "Success!" without its schemas)
        dependencies = check_config_dependencies(config, registry)
        diags.extend(dependencies)
        if dependencies.has_errors:
            return diags
        diags.extend(check_config(config, meta.cwd, registry))
    finally:
        registry.close()
    return diags


def run_validate(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().boolean("json")
    fs.boolean("no-tests").text("test-directory")
    rest = meta.parse_flags("validate", fs, args)
    if rest is None:
        return 1
    if len(rest) > 1:
        meta.ui.diagnostics([error("Too many command line arguments",
                                   "Expected at most one positional argument.")])
        meta.ui.err("\nFor more help on using this command, run:\n  groundplan validate -help")
        return 1
    diags = validate_config(meta, rest[0] if rest else ".")
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
    meta.ui.diagnostics(terraform_order(diags))
    if diags.has_errors:
        return 1
    if diags.warnings:
        _result(meta, "[green][bold]Success![reset] The configuration is valid, but there "
                      "were some validation warnings as shown above.\n")
        return 0
    _result(meta, "[green][bold]Success![reset] The configuration is valid.\n")
    return 0


def _result(meta: Meta, message: str) -> None:
    """The closing line as terraform prints it: coloured first, then word-wrapped at 78
    columns (so the colour codes count toward the width, as in terraform)."""
    from engine.cli.ui import colorize
    from engine.plans.render_human import word_wrap

    meta.ui.raw(word_wrap(colorize(message, meta.ui.color), 78) + "\n")
