"""Saved plans as the operations write and check them.

A saved plan carries a snapshot of the configuration (every module's files, so `apply` can
refuse a plan whose configuration changed and `show` can render it), the dependency lock
file, and the prior and previous-run states as snapshots of the state planned against
(its lineage and serial: `apply` refuses a stale plan).
"""

from __future__ import annotations

import os
import tempfile

from engine.configs import Config
from engine.diags import Diagnostics
from engine.plans.planfile import ConfigSnapshot, PlanFile, snapshot_config
from engine.states.state import State, StateFile

LOCK_FILE = ".terraform.lock.hcl"


def module_dirs(config: Config, root: str) -> dict[str, tuple[str, str]]:
    """Module key -> (directory relative to `root`, source address), for the snapshot."""
    out: dict[str, tuple[str, str]] = {}
    for node in config.walk():
        if not node.path:
            continue
        rel = os.path.relpath(node.source_dir, root)
        out[".".join(node.path)] = (rel, node.call.source if node.call is not None else "")
    return out


def config_snapshot(config: Config, root: str) -> ConfigSnapshot:
    """The configuration's files under `root`, as a saved plan records them."""
    return snapshot_config(root, module_dirs(config, root))


def read_lock_file(root: str) -> str | None:
    """The dependency lock file's text (None when there is none)."""
    try:
        with open(os.path.join(root, LOCK_FILE), encoding="utf-8") as fh:
            return fh.read()
    except OSError:
        return None


def with_base(state: State, base: StateFile | None) -> StateFile | None:
    """`state` as a snapshot of `base` (its lineage and serial); None when there is no base,
    unless the plan put objects in it (data sources read while planning, `import` blocks):
    then a snapshot of no state (lineage "", serial 0), which is stale once any state exists.
    The apply starts from it, as terraform's starts from the plan's prior state."""
    if base is None:
        if not state.resources:
            return None
        return StateFile(state=state, lineage="", serial=0)
    return StateFile(state=state, lineage=base.lineage, serial=base.serial,
                     terraform_version=base.terraform_version)


def snapshot_configuration(pf: PlanFile) -> tuple[Config, Diagnostics]:
    """The configuration a saved plan was made from, loaded from its snapshot (written to a
    temporary directory that is removed again; source ranges keep the file names)."""
    from engine.configs import load_config

    with tempfile.TemporaryDirectory(prefix="groundplan-plan-") as tmp:
        # Module directories are relative to the root and may climb above it (`../../vpc`,
        # as modules' own examples call them): the root goes deep enough below `tmp` that
        # every recorded directory lands inside it.
        ups = max((_climbs(mod.dir or ".") for mod in pf.config.modules.values()), default=0)
        root = os.path.join(tmp, *(["r"] * ups)) if ups else tmp
        for mod in pf.config.modules.values():
            directory = os.path.normpath(os.path.join(root, mod.dir or "."))
            if not directory.startswith(tmp):
                continue  # a snapshot never points outside its own tree
            os.makedirs(directory, exist_ok=True)
            for name, data in mod.files.items():
                with open(os.path.join(directory, os.path.basename(name)), "wb") as fh:
                    fh.write(data)
        manifest = {key: (mod.dir or ".", mod.source_addr)
                    for key, mod in pf.config.modules.items() if key}
        os.makedirs(root, exist_ok=True)
        return load_config(root, manifest)


def _climbs(directory: str) -> int:
    """How many levels above the root a relative module directory reaches (`../../m`: 2)."""
    if os.path.isabs(directory):
        return 0
    depth = deepest = 0
    for part in directory.replace("\\", "/").split("/"):
        if part == "..":
            depth -= 1
            deepest = min(deepest, depth)
        elif part not in ("", "."):
            depth += 1
    return -deepest


__all__ = [
    "config_snapshot",
    "module_dirs",
    "read_lock_file",
    "snapshot_configuration",
    "with_base",
]
