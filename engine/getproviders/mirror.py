"""Finding provider packages in filesystem mirror directories (Terraform's layouts).

A mirror directory holds, for each provider `HOST/NAMESPACE/TYPE`:

- unpacked packages: `HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/` (the directory is the package);
- packed packages: `HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip`.

`search_mirror(dir)` lists every package found (entries that do not fit the layout are
skipped, as Terraform's SearchLocalDirectory does); `FilesystemMirror` answers the installer's
two questions for one directory: which versions of a provider exist for the current platform,
and where the package of one version is. Unreadable directories simply yield nothing.
"""

from __future__ import annotations

import os
import platform
import re
from dataclasses import dataclass

from engine.addrs import Provider as ProviderAddr
from engine.getproviders.versions import Version, parse_version

_ARCH = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64", "i386": "386",
         "i686": "386", "armv7l": "arm"}


def current_platform() -> str:
    """`OS_ARCH` of this machine as Go names it (`linux_amd64`)."""
    system = platform.system().lower() or "linux"
    machine = platform.machine().lower()
    return f"{system}_{_ARCH.get(machine, machine)}"


_PLATFORM_RE = re.compile(r"^[^_\s]+_[^\s]+$")


@dataclass(frozen=True, slots=True)
class PackageMeta:
    """One provider package: what it is and where it lies (a directory or a `.zip`)."""

    provider: ProviderAddr
    version: Version
    platform: str
    location: str

    @property
    def is_archive(self) -> bool:
        return not os.path.isdir(self.location)


def _listdir(path: str) -> list[str]:
    try:
        return sorted(os.listdir(path))
    except OSError:
        return []


def _packages_of_type(base: str, addr: ProviderAddr, type_dir: str) -> list[PackageMeta]:
    out: list[PackageMeta] = []
    archive_re = re.compile(
        r"^terraform-provider-" + re.escape(addr.type) + r"_([^_]+)_([^_\s]+_[^_\s.]+)\.zip$"
    )
    for entry in _listdir(type_dir):
        full = os.path.join(type_dir, entry)
        if os.path.isdir(full):
            version = parse_version(entry)
            if version is None:
                continue
            for plat in _listdir(full):
                pdir = os.path.join(full, plat)
                if _PLATFORM_RE.match(plat) and os.path.isdir(pdir):
                    out.append(PackageMeta(addr, version, plat, pdir))
            continue
        m = archive_re.match(entry)
        if m is None:
            continue
        version = parse_version(m.group(1))
        if version is not None:
            out.append(PackageMeta(addr, version, m.group(2), full))
    return out


def search_mirror(base: str) -> list[PackageMeta]:
    """Every package under mirror directory `base`, in directory order."""
    out: list[PackageMeta] = []
    for host in _listdir(base):
        for ns in _listdir(os.path.join(base, host)):
            for ptype in _listdir(os.path.join(base, host, ns)):
                type_dir = os.path.join(base, host, ns, ptype)
                if not os.path.isdir(type_dir):
                    continue
                addr = ProviderAddr(host.lower(), ns.lower(), ptype.lower())
                out.extend(_packages_of_type(base, addr, type_dir))
    return out


class FilesystemMirror:
    """One mirror directory, scanned lazily per provider."""

    def __init__(self, base: str, target_platform: str | None = None) -> None:
        self.base = base
        self.platform = target_platform or current_platform()

    def __str__(self) -> str:
        return self.base

    def packages(self, provider: ProviderAddr) -> list[PackageMeta]:
        """The packages of `provider` in this mirror, for any platform."""
        type_dir = os.path.join(self.base, provider.hostname, provider.namespace, provider.type)
        if not os.path.isdir(type_dir):
            return []
        return _packages_of_type(self.base, provider, type_dir)

    def has_provider(self, provider: ProviderAddr) -> bool:
        return bool(self.packages(provider))

    def available_versions(self, provider: ProviderAddr) -> list[Version]:
        """Versions of `provider` with a package for the target platform, oldest first."""
        found = {p.version for p in self.packages(provider) if p.platform == self.platform}
        return sorted(found)

    def package(self, provider: ProviderAddr, version: Version) -> PackageMeta | None:
        """The package of one version for the target platform (an unpacked directory wins
        over an archive of the same version)."""
        cands = [p for p in self.packages(provider) if p.platform == self.platform and p.version == version]
        cands.sort(key=lambda p: p.is_archive)
        return cands[0] if cands else None
