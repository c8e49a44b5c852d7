"""What a configuration requires of providers, and installing it into a working directory.

`config_requirements` is what `init` reads from the module tree; `install_locked` installs
exactly what a configuration's dependency lock file selects from filesystem mirrors, without
changing the lock file (terraform's `init -lockfile=readonly`): what the control plane does
with an uploaded configuration version before it plans.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from engine.addrs import AddressSyntaxError, parse_abs_provider_config
from engine.cliconfig import CliConfig
from engine.depsfile import LOCK_FILE, load_locks
from engine.diags import Diagnostics, error
from engine.getproviders.source import build_source
from engine.getproviders.versions import ConstraintError, parse_constraints
from engine.providercache.install import Requirement, ensure_providers
from engine.states.state import State


def config_requirements(config: object, state: State | None = None
                        ) -> tuple[list[Requirement], Diagnostics]:
    """Every provider the configuration needs (built-in ones too: the installer announces
    them), with the version constraints of its modules' `required_providers` and provider
    blocks (as `terraform init` reads them: `engine.configs.provider_reqs`, whose diagnostics
    come back too), and then every provider `state`'s resources name, without constraints
    (terraform's `reqs.Merge(state.ProviderRequirements())`)."""
    from engine.configs.provider_reqs import provider_requirements

    found, diags = provider_requirements(config)
    for rs in state.resources if state is not None else []:
        try:
            found.setdefault(parse_abs_provider_config(rs.provider).provider, [])
        except AddressSyntaxError:
            continue
    reqs: list[Requirement] = []
    for addr, constraints in found.items():
        req = Requirement(addr)
        for text in constraints:
            try:
                req.selections.extend(parse_constraints(text))
            except ConstraintError as exc:
                diags.append(error("Invalid provider version constraint", f"{addr}: {exc}."))
        reqs.append(req)
    return reqs, diags


def install_locked(
    working_dir: str,
    config: object,
    plugin_dirs: list[str],
    say: Callable[[str], None] = lambda _line: None,
) -> Diagnostics:
    """Install the providers `config` needs into `working_dir/.terraform/providers` from
    `plugin_dirs` (filesystem mirrors), as selected by `working_dir`'s lock file; an error when
    the lock file is missing an entry or would have to change."""
    reqs, diags = config_requirements(config)
    lock_path = os.path.join(working_dir, LOCK_FILE)
    prior, more = load_locks(lock_path)
    diags.extend(more)
    if diags.has_errors:
        return diags
    source = build_source(plugin_dirs, CliConfig(), {}, working_dir)
    result = ensure_providers(reqs, prior, source, working_dir, False, say)
    diags.extend(result.diags)
    if not diags.has_errors and not result.locks.equal_provider_selections(prior):
        diags.append(error(
            "Provider dependency changes detected",
            "The configuration needs providers its dependency lock file does not select. Run "
            "init where the configuration is kept and upload the updated .terraform.lock.hcl."))
    return diags
