"""The plan model: what a plan proposes to change, and why.

A `Plan` is the complete, self-contained record that `apply` executes: every resource instance
change (with before/after values and the reason for its action), output changes, the drift
found during refresh, the prior state it was made against, the input variables it used, and
the mode and options it was made with. Values are engine.values Values; unknown values are
"known after apply".
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from engine.addrs import AbsProviderConfig, AbsResourceInstance
from engine.states.state import CheckResult
from engine.values import Value


class Action(enum.Enum):
    """Terraform's change actions; `value` is the plan JSON's `actions` list."""

    NOOP = ("no-op",)
    CREATE = ("create",)
    READ = ("read",)
    UPDATE = ("update",)
    DELETE = ("delete",)
    DELETE_THEN_CREATE = ("delete", "create")
    CREATE_THEN_DELETE = ("create", "delete")
    FORGET = ("forget",)

    @property
    def is_replace(self) -> bool:
        return self in (Action.DELETE_THEN_CREATE, Action.CREATE_THEN_DELETE)

    @property
    def symbol(self) -> str:
        """The marker in human plan output: `+`, `~`, `-`, `-/+`, `+/-`, `<=`, ` `."""
        return _SYMBOLS[self]


_SYMBOLS = {
    Action.NOOP: " ",
    Action.CREATE: "+",
    Action.READ: "<=",
    Action.UPDATE: "~",
    Action.DELETE: "-",
    Action.DELETE_THEN_CREATE: "-/+",
    Action.CREATE_THEN_DELETE: "+/-",
    Action.FORGET: ".",
}


class ActionReason(enum.Enum):
    """Why an action was chosen, in terraform's plan-JSON spelling (None: no reason)."""

    REPLACE_BECAUSE_TAINTED = "replace_because_tainted"
    REPLACE_BY_REQUEST = "replace_by_request"
    REPLACE_BY_TRIGGERS = "replace_by_triggers"
    REPLACE_BECAUSE_CANNOT_UPDATE = "replace_because_cannot_update"
    DELETE_BECAUSE_NO_RESOURCE_CONFIG = "delete_because_no_resource_config"
    DELETE_BECAUSE_WRONG_REPETITION = "delete_because_wrong_repetition"
    DELETE_BECAUSE_COUNT_INDEX = "delete_because_count_index"
    DELETE_BECAUSE_EACH_KEY = "delete_because_each_key"
    DELETE_BECAUSE_NO_MODULE = "delete_because_no_module"
    DELETE_BECAUSE_NO_MOVE_TARGET = "delete_because_no_move_target"
    READ_BECAUSE_CONFIG_UNKNOWN = "read_because_config_unknown"
    READ_BECAUSE_DEPENDENCY_PENDING = "read_because_dependency_pending"
    READ_BECAUSE_CHECK_NESTED = "read_because_check_nested"


class PlanMode(enum.Enum):
    NORMAL = "normal"
    DESTROY = "destroy"
    REFRESH_ONLY = "refresh-only"


@dataclass(frozen=True, slots=True)
class Importing:
    """The instance is being imported with this ID as part of the change."""

    id: str


@dataclass(slots=True)
class ResourceInstanceChange:
    """One proposed change to one resource instance (or one deposed object of it)."""

    addr: AbsResourceInstance
    provider: AbsProviderConfig
    action: Action
    before: Value
    after: Value
    prev_run_addr: AbsResourceInstance | None = None  # set when a `moved` block renamed it
    deposed_key: str | None = None
    action_reason: ActionReason | None = None
    requires_replace: list[tuple[Any, ...]] = field(default_factory=list)  # attribute paths
    importing: Importing | None = None
    generated_config: str | None = None
    private: bytes = b""

    @property
    def moved(self) -> bool:
        return self.prev_run_addr is not None and self.prev_run_addr != self.addr


@dataclass(slots=True)
class OutputChange:
    """A root output's planned change: its action, values before and after, sensitivity."""

    name: str
    action: Action
    before: Value
    after: Value
    sensitive: bool = False


@dataclass(slots=True)
class Plan:
    """Everything `apply` needs, and everything `show` renders."""

    mode: PlanMode
    changes: list[ResourceInstanceChange] = field(default_factory=list)
    output_changes: list[OutputChange] = field(default_factory=list)
    drift: list[ResourceInstanceChange] = field(default_factory=list)
    # root variable values as given (parsed, unconverted, unmarked; only those given):
    # terraform's plan VariableValues; see engine.configs.variable_values.RootInputs
    # ephemeral variables are never recorded: those set (non-null) when planning are named in
    # `apply_time_variables` and must be given again to apply (terraform's ApplyTimeVariables)
    variables: dict[str, Value] = field(default_factory=dict)
    apply_time_variables: list[str] = field(default_factory=list)
    target_addrs: list[str] = field(default_factory=list)
    force_replace_addrs: list[str] = field(default_factory=list)
    errored: bool = False
    complete: bool = True
    timestamp: str = ""
    # (resource address, attribute path as names and keys): terraform's RelevantAttributes
    relevant_attributes: list[tuple[str, list[str | int]]] = field(default_factory=list)
    # the check results of the plan walk (terraform's plan Checks; engine.checks), None when
    # not recorded
    checks: list[CheckResult] | None = None

    @property
    def applyable(self) -> bool:
        """Whether applying would do anything (terraform's Applyable)."""
        if self.errored:
            return False
        return any(c.action is not Action.NOOP or c.moved or c.importing for c in self.changes) or any(
            o.action is not Action.NOOP for o in self.output_changes
        )

    def counts(self) -> tuple[int, int, int, int, int]:
        """(add, change, destroy, import, forget) as in `Plan: X to add, ...`."""
        add = change = destroy = imported = forget = 0
        for c in self.changes:
            if c.importing:
                imported += 1
            a = c.action
            if a is Action.CREATE:
                add += 1
            elif a is Action.UPDATE:
                change += 1
            elif a is Action.DELETE:
                destroy += 1
            elif a.is_replace:
                add += 1
                destroy += 1
            elif a is Action.FORGET:
                forget += 1
        return add, change, destroy, imported, forget
