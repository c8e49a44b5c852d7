"""Provider installation: versions and constraints, filesystem mirrors, package hashes, the
installer behind `init`, and `installed_provider` for launching installed providers.

The planner's entry point is `installed_provider(workdir, provider_addr) -> (path | None,
Diagnostics)` (engine.getproviders.installed).
"""

from __future__ import annotations

from engine.getproviders.installed import find_executable, installed_provider

__all__ = ["find_executable", "installed_provider"]
