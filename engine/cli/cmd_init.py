"""`init`: prepare the working directory: modules, provider plugins, the dependency lock file.

Steps, in Terraform's order and words: load the root module and the backend ("Initializing
the backend...", unless `-backend=false`);
install the module tree (`engine.initwd`: local, registry and remote sources,
`.terraform/modules/modules.json`);
load the whole configuration; gather every provider requirement (`engine.configs.provider_reqs`:
required_providers, resources, import blocks, provider blocks; then the providers the current
state names, so that objects of resources no longer configured can be destroyed); announce
the built-in provider, select and install the others
(`engine.providercache.install`) from `-plugin-dir` directories, else the CLI configuration's
`provider_installation`, else the implied local mirrors; then write `.terraform.lock.hcl`
(`-lockfile=readonly` refuses changes instead) and report success.
"""

from __future__ import annotations

import json
import os

from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.cliconfig import load_cli_config
from engine.configs import Module, load_module
from engine.configs.versions import check_core_version
from engine.depsfile import LOCK_FILE, load_locks, save_locks
from engine.diags import Diagnostics, error, warning
from engine.getproviders.mirror import current_platform
from engine.getproviders.source import build_source
from engine.initwd import write_manifest
from engine.providercache.install import ensure_providers
from engine.providercache.requirements import config_requirements
from engine.states.state import State
from engine.testing.loading import install_modules_with_tests

#: terraform's InitConfigError: shown before the configuration's problems
INIT_CONFIG_ERROR = (
    "groundplan encountered problems during initialisation, including problems\n"
    "with the configuration, described below.\n\n"
    "The groundplan configuration must be valid before initialization so that\n"
    "groundplan can determine which modules and providers need to be installed.\n"
)
SUCCESS = "[reset][bold][green]groundplan has been successfully initialized![reset][green]"
EMPTY_DIR = (
    "[reset][bold]groundplan initialized in an empty directory![reset]\n\n"
    "The directory has no groundplan configuration files. You may begin working\n"
    "with groundplan immediately by creating groundplan configuration files."
)
NEXT_STEPS = (
    "[reset][green]\n"
    'You may now begin working with groundplan. Try running "groundplan plan" to see\n'
    "any changes that are required for your infrastructure. All groundplan commands\n"
    "should now work.\n\n"
    "If you ever set or change modules or backend configuration for groundplan,\n"
    "rerun this command to reinitialize your working directory. If you forget, other\n"
    "commands will detect it and remind you to do so if necessary."
)
LOCK_CREATED = (
    "groundplan has created a lock file [bold].terraform.lock.hcl[reset] to record the provider\n"
    "selections it made above. Include this file in your version control repository\n"
    "so that groundplan can guarantee to make the same selections by default when\n"
    'you run "groundplan init" in the future.'
)
LOCK_CHANGED = (
    "groundplan has made some changes to the provider dependency selections recorded\n"
    "in the .terraform.lock.hcl file. Review those changes and commit them to your\n"
    "version control system if they represent changes you intended to make."
)


def _store_plugin_path(cwd: str, dirs: list[str]) -> None:
    path = os.path.join(cwd, ".terraform", "plugin_path")
    if not dirs:
        if os.path.exists(path):
            os.unlink(path)
        return
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(dirs, indent=2))


def _incomplete_warning(names: list[str]) -> Diagnostics:
    plat = current_platform()
    listing = "\n".join(f"  - {n}" for n in names)
    return Diagnostics(
        [
            warning(
                "Incomplete lock file information for providers",
                "Due to your customized provider installation methods, groundplan was forced to "
                "calculate lock file checksums locally for the following providers:\n"
                f"{listing}\n\nThe current .terraform.lock.hcl file only includes checksums for "
                f"{plat}, so groundplan running on another platform will fail to install these "
                "providers.\n\nTo calculate additional checksums for another platform, run:\n"
                f"  groundplan providers lock -platform={plat}\n(where {plat} is the platform to generate)",
            )
        ]
    )


def _install_providers(
    meta: Meta, config: object, state: State | None, plugin_dirs: list[str], upgrade: bool,
    lockfile: str,
) -> bool | None:
    """Install the providers the configuration and `state` need and update the lock file;
    False on failure, None when the output already ends with a separating blank line (the
    lock file message or diagnostics)."""
    ui = meta.ui
    cwd = meta.cwd
    reqs, diags = config_requirements(config, state)
    lock_path = os.path.join(cwd, LOCK_FILE)
    prior, d = load_locks(lock_path)
    diags.extend(d)
    cli_config, d = load_cli_config(meta.environ)
    diags.extend(d)
    if diags.has_errors:
        ui.diagnostics(diags)
        return False
    ui.out("[reset][bold]Initializing provider plugins...")
    source = build_source(plugin_dirs, cli_config, meta.environ, cwd)
    result = ensure_providers(reqs, prior, source, cwd, upgrade, lambda line: ui.out(line))
    diags.extend(result.diags)
    if diags.has_errors:
        ui.diagnostics(diags)
        return False
    separated = False
    if not result.locks.equal(prior):
        if lockfile == "readonly":
            if not result.locks.equal_provider_selections(prior) or any(
                set(lock.hashes) - set(prior.providers[a].hashes) for a, lock in result.locks.providers.items()
            ):
                diags.append(
                    error(
                        "Provider dependency changes detected",
                        "Changes to the required provider dependencies were detected, but the lock "
                        'file is read-only. To use and record these requirements, run "groundplan init" '
                        'without the "-lockfile=readonly" flag.',
                    )
                )
                ui.diagnostics(diags)
                return False
        else:
            d = save_locks(result.locks, lock_path)
            if d.has_errors:
                ui.diagnostics(d)
                return False
            ui.out(LOCK_CREATED if not prior.providers else LOCK_CHANGED)
            ui.out("")
            separated = True
            if result.incomplete:
                diags.extend(_incomplete_warning([p.for_display() for p in result.incomplete]))
    ui.diagnostics(diags)
    return None if separated or len(diags) else True


def _current_state(meta: Meta) -> State | None:
    """The working directory's current state, as init reads it for the providers it names
    (None when there is none, or it cannot be read: that is left to the commands that read
    it)."""
    storage, diags = meta.state_storage()
    if storage is None or diags.has_errors:
        return None
    sf, diags = storage.read()
    return sf.state if sf is not None and not diags.has_errors else None


def _init_backend(meta: Meta, fs: FlagSet, root: Module | None) -> bool:
    """The backend step (engine.cli.init_backend); False when init must stop."""
    from engine.cli.args import FlagError, parse_duration
    from engine.cli.init_backend import BackendInit, init_backend

    if root is None or os.path.isabs(root.backend.decl_range.filename if root.backend else ""):
        root, diags = load_module(".")
        if diags.has_errors and root.backend is None:
            meta.ui.diagnostics(diags)
            return False
    if not fs.get("backend"):
        return True
    try:
        timeout = parse_duration(str(fs.get("lock-timeout") or "0s"))
    except FlagError as exc:
        meta.ui.diagnostics([error("Invalid lock timeout", str(exc))])
        return False
    force = bool(fs.get("force-copy"))
    opts = BackendInit(
        items=list(fs.get("backend-config") or []),
        migrate=bool(fs.get("migrate-state")) or force,
        reconfigure=bool(fs.get("reconfigure")),
        force_copy=force,
        input=bool(fs.get("input")),
        lock=bool(fs.get("lock")),
        lock_timeout=timeout,
    )
    if opts.migrate and opts.reconfigure:
        meta.ui.diagnostics([error(
            "Invalid init options",
            "The -migrate-state and -reconfigure options are mutually-exclusive.")])
        return False
    backend, diags = init_backend(meta, root.backend, opts)
    if not diags.has_errors:
        # terraform shows the backend's PrepareConfig warnings only alongside errors
        diags = Diagnostics([d for d in diags if d.summary != "Deprecated Parameter"])
    meta.ui.diagnostics(diags)
    return backend is not None and not diags.has_errors


def run_init(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().boolean("input", True).boolean("upgrade").boolean("reconfigure")
    fs.boolean("migrate-state").boolean("backend", True).boolean("get", True)
    fs.multi("backend-config").multi("plugin-dir").boolean("lock", True).text("lock-timeout")
    fs.text("lockfile").boolean("force-copy").text("test-directory", "tests")
    rest = meta.parse_flags("init", fs, args)
    if rest is None:
        return 1
    ui = meta.ui
    if rest:
        ui.diagnostics(
            [
                error(
                    "Too many command line arguments",
                    "Did you mean to use -chdir? If this command is run with no arguments, "
                    "it initializes the working directory.",
                )
            ]
        )
        return 1
    lockfile = fs.get("lockfile") or ""
    if lockfile not in ("", "readonly"):
        ui.diagnostics(
            [error("Invalid lockfile mode", f'Unknown lockfile mode "{lockfile}". Supported modes: "readonly".')]
        )
        return 1
    cwd = meta.cwd
    plugin_dirs = [os.path.abspath(d) for d in (fs.get("plugin-dir") or [])]
    test_dir = str(fs.get("test-directory"))
    lines: list[str] = []
    installed = (install_modules_with_tests(cwd, lines.append, test_dir, bool(fs.get("upgrade")),
                                            meta.environ)
                 if fs.get("get") else None)
    if installed is not None and installed.early.has_errors and not installed.root.files:
        ui.diagnostics(installed.early)
        return 1
    if installed is not None and not installed.root.files:
        ui.out(EMPTY_DIR)
        return 0
    if fs.get("backend"):
        ui.out("[reset][bold]Initializing the backend...")
    if not _init_backend(meta, fs, installed.root if installed is not None else None):
        return 1
    try:
        os.makedirs(os.path.join(cwd, ".terraform"), exist_ok=True)
        _store_plugin_path(cwd, plugin_dirs)
    except OSError as exc:
        ui.diagnostics([error("Failed to create the working directory", str(exc))])
        return 1
    if installed is not None and installed.has_modules:
        ui.out("[reset][bold]Upgrading modules..." if fs.get("upgrade")
               else "[reset][bold]Initializing modules...")
        for line in lines:
            ui.out(line.rstrip())  # init's view trims what get's cli.Ui prints as it is
        # as terraform, the manifest records what was installed even when something failed
        d = write_manifest(cwd, installed.records)
        if installed.diags.has_errors or d.has_errors:
            # as terraform: the root's unmet required_version is the error shown first
            versions = check_core_version(installed.root.required_versions)
            ui.diagnostics(versions if versions.has_errors else [*installed.diags, *d])
            return 1
    config, _files, diags = meta.load_config_with_tests(test_dir=test_dir, version_first=True)
    if config is None and diags.has_errors:
        # an unreadable manifest or lock file, or an unmet required_version: shown alone
        ui.diagnostics(diags)
        return 1
    early = installed.early if installed is not None else Diagnostics()
    root = installed.root if installed is not None else None
    # as terraform: with a backend initialised (or configured), the configuration's problems
    # follow the backend's, as they are; without one, the root module's own problems are
    # "problems during initialisation" (the preamble), shown before those of the whole tree
    backend_shown = bool(fs.get("backend")) or (
        root is not None and (root.backend is not None or root.cloud is not None))
    if not backend_shown and early.has_errors:
        ui.diagnostics([error(INIT_CONFIG_ERROR), *early])
        return 1
    if diags.has_errors:
        if not backend_shown and installed is None:
            diags = Diagnostics([error(INIT_CONFIG_ERROR), *diags])
        ui.diagnostics(diags)
        return 1
    from engine.operations.lock_file import legacy_provider_errors

    # as terraform's init: the state's providers are installed too (so that the objects of
    # resources removed from the configuration can be planned for destruction), and the
    # state's providers in terraform's legacy namespace are refused before anything is
    state = _current_state(meta)
    legacy = legacy_provider_errors(state)
    if legacy.has_errors:
        ui.diagnostics(legacy)
        return 1
    done = _install_providers(meta, config, state, plugin_dirs, bool(fs.get("upgrade")), lockfile)
    if done is False:
        return 1
    ui.diagnostics(diags)
    ui.out(SUCCESS if done is None else "\n" + SUCCESS)
    if not meta.in_automation:
        ui.out(NEXT_STEPS)
    return 0
