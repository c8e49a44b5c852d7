"""The provisioner types groundplan has, by name, and Terraform's error for one it lacks.

`lookup(type_name)` gives the provisioner of that type, or None; `missing_plugin(type_name)` is
Terraform's "Missing required provisioner plugin" error (it has no source range).
"""

from __future__ import annotations

from engine.diags import Diagnostic, error
from engine.provisioners.base import Provisioner
from engine.provisioners.local_exec import LOCAL_EXEC
from engine.provisioners.remote import FILE, REMOTE_EXEC

_REGISTRY: dict[str, Provisioner] = {p.type_name: p for p in (LOCAL_EXEC, FILE, REMOTE_EXEC)}


def lookup(type_name: str) -> Provisioner | None:
    """The provisioner of type `type_name`, or None if there is none."""
    return _REGISTRY.get(type_name)


def missing_plugin(type_name: str) -> Diagnostic:
    """Terraform's error for a provisioner type that is not available."""
    return error(
        "Missing required provisioner plugin",
        f'This configuration requires provisioner plugin "{type_name}", which isn\'t available. '
        "If you're intending to use an external provisioner plugin, you must install it "
        "manually into one of the plugin search directories before running groundplan.",
    )
