"""The dependency lock file against the configuration, the state and the installed plugins.

Terraform checks these before planning or applying, in this order, and each failure stops the
operation before anything is shown:

- `plugin_errors(workdir, locks, automation)`: every provider the lock file selects must be
  installed as selected (`.terraform/providers/...` package present and matching a locked
  checksum): terraform's single "Required plugins are not installed" error listing each
  failing provider (the command's backend setup does this, before the state is locked).
- `selection_errors(config, locks)`: every provider the configuration requires (the
  `required_providers` entries, provider blocks with their `version`, implied providers of
  resources) must be locked, at a version meeting the constraints: terraform's
  "Inconsistent dependency lock file" (config.VerifyDependencySelections), whose advice is
  `terraform init` when the lock file is empty and `terraform init -upgrade` otherwise.
- `state_provider_errors(state, locks)`: every provider the state names must be locked (have
  a plugin): "Missing required provider" ("This state requires provider ...") per provider.

Built-in providers (`terraform.io/builtin/...`) are never locked and are ignored.
"""

from __future__ import annotations

import os

from engine.addrs import AddressSyntaxError, parse_abs_provider_config
from engine.addrs import Provider as ProviderAddr
from engine.configs import Config
from engine.depsfile import LOCK_FILE, load_locks
from engine.depsfile.locks import Locks
from engine.diags import Diagnostic, Diagnostics, error, hcl_error_text
from engine.getproviders.versions import (
    ConstraintError,
    Selection,
    allows,
    constraints_string,
    parse_constraints,
    parse_version,
)
from engine.providercache.installed import package_problem
from engine.states.state import State

__all__ = ["check_before_plan", "plugin_errors", "selection_errors", "state_provider_errors"]

INCONSISTENT = "Inconsistent dependency lock file"


def _parse(text: str) -> list[Selection]:
    try:
        return parse_constraints(text)
    except ConstraintError:
        return []


def requirements(config: Config) -> tuple[dict[ProviderAddr, list[Selection]], Diagnostics]:
    """Every non-built-in provider the module tree requires, with its version constraints,
    and the diagnostics of working that out (`engine.configs.provider_reqs`)."""
    from engine.configs.provider_reqs import provider_requirements

    found, diags = provider_requirements(config)
    reqs: dict[ProviderAddr, list[Selection]] = {}
    for addr, constraints in found.items():
        if not addr.is_builtin:
            reqs[addr] = [sel for text in constraints for sel in _parse(text)]
    return reqs, diags


def selection_errors(config: Config, locks: Locks) -> list[str]:
    """terraform's VerifyDependencySelections: one line per inconsistency, sorted; a
    configuration whose requirements have errors gives the line "failed to determine the
    configuration's provider requirements: ..." with them (as HCL's `Error()`)."""
    reqs, diags = requirements(config)
    errs: list[str] = []
    if diags.has_errors:
        errs.append("failed to determine the configuration's provider requirements: "
                    + hcl_error_text(diags))
    for addr, sels in reqs.items():
        lock = locks.provider(addr)
        if lock is None:
            errs.append(f"provider {addr}: required by this configuration but no version is selected")
            continue
        version = parse_version(lock.version)
        if version is None or allows(sels, version):
            continue
        current = constraints_string(sels)
        if current != constraints_string(_parse(lock.constraints)):
            errs.append(f"provider {addr}: locked version selection {lock.version} doesn't match "
                        f'the updated version constraints "{current}"')
        else:
            errs.append(f'provider {addr}: version constraints "{current}" don\'t match the '
                        f"locked version selection {lock.version}")
    return sorted(errs)


def inconsistent_lock(errs: list[str], locks: Locks) -> Diagnostic:
    """The "Inconsistent dependency lock file" error for `errs` (see selection_errors)."""
    if not locks.providers:
        advice = ("To make the initial dependency selections that will initialize the dependency "
                  "lock file, run:\n  groundplan init")
    else:
        advice = ("To update the locked dependency selections to match a changed configuration, "
                  "run:\n  groundplan init -upgrade")
    listing = "".join(f"\n  - {e}" for e in errs)
    return error(INCONSISTENT, "The following dependency selections recorded in the lock file are "
                 f"inconsistent with the current configuration:{listing}\n\n{advice}")


def plugin_errors(workdir: str, locks: Locks, automation: bool) -> Diagnostics:
    """"Required plugins are not installed" when a locked provider's package is unusable."""
    problems: list[str] = []
    for addr in sorted(locks.providers, key=str):
        exe, reason = package_problem(workdir, locks.providers[addr])
        if exe is None:
            problems.append(f"\n  - {addr}: {reason}")
    if not problems:
        return Diagnostics()
    advice = ("You must install the required plugins before running groundplan operations."
              if automation else
              "To download the plugins required for this configuration, run:\n  groundplan init")
    return Diagnostics([error(
        "Required plugins are not installed",
        "The installed provider plugins are not consistent with the packages selected in the "
        f"dependency lock file:{''.join(problems)}\n\ngroundplan uses external plugins to integrate "
        f"with a variety of different infrastructure services. {advice}")])


def state_provider_errors(state: State | None, locks: Locks) -> Diagnostics:
    """"Missing required provider" for each provider of `state` that has no lock entry."""
    diags = Diagnostics()
    if state is None:
        return diags
    seen: list[ProviderAddr] = []
    for rs in state.resources:
        try:
            addr = parse_abs_provider_config(rs.provider).provider
        except AddressSyntaxError:
            continue
        if addr.is_builtin or addr in seen or locks.provider(addr) is not None:
            continue
        seen.append(addr)
    for addr in sorted(seen, key=str):
        diags.append(error(
            "Missing required provider",
            f"This state requires provider {addr}, but that provider isn't available. You may be "
            "able to install it automatically by running:\n  groundplan init"))
    return diags


def legacy_provider_errors(state: State | None) -> Diagnostics:
    """terraform init's "Invalid legacy provider address" for each provider of `state` in
    the legacy namespace (a state upgraded from before v0.13: `registry.terraform.io/-/aws`),
    which `terraform state replace-provider` must replace first."""
    diags = Diagnostics()
    names: list[str] = []
    for rs in state.resources if state is not None else []:
        try:
            addr = parse_abs_provider_config(rs.provider).provider
        except AddressSyntaxError:
            continue
        if addr.namespace == "-" and addr.type not in names:
            names.append(addr.type)
    for name in sorted(names):
        diags.append(error(
            "Invalid legacy provider address",
            f'This configuration or its associated state refers to the unqualified provider '
            f'"{name}".\n\nYou must complete the Terraform 0.13 upgrade process before '
            "upgrading to later versions."))
    return diags


def load_workdir_locks(workdir: str) -> tuple[Locks, Diagnostics]:
    """The lock file of `workdir` (empty when there is none)."""
    return load_locks(os.path.join(workdir, LOCK_FILE))


def check_before_plan(workdir: str, config: Config, automation: bool) -> Diagnostics:
    """The plugin and selection checks, in terraform's order; the first failing one only."""
    locks, diags = load_workdir_locks(workdir)
    if diags.has_errors:
        return diags
    more = plugin_errors(workdir, locks, automation)
    if more.has_errors:
        return more
    errs = selection_errors(config, locks)
    if errs:
        diags.append(inconsistent_lock(errs, locks))
    return diags
