"""`state re-encrypt [-all-workspaces] [-json] [-lock=false] [-lock-timeout=D] [-var ...]`:
rewrite the stored state now with the primary method of the `state` encryption target,
instead of waiting for the next apply (groundplan's own; OpenTofu rewrites only on write).

For each workspace (the selected one, or every one with `-all-workspaces`), under its lock:
read the stored payload, decrypt it with the configured methods (primary, then fallbacks),
check that it is a state, encrypt the same bytes with the primary method and replace the
file atomically, the previous stored form kept as `<state>.backup`. The state's content,
serial and lineage stay as they were. Each workspace's line says what it was read with and
what it is written with; `-json` prints that as one document CI can check
(`"all_primary": true` when every state is now under the primary method and key providers).
A workspace that fails to decrypt is left untouched and makes the exit code 1.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from engine.backend import LocalBackend
from engine.backend.workspaces import DEFAULT_WORKSPACE
from engine.cli.args import FlagError, FlagSet, parse_duration
from engine.cli.meta import Meta
from engine.diags import error
from engine.operations.reencrypt import describe, reencrypt_one

HELP = """Usage: groundplan [global options] state re-encrypt [options]

  Rewrites the stored state now with the primary method of the state encryption
  target (terraform { encryption { state { method = ... } } }), keeping its
  content, serial and lineage, and reports which method and key providers each
  workspace was read with.

Options:

  -all-workspaces     Re-encrypt the state of every workspace, not only the
                      selected one.

  -json               Print the result as one JSON document.

  -lock=false         Don't hold a state lock during the operation.

  -lock-timeout=0s    Duration to retry a state lock.

  -var 'foo=bar'      Set a value for one of the input variables the
                      encryption configuration uses.

  -var-file=foo       Set variables from a file.
"""


def _label(info: dict[str, Any] | None) -> str:
    if info is None:
        return "-"
    kps = ", ".join(info["key_providers"])
    return f"{info['method']} ({kps})" if kps else f"{info['method']} (plaintext)"


def run_state_reencrypt(meta: Meta, args: list[str]) -> int:
    fs = (FlagSet().boolean("all-workspaces").boolean("json").boolean("lock", True)
          .text("lock-timeout", "0s").multi("var").multi("var-file").boolean("help"))
    rest = meta.parse_flags("state re-encrypt", fs, args)
    if rest is None:
        return 1
    if fs.get("help") or rest:
        meta.ui.err(HELP)
        return 1 if rest else 0
    try:
        timeout = parse_duration(str(fs.get("lock-timeout")))
    except FlagError as exc:
        meta.ui.diagnostics([error("Invalid lock timeout", str(exc))])
        return 1
    config, diags = meta.load_config()
    if config is None or diags.has_errors:
        meta.ui.diagnostics(diags)
        return 1
    _, vdiags = meta.collect_root_inputs(config, _ordered_vars(args))
    diags.extend(vdiags)
    enc, more = meta.encryption()
    diags.extend(more)
    if enc is None or diags.has_errors:
        meta.ui.diagnostics(diags)
        return 1
    target = enc.state
    if not hasattr(target, "primary"):
        diags.append(error("No state encryption configured", (
            "The configuration has no terraform { encryption { state { ... } } } target (nor "
            "TF_ENCRYPTION): there is no method to re-encrypt the state with.")))
        meta.ui.diagnostics(diags)
        return 1
    backend = meta.backend()
    if not isinstance(backend, LocalBackend):
        diags.append(error("Unsupported backend for re-encrypt", (
            f'state re-encrypt rewrites local state files; the "{backend.type_name}" backend '
            "is not supported by it yet (its states are re-encrypted on their next write).")))
        meta.ui.diagnostics(diags)
        return 1
    if fs.get("all-workspaces"):
        names, wdiags = backend.workspaces()
        diags.extend(wdiags)
    else:
        current, wdiags = meta.workspace()
        diags.extend(wdiags)
        names = [current or DEFAULT_WORKSPACE]
    if diags.has_errors:
        meta.ui.diagnostics(diags)
        return 1
    outcomes = [reencrypt_one(target, name, backend.state_path(name), bool(fs.get("lock")),
                              timeout) for name in names]
    primary = describe(target.primary)
    failed = any(o.status == "failed" for o in outcomes)
    if fs.get("json"):
        doc = {"format_version": "1.0", "primary": primary,
               "all_primary": not failed and all(o.written_with == primary or o.status == "no state"
                                                 for o in outcomes),
               "workspaces": [o.to_json() for o in outcomes]}
        meta.ui.raw(json.dumps(doc, indent=2) + "\n")
        return 1 if failed else 0
    meta.ui.diagnostics(diags)
    for o in outcomes:
        if o.status == "no state":
            meta.ui.out(f'Workspace "{o.workspace}": no state to re-encrypt.')
        elif o.status == "re-encrypted":
            meta.ui.out(f'Workspace "{o.workspace}": read with {_label(o.read_with)}, written '
                        f"with {_label(o.written_with)} (serial {o.serial}, lineage "
                        f"{o.lineage} kept).")
        else:
            meta.ui.out(f'Workspace "{o.workspace}": left as it was.')
            meta.ui.diagnostics(o.diags)
    return 1 if failed else 0


def _ordered_vars(args: list[str]) -> list[tuple[str, str]]:
    """-var / -var-file in command-line order, as the plan command collects them."""
    out: list[tuple[str, str]] = []
    it = iter(args)
    for a in it:
        for name in ("var", "var-file"):
            for prefix in (f"-{name}=", f"--{name}="):
                if a.startswith(prefix):
                    out.append((name, a[len(prefix):]))
            if a in (f"-{name}", f"--{name}"):
                with contextlib.suppress(StopIteration):
                    out.append((name, next(it)))
    return out

