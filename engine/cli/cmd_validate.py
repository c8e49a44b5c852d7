"""`validate`: load the configuration and evaluate it with unknown inputs.

`-json` prints Terraform's validate JSON (format_version "1.0", valid, error_count,
warning_count, diagnostics with range and snippet); otherwise "Success! The configuration
is valid." or the diagnostics. Exit 0 when valid, 1 otherwise. `-no-tests` leaves the test
files out; `-test-directory=DIR` (default `tests`) is where, besides the module directory,
they are found.
"""

from __future__ import annotations

from typing import Any

from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.diags import Diagnostics, error, to_json
from engine.gocompat import json as gojson
from engine.operations.validate import check_config, check_config_dependencies
from engine.plugin.loader import PluginRegistry


def validate_config(meta: Meta, directory: str = ".", tests: bool = True,
                    test_dir: str = "tests") -> Diagnostics:
    """Every problem `validate` reports for the configuration in `directory` (the working
    directory's modules and providers); resources are checked against the schemas of their
    providers (the built-in one, and installed plugins). With `tests` (terraform's default;
    `-no-tests` turns it off) the test files of `test_dir` load with the configuration, and
    are validated after it (engine.testing.validate): each local module a run block names
    is validated as a configuration of its own."""
    files: list[Any] = []
    if tests:
        config, files, diags = meta.load_config_with_tests(directory, test_dir)
    else:
        config, diags = meta.load_config(directory)
    if diags.has_errors or config is None:
        return diags
    registry: PluginRegistry = PluginRegistry(meta.cwd)
    try:
        def validate(cfg: Any) -> Diagnostics:
            # terraform's checkConfigDependencies: every provider the configuration needs
            # must be installed, or validation stops here (never "Success!" without schemas)
            dependencies = check_config_dependencies(cfg, registry)
            if dependencies.has_errors:
                return dependencies
            dependencies.extend(check_config(cfg, meta.cwd, registry))
            return dependencies

        diags.extend(validate(config))
        if tests:
            from engine.testing.validate import validate_test_files

            diags.extend(validate_test_files(config, files, validate))
    finally:
        registry.close()
    return diags


def run_validate(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().boolean("json")
    fs.boolean("no-tests").text("test-directory", "tests")
    rest = meta.parse_flags("validate", fs, args)
    if rest is None:
        return 1
    if len(rest) > 1:
        meta.ui.diagnostics([error("Too many command line arguments",
                                   "Expected at most one positional argument.")])
        meta.ui.err("\nFor more help on using this command, run:\n  groundplan validate -help")
        return 1
    diags = validate_config(meta, rest[0] if rest else ".", not fs.get("no-tests"),
                            str(fs.get("test-directory")))
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
    meta.ui.diagnostics(diags)  # sorted and folded by the Ui, as terraform's view
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
