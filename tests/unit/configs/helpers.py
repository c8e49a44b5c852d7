"""Shared helpers for the configs tests: write a module to disk and load it from there."""

from __future__ import annotations

import os
from pathlib import Path

from engine.configs import Config, check_core_version, load_config
from engine.configs.refcheck import check_references
from engine.diags import Diagnostics
from tests.modules_init import init_modules

TERRAFORM_VERSION = "1.11.4"


def write(root: Path, files: dict[str, str]) -> Path:
    """Write `files` (relative path → text) under `root`; return `root`."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def load_here(root: Path) -> tuple[Config, Diagnostics]:
    """Load the configuration in `root` as the CLI does after `init` (which installs the
    module tree): from inside it, so file names in diagnostics are relative (`main.tf`)."""
    old = os.getcwd()
    os.chdir(root)
    try:
        init_modules(".")
        return load_config(".")
    finally:
        os.chdir(old)


def validate_here(root: Path) -> Diagnostics:
    """What `validate` reports before evaluation: load errors, else the core version check
    and the reference check."""
    config, diags = load_here(root)
    if diags.has_errors:
        return diags
    diags.extend(check_core_version(config.module.required_versions, TERRAFORM_VERSION))
    diags.extend(check_references(config))
    return diags


def summarize(diags: Diagnostics) -> list[tuple[str, str, str, int | None, int | None]]:
    """(severity, summary, detail, line, column) of each diagnostic, sorted."""
    out = []
    for d in diags:
        s = d.subject.start if d.subject is not None else None
        out.append((d.severity.value, d.summary, d.detail, s.line if s else None, s.column if s else None))
    return sorted(out, key=lambda t: (t[3] or 0, t[4] or 0, t[1], t[2], t[0]))
