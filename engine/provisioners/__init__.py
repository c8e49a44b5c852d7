"""Provisioners: running commands for a resource instance after it is created or before it
is destroyed, as Terraform does, with the `local-exec`, `file` and `remote-exec` provisioners.

- `run_provisioners(...)` (runner): evaluate and run one instance's provisioners in order.
- `LOCAL_EXEC` (local_exec): the `local-exec` provisioner; `LOCAL_EXEC_SCHEMA` its arguments.
- `validate_provisioners(...)` / `validate_config_provisioners(config)` (validate): check the
  blocks before anything runs.
- `FILE`, `REMOTE_EXEC` (remote): the `file` and `remote-exec` provisioners, over SSH
  (`engine.provisioners.ssh`, paramiko: direct, through a bastion or a proxy) with the
  `connection` block read as terraform reads it (connection); WinRM only as far as connecting
  (winrm: groundplan has no WinRM client). Connecting is retried as terraform does (retry).
- `lookup(type)` / `missing_plugin(type)` (registry): the provisioner types available.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from engine.provisioners.local_exec import LOCAL_EXEC
    from engine.provisioners.registry import lookup, missing_plugin
    from engine.provisioners.runner import SUPPRESSED_LINE, run_provisioners
    from engine.provisioners.schema import LOCAL_EXEC_SCHEMA, decode_config
    from engine.provisioners.validate import validate_config_provisioners, validate_provisioners

# name -> (module, attribute): each re-export is imported on first use, so importing one
# module of this package does not import the others.
_LAZY: dict[str, tuple[str, str]] = {
    "LOCAL_EXEC": ("engine.provisioners.local_exec", "LOCAL_EXEC"),
    "lookup": ("engine.provisioners.registry", "lookup"),
    "missing_plugin": ("engine.provisioners.registry", "missing_plugin"),
    "SUPPRESSED_LINE": ("engine.provisioners.runner", "SUPPRESSED_LINE"),
    "run_provisioners": ("engine.provisioners.runner", "run_provisioners"),
    "LOCAL_EXEC_SCHEMA": ("engine.provisioners.schema", "LOCAL_EXEC_SCHEMA"),
    "decode_config": ("engine.provisioners.schema", "decode_config"),
    "validate_config_provisioners": ("engine.provisioners.validate", "validate_config_provisioners"),
    "validate_provisioners": ("engine.provisioners.validate", "validate_provisioners"),
}


__getattr__ = lazy_exports(globals(), _LAZY)


__all__ = [
    "LOCAL_EXEC",
    "LOCAL_EXEC_SCHEMA",
    "SUPPRESSED_LINE",
    "decode_config",
    "lookup",
    "missing_plugin",
    "run_provisioners",
    "validate_config_provisioners",
    "validate_provisioners",
]
