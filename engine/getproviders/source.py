"""Where the installer looks for providers: the sources Terraform builds for `init`.

`build_source(plugin_dirs, cli_config, environ, cwd)` gives a `MultiSource`:

- with `-plugin-dir` flags: exactly those directories, as filesystem mirrors;
- else, with a `provider_installation` block: its methods in order;
- else the implied setup: each existing local mirror directory, then `direct` for every
  provider not found in them.

`MultiSource.available_versions(provider)` merges the versions of every method that selects
the provider (an unknown provider in one method is not an error); `package(provider,
version)` is the first method's package of that version. groundplan does not download from
registries or network mirrors: those methods report that they cannot be reached, in the words
Terraform uses for an unreachable registry.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from engine.addrs import Provider as ProviderAddr
from engine.cliconfig import (
    CliConfig,
    InstallationMethod,
    ProviderPattern,
    implied_local_mirror_dirs,
)
from engine.getproviders.mirror import FilesystemMirror, PackageMeta
from engine.getproviders.versions import Version


class SourceError(Exception):
    """A provider could not be queried; `str()` is Terraform's explanation."""


class ProviderNotFound(SourceError):
    """No selected source knows the provider."""

    def __init__(self, provider: ProviderAddr, locations: list[str]) -> None:
        self.provider = provider
        self.locations = locations
        listing = "".join(f"\n  - {loc}" for loc in locations)
        super().__init__(f"provider {provider} was not found in any of the search locations\n{listing}")


@dataclass(slots=True)
class Selector:
    """One installation method with its filters; `mirror` is None for network methods."""

    method: InstallationMethod
    mirror: FilesystemMirror | None = None

    def location(self) -> str:
        if self.mirror is not None:
            return self.mirror.base
        if self.method.kind == "direct":
            return "provider registry"
        return self.method.location


@dataclass(slots=True)
class MultiSource:
    """Installation methods consulted in order."""

    selectors: list[Selector] = field(default_factory=list)

    def available_versions(self, provider: ProviderAddr) -> list[Version]:
        """Every version of `provider` the selected methods offer for this platform, oldest
        first; raises `SourceError` (or `ProviderNotFound`)."""
        found: set[Version] = set()
        locations: list[str] = []
        for sel in self.selectors:
            if not sel.method.selects(provider):
                continue
            locations.append(sel.location())
            if sel.mirror is None:
                host = provider.hostname
                raise SourceError(
                    f"could not connect to {host}: failed to request discovery document: groundplan "
                    "installs providers only from filesystem mirrors (-plugin-dir, a "
                    "provider_installation filesystem_mirror, or ~/.terraform.d/plugins)"
                )
            found.update(sel.mirror.available_versions(provider))
        if not found:
            raise ProviderNotFound(provider, locations)
        return sorted(found)

    def package(self, provider: ProviderAddr, version: Version) -> PackageMeta | None:
        """The package of `version` from the first method that has it."""
        for sel in self.selectors:
            if sel.mirror is None or not sel.method.selects(provider):
                continue
            meta = sel.mirror.package(provider, version)
            if meta is not None:
                return meta
        return None


def _mirror(path: str, include: list[ProviderPattern] | None = None, exclude: list[ProviderPattern] | None = None) -> Selector:
    method = InstallationMethod("filesystem_mirror", path, list(include or []), list(exclude or []))
    return Selector(method, FilesystemMirror(path))


def build_source(plugin_dirs: list[str], cli_config: CliConfig, environ: dict[str, str], cwd: str) -> MultiSource:
    """The source `init` installs from (see the module docstring)."""
    if plugin_dirs:
        return MultiSource([_mirror(os.path.abspath(d)) for d in plugin_dirs])
    if cli_config.provider_installation is not None:
        out: list[Selector] = []
        for m in cli_config.provider_installation:
            if m.kind == "filesystem_mirror":
                out.append(Selector(m, FilesystemMirror(os.path.abspath(m.location))))
            else:
                out.append(Selector(m))
        return MultiSource(out)
    selectors: list[Selector] = []
    seen: set[ProviderAddr] = set()
    from engine.getproviders.mirror import search_mirror

    for d in implied_local_mirror_dirs(environ, cwd):
        if not os.path.isdir(d):
            continue
        selectors.append(_mirror(d))
        seen.update(p.provider for p in search_mirror(d))
    exclude = [ProviderPattern(p.hostname, p.namespace, p.type) for p in sorted(seen)]
    selectors.append(Selector(InstallationMethod("direct", "", [], exclude)))
    return MultiSource(selectors)
