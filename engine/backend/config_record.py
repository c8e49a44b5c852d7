"""The backend `init` recorded in `<data dir>/terraform.tfstate`, as terraform 1.11 writes it.

    {"version": 3, "terraform_version": "1.11.4",
     "backend": {"type": "s3", "config": {...every argument, null when unset...}, "hash": N}}

`config` is the configuration in effect (the block merged with `-backend-config`); `hash` is
cty's hash of the block alone, so a later command can tell whether the block changed without
knowing the overrides. `initialization_required` is the check every command but `init`
makes: terraform's "Backend initialization required" with the reason.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass

from engine.backend.config import BackendConfig
from engine.backend.workspaces import data_dir
from engine.diags import Diagnostics, error
from engine.gocompat import json as gojson
from engine.states.local import atomic_write
from engine.states.state import TERRAFORM_VERSION

RECORD_FILE = "terraform.tfstate"

_INIT_DETAIL = """Reason: {reason}

The "backend" is the interface that groundplan uses to store state,
perform operations, etc. If this message is showing up, it means that the
groundplan configuration you're using is using a custom configuration for
the groundplan backend.

Changes to backend configurations require reinitialization. This allows
groundplan to set up the new configuration, copy existing state, etc. Please run
"groundplan init" with either the "-reconfigure" or "-migrate-state" flags to
use the current configuration.

If the change reason above is incorrect, please verify your configuration
hasn't changed and try again. At this point, no changes to your existing
configuration or state have been made."""


@dataclass(frozen=True)
class BackendRecord:
    """What `init` recorded: the backend type, its effective configuration and the hash."""

    type: str
    config: dict[str, object]
    hash: int


def record_path(cwd: str, environ: Mapping[str, str]) -> str:
    return os.path.join(data_dir(cwd, environ), RECORD_FILE)


def read_record(cwd: str, environ: Mapping[str, str]) -> tuple[BackendRecord | None, Diagnostics]:
    """The recorded backend; None when `init` never configured one (or it was unset)."""
    diags = Diagnostics()
    path = record_path(cwd, environ)
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except FileNotFoundError:
        return None, diags
    except (OSError, ValueError) as exc:
        diags.append(error("Failed to load state", f"Error reading backend state {path}: {exc}"))
        return None, diags
    be = doc.get("backend") if isinstance(doc, dict) else None
    if not isinstance(be, dict) or not be.get("type"):
        return None, diags
    raw = be.get("config")
    config: dict[str, object] = dict(raw) if isinstance(raw, dict) else {}
    return BackendRecord(str(be["type"]), config, int(be.get("hash") or 0)), diags


def write_record(cwd: str, environ: Mapping[str, str], cfg: BackendConfig, block_hash: int) -> None:
    """Record `cfg` as the working directory's backend (raises OSError)."""
    path = record_path(cwd, environ)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    doc = {
        "version": 3,
        "terraform_version": TERRAFORM_VERSION,
        "backend": {"type": cfg.type, "config": cfg.python(), "hash": block_hash},
    }
    atomic_write(path, gojson.dumps(doc))


def remove_record(cwd: str, environ: Mapping[str, str]) -> None:
    """Forget the recorded backend (back to the implied local backend)."""
    path = record_path(cwd, environ)
    if os.path.exists(path):
        os.unlink(path)


def _required(reason: str, changed: bool = False) -> Diagnostics:
    sep = ": " if changed else ", "
    return Diagnostics([error(
        f'Backend initialization required{sep}please run "groundplan init"',
        _INIT_DETAIL.format(reason=reason),
    )])


def initialization_required(
    block: BackendConfig | None, block_hash: int, record: BackendRecord | None
) -> Diagnostics:
    """Whether the configuration's backend block still matches what `init` recorded."""
    if block is None:
        if record is None or (record.type == "local" and not record.config):
            return Diagnostics()
        return _required(f'Unsetting the previously set backend "{record.type}"')
    if record is None:
        return _required(f'Initial configuration of the requested backend "{block.type}"')
    if record.type != block.type:
        return _required(
            f'Backend configuration changed from "{record.type}" to "{block.type}"', True
        )
    if record.hash != block_hash:
        return _required("Backend configuration block has changed", True)
    return Diagnostics()
