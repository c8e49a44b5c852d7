"""Selecting and installing provider packages into `.terraform/providers`, as `terraform init`.

`ensure_providers(requirements, prior_locks, source, workdir, upgrade, say)` returns the new
`Locks` and diagnostics. A built-in provider (`terraform.io/builtin/terraform`) is only
announced ("- terraform.io/builtin/terraform is built in to groundplan"; an unknown type or a
version constraint is an error), before the others. For each other required provider (sorted
by address):

1. selection: the locked version unless `upgrade` (it must still meet the constraints), else
   the newest version the source offers that meets them;
2. installation, into `.terraform/providers/HOST/NS/TYPE/VERSION/OS_ARCH`: a cached package
   that matches the locked hashes is reused; otherwise the source's package is checked against
   the locked hashes (when the lock names this version), then a `.zip` is extracted there or an
   unpacked mirror directory is linked there (a symlink, as Terraform does);
3. the lock records the version, the normalised constraints and the package's `h1:` hash
   (plus the earlier hashes when the version is unchanged).

`say(line)` receives Terraform's progress lines ("- Installing hashicorp/aws v3.39.0...").
`Result.incomplete` names providers whose lock entry only has locally computed hashes.
"""

from __future__ import annotations

import os
import shutil
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.addrs import Provider as ProviderAddr
from engine.depsfile import Locks, ProviderLock
from engine.diags import Diagnostics, error
from engine.getproviders.hashing import H1, ZH, package_hash_v1, package_matches
from engine.getproviders.mirror import PackageMeta, current_platform
from engine.getproviders.source import MultiSource, ProviderNotFound, SourceError
from engine.getproviders.versions import (
    Selection,
    Version,
    allows,
    constraints_string,
    newest_allowed,
    parse_version,
)

PROVIDERS_DIR = os.path.join(".terraform", "providers")
#: the types of terraform.io/builtin providers there are (terraform's builtInProviderTypes)
BUILTIN_TYPES = ("terraform",)
CHECKSUM_DOCS = (
    "https://developer.hashicorp.com/terraform/language/files/dependency-lock#checksum-verification"
)


@dataclass(slots=True)
class Requirement:
    """The version constraints every module puts on one provider."""

    provider: ProviderAddr
    selections: list[Selection] = field(default_factory=list)


@dataclass(slots=True)
class Result:
    """The outcome of installing providers: the new locks, diagnostics and the providers left
    incomplete."""

    locks: Locks
    diags: Diagnostics
    incomplete: list[ProviderAddr] = field(default_factory=list)


def package_dir(workdir: str, provider: ProviderAddr, version: str, platform: str | None = None) -> str:
    """Where the package of one provider version is installed in a working directory."""
    return os.path.join(
        workdir, PROVIDERS_DIR, provider.hostname, provider.namespace, provider.type, version,
        platform or current_platform(),
    )


def _query_error(provider: ProviderAddr, detail: str, suggest: bool) -> Diagnostics:
    text = f"Could not retrieve the list of available versions for provider {provider.for_display()}: {detail}"
    if suggest:
        text += (
            f"\n\nTo see which modules are currently depending on {provider.for_display()} and what "
            "versions are specified, run the following command:\n    groundplan providers"
        )
    return Diagnostics([error("Failed to query available provider packages", text)])


def _install_error(provider: ProviderAddr, version: Version, detail: str) -> Diagnostics:
    return Diagnostics(
        [
            error(
                "Failed to install provider",
                f"Error while installing {provider.for_display()} v{version}: {detail}",
            )
        ]
    )


def _mismatch_detail(provider: ProviderAddr, version: Version, meta: PackageMeta) -> str:
    if meta.is_archive:
        return (
            f"the current package for {provider} {version} doesn't match any of the checksums "
            f"previously recorded in the dependency lock file; for more information: {CHECKSUM_DOCS}"
        )
    return (
        f"the local package for {provider} {version} doesn't match any of the checksums previously "
        "recorded in the dependency lock file (this might be because the available checksums are "
        f"for packages targeting different platforms); for more information: {CHECKSUM_DOCS}"
    )


def _remove(path: str) -> None:
    if os.path.islink(path) or os.path.isfile(path):
        os.unlink(path)
    elif os.path.isdir(path):
        shutil.rmtree(path)


def _extract(archive: str, target: str) -> None:
    """Unpack `archive` into `target` (replacing it), keeping the executable bits."""
    _remove(target)
    os.makedirs(target)
    root = os.path.realpath(target)
    with zipfile.ZipFile(archive) as zf:
        for info in zf.infolist():
            dest = os.path.realpath(os.path.join(target, info.filename))
            if not dest.startswith(root + os.sep):
                raise OSError(f"archive member {info.filename!r} would be outside the package")
            if info.is_dir():
                os.makedirs(dest, exist_ok=True)
                continue
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with zf.open(info) as src, open(dest, "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            mode = (info.external_attr >> 16) & 0o777
            os.chmod(dest, mode or 0o644)


def _link(directory: str, target: str) -> None:
    _remove(target)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    os.symlink(os.path.abspath(directory), target)


def _preferred(lock: ProviderLock | None, version: Version) -> list[str]:
    if lock is None or lock.version != str(version):
        return []
    return [h for h in lock.hashes if h.startswith((H1, ZH))]


def _select(
    req: Requirement, prior: ProviderLock | None, source: MultiSource, upgrade: bool, say: Callable[[str], None]
) -> tuple[Version | None, Diagnostics]:
    p = req.provider
    cstr = constraints_string(req.selections)
    if prior is not None and not upgrade:
        say(f"- Reusing previous version of {p.for_display()} from the dependency lock file")
        locked = parse_version(prior.version)
        if locked is None or not allows(req.selections, locked):
            return None, _query_error(
                p,
                f"locked provider {p} {prior.version} does not match configured version constraint "
                f"{cstr}; must use groundplan init -upgrade to allow selection of new versions",
                True,
            )
        return locked, Diagnostics()
    if cstr:
        say(f'- Finding {p.for_display()} versions matching "{cstr}"...')
    else:
        say(f"- Finding latest version of {p.for_display()}...")
    try:
        available = source.available_versions(p)
    except ProviderNotFound as exc:
        return None, _query_error(p, str(exc), False)
    except SourceError as exc:
        return None, _query_error(p, str(exc), True)
    chosen = newest_allowed(req.selections, available)
    if chosen is None:
        return None, _query_error(p, f"no available releases match the given constraints {cstr}", True)
    return chosen, Diagnostics()


def _install_one(
    req: Requirement, version: Version, prior: ProviderLock | None, source: MultiSource, workdir: str,
    say: Callable[[str], None], result: Result,
) -> None:
    p = req.provider
    cstr = constraints_string(req.selections)
    target = package_dir(workdir, p, str(version))
    preferred = _preferred(prior, version)
    try:
        if preferred and os.path.isdir(target) and package_matches(target, preferred):
            say(f"- Using previously-installed {p.for_display()} v{version}")
            assert prior is not None
            # Terraform keeps the whole earlier entry (constraints too) for a reused package
            result.locks.set(ProviderLock(p, str(version), prior.constraints, prior.hashes))
            return
    except (OSError, zipfile.BadZipFile):
        pass
    say(f"- Installing {p.for_display()} v{version}...")
    meta = source.package(p, version)
    if meta is None:
        result.diags.extend(
            _install_error(p, version, f"provider {p} {version} is not available for {current_platform()}")
        )
        return
    try:
        if preferred and not package_matches(meta.location, preferred):
            result.diags.extend(_install_error(p, version, _mismatch_detail(p, version, meta)))
            return
        if meta.is_archive:
            _extract(meta.location, target)
        else:
            _link(meta.location, target)
        local = package_hash_v1(target)
    except (OSError, zipfile.BadZipFile) as exc:
        result.diags.extend(_install_error(p, version, f"failed to install the package from {meta.location}: {exc}"))
        return
    result.locks.set(ProviderLock(p, str(version), cstr, [local, *preferred]))
    say(f"- Installed {p.for_display()} v{version} (unauthenticated)")
    if not preferred or sorted(preferred) == [local]:
        result.incomplete.append(p)


def _builtin(req: Requirement, say: Callable[[str], None]) -> Diagnostics:
    """A built-in provider needs no installation: terraform's "is built in" line, or its
    "Invalid dependency on built-in provider" for a type it does not have or a constraint."""
    p = req.provider
    if p.type not in BUILTIN_TYPES:
        problem = f'this groundplan release has no built-in provider named "{p.type}"'
    elif req.selections:
        problem = "built-in providers do not support explicit version constraints"
    else:
        say(f"- {p.for_display()} is built in to groundplan")
        return Diagnostics()
    return Diagnostics([error("Invalid dependency on built-in provider",
                              f"Cannot use {p.for_display()}: {problem}.")])


def ensure_providers(
    requirements: list[Requirement], prior_locks: Locks, source: MultiSource, workdir: str,
    upgrade: bool, say: Callable[[str], None],
) -> Result:
    """Select, install and lock every required provider (see the module docstring)."""
    result = Result(Locks(), Diagnostics())
    selected: list[tuple[Requirement, Version]] = []
    ordered = sorted(requirements, key=lambda r: str(r.provider))
    for req in ordered:
        if req.provider.is_builtin:
            result.diags.extend(_builtin(req, say))
    for req in ordered:
        if req.provider.is_builtin:
            continue
        version, diags = _select(req, prior_locks.provider(req.provider), source, upgrade, say)
        result.diags.extend(diags)
        if version is not None:
            selected.append((req, version))
    if result.diags.has_errors:
        return result
    for req, version in selected:
        _install_one(req, version, prior_locks.provider(req.provider), source, workdir, say, result)
    return result
