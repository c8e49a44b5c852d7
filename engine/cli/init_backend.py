"""`init`'s backend step, as terraform 1.11's Meta.Backend does it with `Init` set.

    block in config | recorded by init | what happens
    none            | none             | the local backend (a warning if -backend-config given)
    none            | X                | "Backend configuration changed" unless -migrate-state
                    |                  | (states copied X -> local, record cleared) or
                    |                  | -reconfigure (record cleared)
    Y               | none (or         | Y configured; non-empty local states are migrated to
                    |  -reconfigure)   | it (with terraform's questions) and emptied; recorded
    Y               | Y, same config   | Y configured again; the record's hash refreshed
    Y               | X, other config  | "Backend configuration changed" unless -migrate-state
                    |                  | (states copied X -> Y) or -reconfigure

`-force-copy` implies `-migrate-state` and answers the copy questions yes.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.backend.base import Backend
from engine.backend.config import BackendConfig, apply_overrides, decode_block, from_record
from engine.backend.config_record import read_record, remove_record, write_record
from engine.backend.config_resolve import configure
from engine.backend.local import LocalBackend
from engine.backend.migration import Migration, MigrationError, empty_local_states
from engine.cli.meta import Meta
from engine.configs.terraform_block import Backend as BackendBlock
from engine.diags import Diagnostics, error, warning

SUCCESS_SET = ("[reset][green]\nSuccessfully configured the backend \"{type}\"! groundplan will "
               "automatically\nuse this backend unless the backend configuration changes.")
SUCCESS_UNSET = ("[reset][green]\n\nSuccessfully unset the backend \"{type}\". groundplan will "
                 "now operate locally.")
UNCONFIGURING = "groundplan has detected you're unconfiguring your previously set \"{type}\" backend."
TYPE_CHANGED = "[reset]groundplan detected that the backend type changed from \"{old}\" to \"{new}\".\n"
RECONFIGURE = (
    "[reset][reset][bold]Backend configuration changed![reset]\n\n"
    "groundplan has detected that the configuration specified for the backend\n"
    "has changed. groundplan will now check for existing state in the backends.\n"
)
MISSING_BACKEND = """-backend-config was used without a "backend" block in the configuration.

If you intended to override the default local backend configuration,
no action is required, but you may add an explicit backend block to your
configuration to clear this warning:

terraform {
  backend "local" {}
}

However, if you intended to override a defined backend, please verify that
the backend configuration is present and valid."""


def _changed_diag() -> Diagnostics:
    return Diagnostics([error(
        "Backend configuration changed",
        "A change in the backend configuration has been detected, which may require migrating "
        "existing state.\n\nIf you wish to attempt automatic migration of the state, use "
        '"groundplan init -migrate-state".\nIf you wish to store the current configuration with '
        'no changes to the state, use "groundplan init -reconfigure".')])


@dataclass
class BackendInit:
    """The backend flags of `init`."""

    items: list[str]
    migrate: bool = False
    reconfigure: bool = False
    force_copy: bool = False
    input: bool = True
    lock: bool = True
    lock_timeout: float = 0.0


def _ask(meta: Meta, query: str, description: str) -> str | None:
    text = f"[reset][bold]{query}[reset]\n"
    text += "".join(f"  {line}".rstrip(" ") + "\n" if line else "  \n"
                    for line in description.split("\n"))
    meta.ui.out(text)
    answer = meta.ui.ask("  [bold]Enter a value:[reset] " if meta.ui.color else "  Enter a value: ")
    meta.ui.out("")
    return answer


def _migrate(meta: Meta, opts: BackendInit, source: Backend, dest: Backend) -> tuple[list[str], Diagnostics]:
    mig = Migration(source, dest, lambda q, d: _ask(meta, q, d), force=opts.force_copy,
                    input=opts.input, lock=opts.lock, lock_timeout=opts.lock_timeout)
    try:
        return mig.run(), Diagnostics()
    except MigrationError as exc:
        return [], Diagnostics([error(str(exc))])


def _local_has_states(local: LocalBackend) -> bool:
    names, _ = local.workspaces()
    for name in names:
        storage, _ = local.storage(name)
        if storage is None:
            continue
        sf, _ = storage.read()
        if sf is not None and not sf.state.is_empty:
            return True
    return False


def init_backend(
    meta: Meta, block: BackendBlock | None, opts: BackendInit
) -> tuple[Backend | None, Diagnostics]:
    """Run the backend step; the backend now in use, or None with the diagnostics."""
    cwd, env = meta.cwd, meta.environ
    diags = Diagnostics()
    record, more = read_record(cwd, env)
    diags.extend(more)
    if diags.has_errors:
        return None, diags
    if opts.reconfigure:
        record = None
    if block is None:
        if opts.items:
            diags.append(warning("Missing backend configuration", MISSING_BACKEND))
        local = LocalBackend(cwd)
        if record is None:
            if opts.reconfigure:
                remove_record(cwd, env)
            return local, diags
        if not opts.migrate:
            diags.extend(_changed_diag())
            return None, diags
        meta.ui.out(UNCONFIGURING.format(type=record.type))
        old, more = _recorded_backend(meta, record.type, record.config)
        diags.extend(more)
        if old is None:
            return None, diags
        _, more = _migrate(meta, opts, old, local)
        diags.extend(more)
        if diags.has_errors:
            return None, diags
        remove_record(cwd, env)
        meta.ui.out(SUCCESS_UNSET.format(type=record.type))
        return local, diags

    cfg, more = decode_block(block)
    diags.extend(more)
    if cfg is None:
        return None, diags
    block_hash = cfg.hash
    diags.extend(apply_overrides(cfg, opts.items, cwd))
    if diags.has_errors:
        return None, diags
    if record is not None and record.type == cfg.type and record.config == cfg.python():
        backend, more = configure(cfg, cwd, env)
        diags.extend(more)
        if backend is None:
            return None, diags
        if record.hash != block_hash:
            _write(meta, cfg, block_hash, diags)
        return backend, diags
    if record is not None and not opts.migrate:
        diags.extend(_changed_diag())
        return None, diags
    if record is not None:
        if record.type != cfg.type:
            meta.ui.out(TYPE_CHANGED.format(old=record.type, new=cfg.type))
        else:
            meta.ui.out(RECONFIGURE)
    backend, more = configure(cfg, cwd, env)
    diags.extend(more)
    if backend is None:
        return None, diags
    if record is None:
        local = LocalBackend(cwd)
        if _local_has_states(local) and not _same_local(local, backend):
            copied, more = _migrate(meta, opts, local, backend)
            diags.extend(more)
            if diags.has_errors:
                return None, diags
            empty_local_states(local, copied)
    else:
        old, more = _recorded_backend(meta, record.type, record.config)
        diags.extend(more)
        if old is None:
            return None, diags
        _, more = _migrate(meta, opts, old, backend)
        diags.extend(more)
        if diags.has_errors:
            return None, diags
    if not _write(meta, cfg, block_hash, diags):
        return None, diags
    meta.ui.out(SUCCESS_SET.format(type=cfg.type))
    return backend, diags


def _same_local(a: LocalBackend, b: Backend) -> bool:
    return isinstance(b, LocalBackend) and a.state_path("default") == b.state_path("default")


def _recorded_backend(meta: Meta, backend_type: str, config: dict[str, object]) -> tuple[Backend | None, Diagnostics]:
    cfg, problem = from_record(backend_type, config)
    if cfg is None:
        return None, Diagnostics([error("Failed to load the previous backend", problem)])
    return configure(cfg, meta.cwd, meta.environ)


def _write(meta: Meta, cfg: BackendConfig, block_hash: int, diags: Diagnostics) -> bool:
    try:
        write_record(meta.cwd, meta.environ, cfg, block_hash)
    except OSError as exc:
        diags.append(error(
            f"Error saving the backend configuration: {exc}",
            "groundplan saves the complete backend configuration in a local file for configuring "
            "the backend on future operations. This cannot be disabled. Errors are usually due "
            "to simple file permission errors. Please look at the error above, resolve it, and "
            "try again."))
        return False
    return True
