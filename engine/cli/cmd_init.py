"""`init`: check that the configuration loads and prepare the working directory.

Without providers or remote modules to install, initialising means loading the
configuration (reporting its errors), creating `.terraform/`, and saying so as Terraform
does.
"""

from __future__ import annotations

import json
import os
from typing import Any

from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.diags import error

SUCCESS = "[reset][bold][green]Terraform has been successfully initialized![reset][green]"
EMPTY_DIR = (
    "[reset][bold]Terraform initialized in an empty directory![reset]\n\n"
    "The directory has no Terraform configuration files. You may begin working\n"
    "with Terraform immediately by creating Terraform configuration files."
)
NEXT_STEPS = (
    "[reset][green]\n"
    'You may now begin working with Terraform. Try running "terraform plan" to see\n'
    "any changes that are required for your infrastructure. All Terraform commands\n"
    "should now work.\n\n"
    "If you ever set or change modules or backend configuration for Terraform,\n"
    "rerun this command to reinitialize your working directory. If you forget, other\n"
    "commands will detect it and remind you to do so if necessary."
)


def module_manifest(config: Any, root_dir: str) -> dict[str, Any]:
    """`.terraform/modules/modules.json` as Terraform writes it (local modules only)."""
    records: list[dict[str, str]] = [{"Key": "", "Source": "", "Dir": "."}]

    def walk(node: Any) -> None:
        for name in sorted(node.children):
            child = node.children[name]
            rel = os.path.relpath(child.module.source_dir, root_dir)
            source = child.call.source if child.call is not None else ""
            records.append({"Key": ".".join(child.path), "Source": source, "Dir": rel})
            walk(child)

    walk(config)
    return {"Modules": records}


def write_manifest(config: Any, root_dir: str) -> None:
    directory = os.path.join(root_dir, ".terraform", "modules")
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "modules.json"), "w", encoding="utf-8") as fh:
        fh.write(json.dumps(module_manifest(config, root_dir), separators=(",", ":")))


def run_init(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().boolean("input", True).boolean("upgrade").boolean("reconfigure")
    fs.boolean("migrate-state").boolean("backend", True).boolean("get", True)
    fs.multi("backend-config").text("plugin-dir").boolean("lock", True).text("lock-timeout")
    rest = meta.parse_flags("init", fs, args)
    if rest is None:
        return 1
    ui = meta.ui
    if rest:
        ui.diagnostics(
            [
                error(
                    "Too many command line arguments",
                    "Did you mean to use -chdir? If this command is run with no arguments, "
                    "it initializes the working directory.",
                )
            ]
        )
        return 1
    config, diags = meta.load_config()
    if diags.has_errors or config is None:
        ui.diagnostics(diags)
        return 1
    if not config.module.files:
        ui.out(EMPTY_DIR)
        return 0
    ui.out("[reset][bold]Initializing the backend...")
    calls = getattr(config.module, "module_calls", {}) or {}
    if calls:
        ui.out("[reset][bold]Initializing modules...")
        for name in sorted(calls):
            ui.out(f"- {name} in {calls[name].source.removeprefix('./')}")
    try:
        os.makedirs(os.path.join(meta.cwd, ".terraform"), exist_ok=True)
        if calls:
            write_manifest(config, meta.cwd)
    except OSError as exc:
        ui.diagnostics([error("Failed to create the working directory", str(exc))])
        return 1
    ui.out("[reset][bold]Initializing provider plugins...")
    ui.diagnostics(diags)
    ui.out("\n" + SUCCESS)
    if not meta.in_automation:
        ui.out(NEXT_STEPS)
    return 0
