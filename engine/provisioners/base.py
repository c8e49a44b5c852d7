"""What a provisioner is: the interface every provisioner type implements.

A provisioner type (`local-exec`, ...) has a configuration schema, a `validate` call and a
`provision` call. `validate(config)` is terraform's ValidateProvisionerConfig: checks beyond the
schema on a decoded object that may hold unknowns (diagnostics without a range). The runner
decodes the block's arguments against `schema`, strips marks, and calls
`provision(config, output, stop, connection)`: `config` is an unmarked, wholly known object of
`schema.implied_type()`; `connection` the unmarked evaluated `connection` block (resource-level
merged with the provisioner's own; None without one); `output(line)` shows output to the user;
`stop` is set when the user asked the operation to stop, and the provisioner must then end
promptly. Problems come back as diagnostics without a source range (the runner points them at
the provisioner block).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol

from engine.diags import Diagnostics
from engine.provisioners.schema import ConfigSchema
from engine.values import Value

OutputFn = Callable[[str], None]


class Provisioner(Protocol):
    """A provisioner type; see the module docstring for the contract of `provision`."""

    @property
    def type_name(self) -> str: ...

    @property
    def schema(self) -> ConfigSchema: ...

    def validate(self, config: Value) -> Diagnostics: ...

    def provision(
        self,
        config: Value,
        output: OutputFn,
        stop: threading.Event,
        connection: Value | None = None,
    ) -> Diagnostics: ...
