"""`installed_provider`: the executable of a provider that `init` installed, for the planner.

`installed_provider(workdir, provider)` -> `(path | None, Diagnostics)`. It reads the lock
file of `workdir`, finds `.terraform/providers/HOST/NS/TYPE/VERSION/OS_ARCH/` for the locked
version, checks that the package still matches a locked `h1:` hash, and returns the package's
`terraform-provider-TYPE*` executable. Every failure (no lock entry, not installed, changed
package, no executable) is an error diagnostic in Terraform's words asking for `init`.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

from engine.addrs import Provider as ProviderAddr
from engine.diags import Diagnostics, error
from engine.getproviders.hashing import H1, package_hash_v1

if TYPE_CHECKING:
    from engine.depsfile.locks import ProviderLock

_verified: dict[tuple[str, str, float], bool] = {}
_mu = threading.Lock()


def _missing(provider: ProviderAddr, reason: str) -> Diagnostics:
    return Diagnostics(
        [
            error(
                "Required plugins are not installed",
                "The installed provider plugins are not consistent with the packages selected in the "
                f"dependency lock file:\n  - {provider}: {reason}\n\ngroundplan uses external plugins "
                "to integrate with a variety of different infrastructure services. To download the "
                'plugins required for this configuration, run:\n  groundplan init',
            )
        ]
    )


def find_executable(package: str, provider_type: str) -> str | None:
    """The `terraform-provider-TYPE...` executable at the top of an unpacked package."""
    prefix = f"terraform-provider-{provider_type}"
    try:
        names = sorted(os.listdir(package))
    except OSError:
        return None
    for name in names:
        path = os.path.join(package, name)
        if name.startswith(prefix) and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def _matches(package: str, hashes: list[str]) -> bool:
    real = os.path.realpath(package)
    try:
        stamp = max(os.stat(os.path.join(real, n)).st_mtime for n in os.listdir(real))
    except (OSError, ValueError):
        return False
    key = (real, ",".join(hashes), stamp)
    with _mu:
        if key in _verified:
            return _verified[key]
    try:
        ok = package_hash_v1(real) in hashes
    except OSError:
        ok = False
    with _mu:
        _verified[key] = ok
    return ok


def package_problem(workdir: str, lock: ProviderLock) -> tuple[str | None, str]:
    """(the executable, "") of the package `init` installed for `lock`, or (None, the reason
    it cannot be used, in terraform's words: not cached, checksum mismatch, no executable)."""
    from engine.providercache.install import package_dir

    provider = lock.addr
    package = os.path.abspath(package_dir(workdir, provider, lock.version))
    if not os.path.isdir(package):
        return None, (f"there is no package for {provider} {lock.version} cached in "
                      ".terraform/providers")
    h1 = [h for h in lock.hashes if h.startswith(H1)]
    if h1 and not _matches(package, h1):
        return None, (
            f"the cached package for {provider} {lock.version} (in .terraform/providers) does "
            "not match any of the checksums recorded in the dependency lock file")
    exe = find_executable(package, provider.type)
    if exe is None:
        return None, (f"the cached package for {provider} {lock.version} has no "
                      f"terraform-provider-{provider.type} executable")
    return exe, ""


def installed_provider(workdir: str, provider: ProviderAddr) -> tuple[str | None, Diagnostics]:
    """The verified executable of `provider` as installed in `workdir` (see module docstring)."""
    from engine.depsfile import LOCK_FILE, load_locks

    locks, diags = load_locks(os.path.join(workdir, LOCK_FILE))
    if diags.has_errors:
        return None, diags
    lock = locks.provider(provider)
    if lock is None:
        return None, _missing(provider, "required by this configuration but no version is selected")
    exe, reason = package_problem(workdir, lock)
    if exe is None:
        return None, _missing(provider, reason)
    return exe, diags
