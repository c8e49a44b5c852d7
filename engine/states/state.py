"""The state model, shaped like Terraform's v4 state file.

A `StateFile` is a `State` plus the metadata that identifies one snapshot of it: the
`lineage` (a UUID fixed when the state is first created), the `serial` (incremented whenever
the content changes) and the version of the program that wrote it.

Resource instance objects keep their attributes as the decoded JSON of the state file (numbers
as exact `RawNumber` text): decoding them into typed values needs the provider's schema, which
is the planner's business, not the state file's.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from engine.values import Value
from engine.version import TERRAFORM_VERSION


def new_lineage() -> str:
    """A fresh lineage: a random UUID in its canonical text form."""
    return str(uuid.uuid4())


@dataclass(slots=True)
class OutputValue:
    """A root module output as recorded in state."""

    value: Value
    sensitive: bool = False


@dataclass(slots=True)
class ResourceInstanceObject:
    """One object of a resource instance (the current one or a deposed one)."""

    schema_version: int = 0
    attributes: Any = None
    attributes_flat: dict[str, str] | None = None
    sensitive_attributes: list[Any] = field(default_factory=list)
    private: str | None = None
    dependencies: list[str] = field(default_factory=list)
    create_before_destroy: bool = False
    status: str = ""


@dataclass(slots=True)
class ResourceInstance:
    """A resource instance: its key (None, an int for count, a str for for_each)."""

    index_key: int | str | None = None
    current: ResourceInstanceObject | None = None
    deposed: dict[str, ResourceInstanceObject] = field(default_factory=dict)


@dataclass(slots=True)
class Resource:
    """A resource in a module instance (`module` is "" for the root module)."""

    mode: str
    type: str
    name: str
    provider: str
    module: str = ""
    each: str = ""
    instances: list[ResourceInstance] = field(default_factory=list)

    @property
    def address(self) -> str:
        base = f"{self.type}.{self.name}" if self.mode == "managed" else (
            f"data.{self.type}.{self.name}"
        )
        return f"{self.module}.{base}" if self.module else base


@dataclass(slots=True)
class CheckObjectResult:
    """A check status of one object of a checkable configuration object, with its failure messages.
    """

    object_addr: str
    status: str
    failure_messages: list[str] = field(default_factory=list)


@dataclass(slots=True)
class CheckResult:
    """The aggregate result of one checkable configuration object."""

    object_kind: str
    config_addr: str
    status: str
    objects: list[CheckObjectResult] | None = None


@dataclass(slots=True)
class State:
    """Root outputs, resources (all modules), and the previous run's check results.

    `check_results` is None when never recorded (a state from before checks existed) and an
    empty list when recorded with nothing in it; both serialise as `null`.
    """

    outputs: dict[str, OutputValue] = field(default_factory=dict)
    resources: list[Resource] = field(default_factory=list)
    check_results: list[CheckResult] | None = None

    @property
    def is_empty(self) -> bool:
        """Terraform's "empty state": no outputs and no resources."""
        return not self.outputs and not self.resources


@dataclass(slots=True)
class StateFile:
    """A state with the file-level metadata terraform keeps beside it: lineage, serial and version.
    """

    state: State
    lineage: str = field(default_factory=new_lineage)
    serial: int = 0
    terraform_version: str = TERRAFORM_VERSION
