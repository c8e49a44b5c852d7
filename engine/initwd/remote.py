"""Installing registry and remote module packages: terraform's installRegistryModule and
installGoGetterModule.

`RemoteInstaller(environ)` serves one `init`. `source_string(mc)` is the address terraform
records in modules.json for a call (`NS/NAME/SYSTEM//sub` with the host unless it is the
public registry; a remote package normalised by go-getter's detectors). `install(...)` fetches
the package of one call into `.terraform/modules/<key>` and answers the module directory, the
selected registry version, and diagnostics in terraform's words: version lists and download
locations come from `engine.initwd.registry_client` (each answer cached per package for this
`init`), packages from `engine.initwd.fetch`. Progress lines go to `say`: "Downloading
ADDR VERSION for KEY..." and, after a successful install, "- KEY in DIR".
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.configs.module_calls import SourcedCall
from engine.configs.registry_addrs import RegistryModule, parse_module_registry_source
from engine.configs.versions import Version
from engine.diags import Diagnostics, error, warning
from engine.initwd.fetch import (
    FetchError,
    MaybeRelativePath,
    PackageFetcher,
    normalize_remote,
    remote_string,
)
from engine.initwd.registry_client import ModuleNotFound, RegistryClient, RegistryError

_META = re.compile(r"\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*)$")


def go_version_string(v: Version) -> str:
    """hashicorp/go-version's String(): three or more segments, pre-release, metadata."""
    text = ".".join(str(s) for s in v.segments)
    if v.prerelease:
        text += "-" + v.prerelease
    m = _META.search(v.original)
    return text + ("+" + m.group(1) if m else "")


def registry_source(source: str) -> RegistryModule | None:
    """The registry address of a module source, or None when it is not one (terraform tries
    the registry syntax first, then a remote package)."""
    try:
        return parse_module_registry_source(source)
    except ValueError:
        return None


def _package(mod: RegistryModule) -> str:
    return f"{mod.host}/{mod.namespace}/{mod.name}/{mod.target_system}"


def source_string(source: str) -> str:
    """The normalised source address terraform records for a non-local call."""
    mod = registry_source(source)
    if mod is not None:
        host = "" if mod.host == "registry.terraform.io" else mod.host + "/"
        sub = f"//{mod.subdir}" if mod.subdir else ""
        return f"{host}{mod.namespace}/{mod.name}/{mod.target_system}{sub}"
    try:
        return remote_string(*normalize_remote(source))
    except ValueError:
        return source


def package_of(source: str) -> tuple[str, str]:
    """(package address, sub-directory) of a non-local source, as terraform's splitAddrSubdir
    names the package a module belongs to."""
    mod = registry_source(source)
    if mod is not None:
        host = "" if mod.host == "registry.terraform.io" else mod.host + "/"
        return f"{host}{mod.namespace}/{mod.name}/{mod.target_system}", mod.subdir
    try:
        return normalize_remote(source)
    except ValueError:
        return source, ""


def _where(mc: SourcedCall) -> str:
    return f"{os.path.normpath(mc.decl_range.filename)}:{mc.decl_range.start.line}"


def _prerelease_named(mc: SourcedCall, v: Version) -> bool:
    """apparentlymart/go-versions: a pre-release is acceptable only when a clause names it
    exactly."""
    clauses = mc.version.clauses if mc.version is not None else []
    return any(c.op in ("", "=") and c.version.segments == v.segments
               and c.version.prerelease == v.prerelease for c in clauses)


@dataclass
class RemoteInstaller:
    """Installs the registry and remote packages of one `init` (see the module docstring)."""

    environ: dict[str, str]
    client: RegistryClient = field(init=False)
    fetcher: PackageFetcher = field(init=False)
    _versions: dict[str, list[str]] = field(default_factory=dict)
    _locations: dict[tuple[str, str], str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.client = RegistryClient(self.environ)
        self.fetcher = PackageFetcher(self.environ)

    def install(self, name: str, mc: SourcedCall, key: str, inst_path: str,
                say: Callable[[str], None]) -> tuple[str | None, str, Diagnostics]:
        """(module directory or None, registry version or "", diagnostics)."""
        shutil.rmtree(inst_path, ignore_errors=True)
        if os.path.islink(inst_path):
            os.unlink(inst_path)
        mod = registry_source(mc.source)
        if mod is not None:
            return self._registry(name, mc, key, inst_path, mod, say)
        directory, diags = self._remote(name, mc, key, inst_path, say)
        return directory, "", diags

    def _select(self, name: str, mc: SourcedCall, mod: RegistryModule, diags: Diagnostics) -> Version | None:
        pkg = _package(mod)
        host = mod.host
        if pkg not in self._versions:
            try:
                self._versions[pkg] = self.client.module_versions(mod)
            except ModuleNotFound:
                diags.append(error(
                    "Module not found",
                    f'Module "{name}" (from {_where(mc)}) cannot be found in the module registry at {host}.',
                    mc.decl_range))
                return None
            except RegistryError as exc:
                diags.append(error(
                    "Error accessing remote module registry",
                    f'Failed to retrieve available versions for module "{name}" ({_where(mc)}) from {host}: {exc}.',
                    mc.decl_range))
                return None
        listed = self._versions[pkg]
        if not listed:
            diags.append(error(
                "Invalid response from remote module registry",
                f"The registry at {host} returned an invalid response when groundplan requested available "
                f'versions for module "{name}" ({_where(mc)}).', mc.decl_range))
            return None
        latest: Version | None = None
        match: Version | None = None
        shown = source_string(mc.source)
        for text in listed:
            v = Version.parse(text)
            if v is None:
                diags.append(warning(
                    "Invalid response from remote module registry",
                    f'The registry at {host} returned an invalid version string "{text}" for module '
                    f'"{name}" ({_where(mc)}), which groundplan ignored.', mc.decl_range))
                continue
            if v.prerelease and not _prerelease_named(mc, v):
                continue
            if latest is None or v._cmp(latest) > 0:
                latest = v
            if (mc.version is None or all(c.allows(v) for c in mc.version.clauses)) and (
                    match is None or v._cmp(match) > 0):
                match = v
        if latest is None:
            diags.append(error(
                "Module has no versions",
                f'Module "{shown}" ({_where(mc)}) has no versions available on {host}.', mc.decl_range))
            return None
        if match is None:
            diags.append(error(
                "Unresolvable module version constraint",
                f'There is no available version of module "{shown}" ({_where(mc)}) which matches the '
                f"given version constraint. The newest available version is {go_version_string(latest)}.",
                mc.decl_range))
            return None
        return match

    def _registry(self, name: str, mc: SourcedCall, key: str, inst_path: str, mod: RegistryModule,
                  say: Callable[[str], None]) -> tuple[str | None, str, Diagnostics]:
        diags = Diagnostics()
        chosen = self._select(name, mc, mod, diags)
        if chosen is None:
            return None, "", diags
        version = go_version_string(chosen)
        pkg = _package(mod)
        shown = source_string(mc.source)
        say(f"Downloading {pkg} {version} for {key}...")
        if (pkg, version) not in self._locations:
            try:
                raw = self.client.module_location(mod, version)
            except RegistryError as exc:
                diags.append(error(
                    "Error accessing remote module registry",
                    f"Failed to retrieve a download URL for {shown} {version} from {mod.host}: {exc}"))
                return None, "", diags
            if registry_source(raw) is not None or raw.startswith(("./", "../")):
                diags.append(error(
                    "Invalid package location from module registry",
                    f'Module registry {mod.host} returned invalid source location "{raw}" for {shown} '
                    f"{version}: must be a direct remote package address."))
                return None, "", diags
            self._locations[(pkg, version)] = raw
        raw = self._locations[(pkg, version)]
        try:
            package, subdir = normalize_remote(raw)
        except ValueError as exc:
            diags.append(error(
                "Invalid package location from module registry",
                f'Module registry {mod.host} returned invalid source location "{raw}" for {shown} {version}: {exc}.'))
            return None, "", diags
        try:
            self.fetcher.fetch(inst_path, package)
        except (FetchError, OSError) as exc:
            diags.append(error(
                "Failed to download module",
                f'Could not download module "{name}" ({_where(mc)}) source code from '
                f'"{remote_string(package, subdir)}": {exc}.', mc.decl_range))
            return None, "", diags
        if subdir and mod.subdir:
            subdir = os.path.join(subdir, mod.subdir)
        elif mod.subdir:
            subdir = mod.subdir
        mod_dir = os.path.join(inst_path, subdir) if subdir else inst_path
        if not os.path.isdir(mod_dir):
            if subdir and os.path.isdir(inst_path):
                diags.append(error(
                    "Unreadable module subdirectory",
                    f"The directory {mod_dir} does not exist. The target submodule {subdir} does not "
                    "exist within the target module."))
            else:
                diags.append(error(
                    "Unreadable module directory",
                    f"The directory {mod_dir} could not be read. This is a bug in groundplan and should "
                    "be reported."))
            return None, "", diags
        say(f"- {key} in {mod_dir}")
        return mod_dir, version, diags

    def _remote(self, name: str, mc: SourcedCall, key: str, inst_path: str,
                say: Callable[[str], None]) -> tuple[str | None, Diagnostics]:
        diags = Diagnostics()
        try:
            package, subdir = normalize_remote(mc.source)
        except MaybeRelativePath:
            diags.append(error(
                "Module not found",
                f'The module address "{mc.source}" could not be resolved.\n\nIf you intended this as a '
                f'path relative to the current module, use "./{mc.source}" instead. The "./" prefix '
                "indicates that the address is a relative filesystem path."))
            return None, diags
        except ValueError as exc:
            diags.append(error(
                "Invalid module source address",
                f"Failed to parse module source address: {exc}.", mc.source_range or mc.decl_range))
            return None, diags
        say(f"Downloading {package} for {key}...")
        try:
            self.fetcher.fetch(inst_path, package)
        except (FetchError, OSError) as exc:
            diags.append(error(
                "Failed to download module",
                f'Could not download module "{name}" ({_where(mc)}) source code from "{package}": {exc}',
                mc.decl_range))
            return None, diags
        mod_dir = inst_path
        if subdir:
            import glob

            matches = glob.glob(os.path.join(inst_path, subdir))
            if not matches:
                diags.append(error("Failed to expand subdir globs", f'subdir "{subdir}" not found'))
                return None, diags
            if len(matches) > 1:
                diags.append(error("Failed to expand subdir globs", f'subdir "{subdir}" matches multiple paths'))
                return None, diags
            mod_dir = matches[0]
        say(f"- {key} in {mod_dir}")
        return mod_dir, diags
