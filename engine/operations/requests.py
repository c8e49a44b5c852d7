"""What an operation is asked to do: plain dataclasses any front end can build.

The CLI builds them from flags; a Lambda handler builds them from an event. Nothing here refers
to a terminal: variable prompts and the approval question are callbacks (None: no prompt, no
question), progress and diagnostics go to the `view` (engine.operations.view), and the state
lives in the `backend` (engine.backend).

    req = PlanRequest(working_dir="/work/cfg", backend=LocalBackend("/work/cfg"), out="p.tfplan")
    result = plan(req)
    if result.success: ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from engine.backend.base import Backend
from engine.encryption import OperationEncryption
from engine.graph.signals import StopController
from engine.operations.view import NULL_VIEW, OperationView
from engine.plans.model import Plan, PlanMode
from engine.plugin.registry import ProviderRegistry

#: Asks for one root variable's value: (name, description) -> the answer, None at end of input.
AskVariable = Callable[[str, str], "str | None"]
#: Asks whether to apply `plan` (shown already through the view): True to go ahead.
Approve = Callable[[Plan], bool]


@dataclass
class OperationRequest:
    """What every operation needs.

    `working_dir` is where the configuration, `.terraform/` and the dependency lock file are;
    `config_dir` is the configuration's directory relative to it. `registry` is the provider
    registry to use (None: the operation makes one for `working_dir` and closes it when done;
    a given registry stays open, the caller closes it). `stop` receives stop requests (the CLI
    wires SIGINT/SIGTERM to it). `lock`/`lock_timeout` are `-lock` and `-lock-timeout`
    (seconds). `environ` supplies `TF_VAR_*` values; `in_automation` is `TF_IN_AUTOMATION`.
    `handle_signals` routes SIGINT/SIGTERM to `stop` while the operation walks (only in the
    main thread; the CLI sets it, a Lambda handler does not). `encryption` is the
    configuration's state and plan encryption (None: saved plans are plaintext; the state's
    encryption is the backend's own).
    """

    working_dir: str
    backend: Backend
    workspace: str = "default"
    config_dir: str = "."
    view: OperationView = NULL_VIEW
    registry: ProviderRegistry | None = None
    stop: StopController | None = None
    lock: bool = True
    lock_timeout: float = 0.0
    parallelism: int = 10
    environ: Mapping[str, str] = field(default_factory=dict)
    in_automation: bool = False
    handle_signals: bool = False
    encryption: OperationEncryption | None = None


@dataclass
class PlanRequest(OperationRequest):
    """A plan (terraform's `plan`; also the planning half of `apply`, `destroy`, `refresh`).

    `variables` are the `-var NAME=VALUE` and `-var-file FILE` arguments in the order given,
    as ("var", "NAME=VALUE") and ("var-file", "FILE") pairs. `ask_variable` is asked for each
    required variable left without a value (None: they stay errors). `out` is the saved plan's
    path ("" = not saved). `command` names the front-end command for texts that differ by
    command ("plan", "apply", "destroy", "refresh"). `timestamp` fixes `plantimestamp()` (tests).
    `generate_config_out` (`-generate-config-out`) is the new file that configuration for
    the root import targets without any is written to ("" = none: they are errors).
    """

    mode: PlanMode = PlanMode.NORMAL
    refresh: bool = True
    targets: list[str] = field(default_factory=list)
    replace: list[str] = field(default_factory=list)
    variables: list[tuple[str, str]] = field(default_factory=list)
    ask_variable: AskVariable | None = None
    out: str = ""
    command: str = "plan"
    timestamp: str | None = None
    generate_config_out: str = ""


@dataclass
class ApplyRequest(PlanRequest):
    """An apply: of the saved plan at `plan_file`, or (plan_file None) a plan made from the
    other fields, shown through the view, then applied once `approve` says yes (`approve`
    None: approved without asking, as `-auto-approve`). `variables` must be empty with a
    saved plan (it records its own)."""

    plan_file: str | None = None
    approve: Approve | None = None


@dataclass
class ImportRequest(OperationRequest):
    """`import ADDR ID`: bring the remote object `import_id` under management at `address`
    (a managed resource instance address declared in the configuration)."""

    address: str = ""
    import_id: str = ""
    variables: list[tuple[str, str]] = field(default_factory=list)
    ask_variable: AskVariable | None = None


__all__ = [
    "ApplyRequest",
    "StopController",
    "Approve",
    "AskVariable",
    "ImportRequest",
    "OperationRequest",
    "PlanRequest",
]
