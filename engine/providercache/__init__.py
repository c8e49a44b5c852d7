"""The providers `init` installs into `.terraform/providers` (Terraform's providercache).

- `install.ensure_providers`: the installer behind `init`: select versions from the sources
  of `engine.getproviders`, fetch and verify packages, and record them in the lock file
  (`engine.depsfile`).
- `installed_provider(workdir, provider_addr) -> (path | None, Diagnostics)`: the executable
  of an installed provider for the planner, checked against the lock file
  (engine.providercache.installed).

It sits above both `getproviders` (versions, hashes, mirrors) and `depsfile` (the lock file).
"""

from __future__ import annotations

from engine.providercache.installed import find_executable, installed_provider

__all__ = ["find_executable", "installed_provider"]
