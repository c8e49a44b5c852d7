"""`get`: install the modules the configuration calls, as `init` does, and nothing else.

As terraform's get: the module tree under the working directory is walked and installed
(engine.initwd.install_modules, printing `- key in dir` and `Downloading ...` as init does;
modules already recorded in `.terraform/modules/modules.json` are reused unless `-update`),
the manifest written (even for a configuration without module calls, or one that does not
load), and the errors shown. It takes no positional argument ("Too many command line
arguments. Did you mean to use -chdir?"); `-test-directory DIR` names where the test files
are whose run blocks' modules are installed too (default `tests`); a bad flag prints the
help and "Error parsing command-line flags" in red, as terraform's legacy commands do.
"""

from __future__ import annotations

import os

from engine.cli.args import FlagError, FlagSet
from engine.cli.help_texts.other_commands import GET_HELP
from engine.cli.meta import Meta


def run_get(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().boolean("update").text("test-directory", "tests")
    try:
        rest = fs.parse(args)
    except FlagError as exc:
        meta.ui.legacy_error(GET_HELP)
        meta.ui.legacy_error(f"Error parsing command-line flags: {exc}\n")
        return 1
    if rest:
        meta.ui.legacy_error("Too many command line arguments. Did you mean to use -chdir?")
        return 1
    from engine.diags import Diagnostics, error
    from engine.initwd import write_manifest
    from engine.testing.loading import install_modules_with_tests

    ui = meta.ui
    try:
        os.makedirs(os.path.join(meta.cwd, ".terraform", "modules"), exist_ok=True)
    except OSError as exc:
        ui.legacy_diagnostics([error(f"failed to create local modules directory: {exc}")])
        return 1
    installed = install_modules_with_tests(meta.cwd, ui.out, str(fs.get("test-directory")),
                                           bool(fs.get("update")), meta.environ)
    diags = Diagnostics([*installed.early, *installed.diags])
    if not installed.install_failed:
        # as terraform's get: written even for a configuration without module calls or one
        # that does not load, but not after a module could not be installed
        diags.extend(write_manifest(meta.cwd, installed.records))
    ui.legacy_diagnostics(diags)
    return 1 if diags.has_errors else 0
