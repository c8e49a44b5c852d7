"""Preparing a working directory's module tree for `init`: see `engine.initwd.modules`."""

from __future__ import annotations

from engine.initwd.modules import (
    ModuleInstall,
    ModuleRecord,
    check_manifest,
    install_modules,
    manifest_json,
    read_manifest,
    write_manifest,
)

__all__ = ["ModuleInstall", "ModuleRecord", "check_manifest", "install_modules", "manifest_json", "read_manifest", "write_manifest"]
