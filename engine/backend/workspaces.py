"""Workspaces of the local backend, laid out on disk exactly as terraform's, and which one
the working directory selects.

- The `default` workspace keeps its state at `<root>/terraform.tfstate`; every other
  workspace NAME at `<root>/terraform.tfstate.d/NAME/terraform.tfstate`.
- The workspaces are `default` followed by the sub-directories of `terraform.tfstate.d`, in
  byte order (terraform's `Local.Workspaces`).
- The selected workspace is the trimmed text of `<data dir>/environment` (`.terraform`, or
  `TF_DATA_DIR`), `default` when the file is missing or blank; `TF_WORKSPACE`, when set and
  non-empty, overrides it (terraform's `Meta.WorkspaceOverridden`).
- A name is valid when URL path-segment escaping leaves it unchanged (Go's
  `url.PathEscape(name) == name`): ASCII letters, digits and `-_.~$&+:=@`.

Nothing here raises for bad input: selection problems come back as diagnostics, filesystem
failures as error text (terraform prints those bare).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.diags import Diagnostics, error

if TYPE_CHECKING:
    from engine.states.state import State

DEFAULT_WORKSPACE = "default"
STATE_FILE = "terraform.tfstate"
WORKSPACE_DIR = "terraform.tfstate.d"
ENVIRONMENT_FILE = "environment"
ENV_VAR = "TF_WORKSPACE"
INVALID_ENV_NAME = f"Invalid workspace name set using {ENV_VAR}"

# Go's url.PathEscape leaves these bytes alone (shouldEscape, encodePathSegment).
_SAFE = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" "-_.~" "$&+:=@"
)


def valid_name(name: str) -> bool:
    """Whether `name` may name a workspace (it needs no URL path-segment escaping)."""
    return all(c in _SAFE for c in name)


def data_dir(cwd: str, environ: Mapping[str, str]) -> str:
    """The working directory's data directory: `TF_DATA_DIR` or `.terraform` (under `cwd`
    when relative)."""
    return os.path.join(cwd, environ.get("TF_DATA_DIR") or ".terraform")


@dataclass(frozen=True)
class Selection:
    """The selected workspace and whether `TF_WORKSPACE` chose it."""

    name: str
    overridden: bool


def selected(cwd: str, environ: Mapping[str, str]) -> Selection:
    """The selected workspace, unvalidated (terraform's `WorkspaceOverridden`)."""
    env = environ.get(ENV_VAR, "")
    if env:
        return Selection(env, True)
    try:
        with open(os.path.join(data_dir(cwd, environ), ENVIRONMENT_FILE), "rb") as f:
            text = f.read().decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return Selection(text or DEFAULT_WORKSPACE, False)


def current(cwd: str, environ: Mapping[str, str]) -> tuple[str, Diagnostics]:
    """The workspace commands use (terraform's `Meta.Workspace`): an invalid `TF_WORKSPACE`
    is the error "Invalid workspace name set using TF_WORKSPACE" (a name read from the
    environment file is taken as it is, as terraform 1.11 does)."""
    sel = selected(cwd, environ)
    if sel.overridden and not valid_name(sel.name):
        return "", Diagnostics([error(INVALID_ENV_NAME)])
    return sel.name, Diagnostics()


def select(cwd: str, environ: Mapping[str, str], name: str) -> str | None:
    """Record `name` as the selected workspace (`<data dir>/environment`, no newline);
    the OS error text on failure."""
    directory = data_dir(cwd, environ)
    try:
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, ENVIRONMENT_FILE), "wb") as f:
            f.write(name.encode("utf-8"))
    except OSError as exc:
        return str(exc.strerror or exc)
    return None


@dataclass(frozen=True)
class LocalWorkspaces:
    """The workspaces of a local backend rooted at `root` (the working directory)."""

    root: str
    state_file: str = STATE_FILE
    workspace_dir: str = WORKSPACE_DIR

    def state_path(self, name: str) -> str:
        """Where workspace `name` keeps its state (`""` means `default`, as in terraform)."""
        if name in ("", DEFAULT_WORKSPACE):
            return os.path.join(self.root, self.state_file)
        return os.path.join(self.root, self.workspace_dir, name, STATE_FILE)

    def names(self) -> tuple[list[str], str | None]:
        """`default`, then every directory under the workspace directory sorted by bytes;
        the OS error text when the directory exists but cannot be read."""
        found: list[str] = []
        try:
            with os.scandir(os.path.join(self.root, self.workspace_dir)) as it:
                found = [e.name for e in it if e.is_dir()]
        except FileNotFoundError:
            pass
        except OSError as exc:
            return [], str(exc.strerror or exc)
        return [DEFAULT_WORKSPACE, *sorted(found, key=lambda n: n.encode())], None

    def ensure(self, name: str) -> str | None:
        """Create workspace `name`'s directory (terraform's `StateMgr` does this for every
        non-default workspace it opens); the OS error text on failure."""
        if name == DEFAULT_WORKSPACE:
            return None
        try:
            os.makedirs(os.path.join(self.root, self.workspace_dir, name), exist_ok=True)
        except OSError as exc:
            return str(exc.strerror or exc)
        return None

    def delete(self, name: str) -> str | None:
        """Remove workspace `name` and everything in its directory (terraform's
        `DeleteWorkspace`); the error text when it cannot."""
        if name == "":
            return "empty state name"
        if name == DEFAULT_WORKSPACE:
            return "cannot delete default state"
        try:
            shutil.rmtree(os.path.join(self.root, self.workspace_dir, name))
        except FileNotFoundError:
            pass
        except OSError as exc:
            return str(exc.strerror or exc)
        return None


def tracked_objects(state: State) -> list[str]:
    """What a workspace whose state is `state` tracks, as terraform's `workspace delete`
    lists it: every resource instance object ("addr", or "addr (deposed object KEY)"),
    in address order; empty when the state has no managed resource instance object."""
    from engine.addrs import AddressSyntaxError, parse_abs_resource_instance
    from engine.addrs.keys import key_str

    managed = any(
        inst.current is not None or inst.deposed
        for rs in state.resources if rs.mode == "managed" for inst in rs.instances
    )
    if not managed:
        return []
    found: list[tuple[tuple[object, ...], str, str]] = []
    for rs in state.resources:
        for inst in rs.instances:
            text = rs.address + key_str(inst.index_key)
            try:
                order: tuple[object, ...] = (0, parse_abs_resource_instance(text).sort_key())
            except AddressSyntaxError:
                order = (1, text)
            if inst.current is not None:
                found.append((order, "", text))
            for key in sorted(inst.deposed):
                found.append((order, key, f"{text} (deposed object {key})"))
    found.sort(key=lambda f: (f[0], f[1]))
    return [f[2] for f in found]
