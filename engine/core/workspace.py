"""The workspace `terraform.workspace` names when a scope is given none.

The CLI selects it once per invocation (engine.cli.meta), before any walk starts; worker
threads only read it. It lives apart from the scope so that selecting it imports nothing.
"""

from __future__ import annotations

_selected = "default"


def select_workspace(name: str) -> None:
    """Make `name` the workspace that scopes built without an explicit one evaluate
    `terraform.workspace` to."""
    global _selected
    _selected = name


def selected_workspace() -> str:
    """The workspace set by `select_workspace` ("default" until then)."""
    return _selected
