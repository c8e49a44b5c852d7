"""`get`: install the modules the configuration calls, as `init` does, and nothing else.

As terraform's get: the module tree under the working directory is walked and installed
(engine.initwd.install_modules, printing `- key in dir` and `Downloading ...` as init does;
modules already recorded in `.terraform/modules/modules.json` are reused unless `-update`),
the manifest written (even for a configuration without module calls, or one that does not
load), and the errors shown. It takes no positional argument ("Too many
command line arguments. Did you mean to use -chdir?"); a bad flag prints the help and
"Error parsing command-line flags" in red, as terraform's legacy commands do.
"""

from __future__ import annotations

import os

from engine.cli.args import FlagError, FlagSet
from engine.cli.help_texts.other_commands import GET_HELP
from engine.cli.meta import Meta


def _legacy_error(meta: Meta, text: str) -> None:
    """terraform's cli.Ui.Error: the text in red (colour on), then a newline."""
    ui = meta.ui
    ui.stderr.write(f"\x1b[31m{text}\x1b[0m\x1b[0m\n" if ui.color else text + "\n")
    ui.stderr.flush()


def run_get(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().boolean("update").text("test-directory", "tests")
    try:
        rest = fs.parse(args)
    except FlagError as exc:
        _legacy_error(meta, GET_HELP)
        _legacy_error(meta, f"Error parsing command-line flags: {exc}\n")
        return 1
    if rest:
        _legacy_error(meta, "Too many command line arguments. Did you mean to use -chdir?")
        return 1
    from engine.diags import error
    from engine.initwd import install_modules, write_manifest

    ui = meta.ui
    try:
        os.makedirs(os.path.join(meta.cwd, ".terraform", "modules"), exist_ok=True)
    except OSError as exc:
        ui.legacy_diagnostics([error(f"failed to create local modules directory: {exc}")])
        return 1
    installed = install_modules(meta.cwd, ui.out, bool(fs.get("update")), meta.environ)
    diags = installed.diags
    if not installed.install_failed:
        # as terraform's get: written even for a configuration without module calls or one
        # that does not load, but not after a module could not be installed
        diags.extend(write_manifest(meta.cwd, installed.records))
    ui.legacy_diagnostics(diags)
    return 1 if diags.has_errors else 0
