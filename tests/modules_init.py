"""What `init` does for modules, for tests that load configurations with module calls.

Terraform (and groundplan) load child modules only from the directories `init` recorded in
`.terraform/modules/modules.json`; a test whose configuration calls a local module runs
`init_modules(root)` first, as a user runs `terraform init` before `plan`.
"""

from __future__ import annotations

import os

from engine.configs.loader import Manifest
from engine.diags import Diagnostics
from engine.initwd.modules import install_modules, write_manifest


def init_modules(root: str | os.PathLike[str]) -> Diagnostics:
    """Install the module tree of `root` and write its modules.json, as `init` does: the
    manifest is only written when installing found no errors (a remote source that cannot be
    fetched leaves the module uninstalled, and so does an error in the root module or a test
    file). The diagnostics of both."""
    directory = os.fspath(root)
    installed = install_modules(directory, lambda _line: None)
    problems = Diagnostics([*installed.early, *installed.diags])
    if problems.has_errors:
        return problems
    return write_manifest(directory, installed.records)


def installed_manifest(root: str | os.PathLike[str]) -> Manifest:
    """The manifest `init` would record for `root`, without writing it (for fixture
    directories kept in the repository): module key -> (directory, source)."""
    installed = install_modules(os.fspath(root), lambda _line: None)
    assert not installed.diags.has_errors, [d.summary for d in installed.diags]
    return {r.key: (r.dir, r.source) for r in installed.records if r.key}
