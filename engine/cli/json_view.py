"""terraform's machine-readable UI (`plan -json`, `apply -json`): one JSON object per line.

Every message has `@level`, `@message`, `@module` ("terraform.ui"), `@timestamp` (RFC 3339
with microseconds) and `type`, keys sorted as hclog writes them. `JsonView` writes the
message types of views/json: `version`, `log`, `diagnostic`, `planned_change`,
`resource_drift`, `change_summary`, `outputs`; `JsonHooks` writes the hook messages
(`refresh_start`/`refresh_complete`, `apply_start`/`apply_progress`/`apply_complete`/
`apply_errored`, `provision_start`/`provision_progress`/`provision_complete`/
`provision_errored`). All methods are thread-safe.
"""

from __future__ import annotations

import datetime
import threading
import time
from collections.abc import Iterable
from typing import Any

from engine.addrs import AbsResourceInstance, ResourceMode, implied_provider
from engine.addrs.keys import key_str
from engine.cli.hooks_ui import provision_lines
from engine.cli.ui import Ui
from engine.diags import Diagnostic
from engine.diags.render import to_json
from engine.gocompat import json as gojson
from engine.gocompat.duration import SECOND, format_duration
from engine.plans.hooks import Hooks
from engine.plans.model import Action, ActionReason, Plan, ResourceInstanceChange
from engine.version import TERRAFORM_VERSION

UI_VERSION = "1.2"

_ACTIONS = {
    Action.NOOP: "noop",
    Action.CREATE: "create",
    Action.READ: "read",
    Action.UPDATE: "update",
    Action.DELETE_THEN_CREATE: "replace",
    Action.CREATE_THEN_DELETE: "replace",
    Action.DELETE: "delete",
    Action.FORGET: "remove",
}
_REASONS = {
    ActionReason.REPLACE_BECAUSE_TAINTED: "tainted",
    ActionReason.REPLACE_BY_REQUEST: "requested",
    ActionReason.REPLACE_BECAUSE_CANNOT_UPDATE: "cannot_update",
    ActionReason.REPLACE_BY_TRIGGERS: "replace_triggered_by",
}
_VERBS = {
    Action.CREATE: ("Creating...", "Creation"),
    Action.UPDATE: ("Modifying...", "Modifications"),
    Action.DELETE: ("Destroying...", "Destruction"),
    Action.READ: ("Reading...", "Read"),
}


def timestamp() -> str:
    """Now, as hclog writes it: `2006-01-02T15:04:05.000000Z07:00` in local time."""
    now = datetime.datetime.now().astimezone()
    text = now.strftime("%Y-%m-%dT%H:%M:%S.%f")
    offset = now.strftime("%z")
    if offset in ("+0000", "-0000", ""):
        return text + "Z"
    return f"{text}{offset[:3]}:{offset[3:]}"


def resource_addr(addr: AbsResourceInstance) -> dict[str, Any]:
    """views/json ResourceAddr."""
    key = addr.key
    own = f"{addr.resource}{key_str(key)}"
    return {
        "addr": str(addr),
        "module": str(addr.module),
        "resource": own,
        "implied_provider": implied_provider(addr.resource.type).type,
        "resource_type": addr.resource.type,
        "resource_name": addr.resource.name,
        "resource_key": key,
    }


def change_message(c: ResourceInstanceChange) -> dict[str, Any]:
    """views/json ResourceInstanceChange (a moved or imported no-op becomes move/import)."""
    action = _ACTIONS.get(c.action, "noop")
    out: dict[str, Any] = {"resource": resource_addr(c.addr)}
    if c.moved and c.prev_run_addr is not None:
        if action == "noop":
            action = "move"
        out["previous_resource"] = resource_addr(c.prev_run_addr)
    if c.importing is not None and action == "noop":
        action = "import"
    out["action"] = action
    if c.action_reason is not None:
        out["reason"] = _REASONS.get(c.action_reason, c.action_reason.value)
    if c.importing is not None:
        out["importing"] = {"id": c.importing.id}
    if c.generated_config:
        out["generated_config"] = c.generated_config
    return out


class JsonView:
    """Writes terraform's JSON UI messages to the UI's stdout."""

    def __init__(self, ui: Ui) -> None:
        self.ui = ui
        self._mu = threading.Lock()

    def emit(self, type_: str, message: str, level: str = "info", **fields: Any) -> None:
        doc: dict[str, Any] = {
            "@level": level,
            "@message": message,
            "@module": "terraform.ui",
            "@timestamp": timestamp(),
            "type": type_,
        }
        doc.update(fields)
        line = gojson.dumps({k: doc[k] for k in sorted(doc)}, indent=None)
        with self._mu:
            self.ui.raw(line + "\n")

    def version(self) -> None:
        self.emit("version", f"Terraform {TERRAFORM_VERSION}", terraform=TERRAFORM_VERSION,
                  ui=UI_VERSION)

    def log(self, message: str) -> None:
        self.emit("log", message)

    def diagnostics(self, diags: Iterable[Diagnostic]) -> None:
        for d in diags:
            word, level = ("Error", "error") if d.is_error else ("Warning", "warn")
            self.emit("diagnostic", f"{word}: {d.summary}", level, diagnostic=to_json(d))

    def plan(self, plan: Plan) -> None:
        """resource_drift, planned_change, change_summary and outputs for a plan."""
        from engine.plans.model import PlanMode

        refresh_only = plan.mode is PlanMode.REFRESH_ONLY
        for d in plan.drift:
            if d.action is not Action.NOOP or refresh_only:
                msg = change_message(d)
                self.emit("resource_drift", f"{d.addr}: Drift detected ({msg['action']})",
                          change=msg)
        add = change = remove = imported = 0
        for c in plan.changes:
            if c.action is Action.DELETE and c.addr.resource.mode is ResourceMode.DATA:
                continue
            imported += c.importing is not None
            if c.action is Action.CREATE:
                add += 1
            elif c.action is Action.DELETE:
                remove += 1
            elif c.action is Action.UPDATE:
                change += 1
            elif c.action.is_replace:
                add += 1
                remove += 1
            if c.action is not Action.NOOP or c.moved or c.importing is not None:
                self.planned_change(c)
        self.change_summary("plan", add, change, remove, imported)
        if plan.output_changes:
            outputs = {
                o.name: {"sensitive": o.sensitive, "action": _ACTIONS.get(o.action, "noop")}
                for o in sorted(plan.output_changes, key=lambda o: o.name)
            }
            self.emit("outputs", f"Outputs: {len(outputs)}", outputs=outputs)

    def planned_change(self, c: ResourceInstanceChange) -> None:
        msg = change_message(c)
        self.emit("planned_change", f"{c.addr}: Plan to {msg['action']}", change=msg)

    def change_summary(self, operation: str, add: int, change: int, remove: int,
                       imported: int = 0, destroy_mode: bool = False) -> None:
        if operation == "plan":
            text = f"Plan: {add} to add, {change} to change, {remove} to destroy."
            if imported:
                text = (f"Plan: {imported} to import, {add} to add, {change} to change, "
                        f"{remove} to destroy.")
        elif destroy_mode:
            text = f"Destroy complete! Resources: {remove} destroyed."
        else:
            text = f"Apply complete! Resources: {add} added, {change} changed, {remove} destroyed."
            if imported:
                text = (f"Apply complete! Resources: {imported} imported, {add} added, "
                        f"{change} changed, {remove} destroyed.")
        self.emit("change_summary", text, changes={
            "add": add, "change": change, "import": imported, "remove": remove,
            "operation": operation})

    def outputs(self, outputs: dict[str, dict[str, Any]]) -> None:
        self.emit("outputs", f"Outputs: {len(outputs)}", outputs=outputs)


class JsonHooks(Hooks):
    """Hook messages of the JSON UI (see the module docstring)."""

    def __init__(self, view: JsonView, period: float = 10.0) -> None:
        self.view = view
        self.period = period
        self._mu = threading.Lock()
        self._ops: dict[str, tuple[Action, float, threading.Event]] = {}

    def _hook(self, addr: AbsResourceInstance, **more: Any) -> dict[str, Any]:
        return {"resource": resource_addr(addr), **more}

    def pre_refresh(self, addr: AbsResourceInstance, id: str | None) -> None:
        extra = {"id_key": "id", "id_value": id} if id else {}
        suffix = f" [id={id}]" if id else ""
        self.view.emit("refresh_start", f"{addr}: Refreshing state...{suffix}",
                       hook=self._hook(addr, **extra))

    def post_refresh(self, addr: AbsResourceInstance, id: str | None) -> None:
        extra = {"id_key": "id", "id_value": id} if id else {}
        suffix = f" [id={id}]" if id else ""
        self.view.emit("refresh_complete", f"{addr}: Refresh complete{suffix}",
                       hook=self._hook(addr, **extra))

    def pre_apply(self, addr: AbsResourceInstance, action: Action, id: str | None,
                  deposed: str = "") -> None:
        # terraform's JSON hook messages name the instance only, never its deposed key
        if action.is_replace:
            action = Action.CREATE  # the delete half is reported as its own DELETE operation
        if action not in _VERBS:
            return
        extra = {"id_key": "id", "id_value": id} if id and action is not Action.CREATE else {}
        suffix = f" [id={id}]" if extra else ""
        name = _ACTIONS[action]
        self.view.emit("apply_start", f"{addr}: {_VERBS[action][0]}{suffix}",
                       hook=self._hook(addr, action=name, **extra))
        done = threading.Event()
        with self._mu:
            self._ops[str(addr)] = (action, time.monotonic(), done)
        threading.Thread(target=self._tick, args=(addr, action, done), daemon=True).start()

    def _tick(self, addr: AbsResourceInstance, action: Action, done: threading.Event) -> None:
        start = time.monotonic()
        verb = _VERBS[action][0].replace("...", "").lower()
        while not done.wait(self.period):
            secs = round(time.monotonic() - start)
            self.view.emit("apply_progress",
                           f"{addr}: Still {verb}... [{format_duration(round(secs) * SECOND)} elapsed]",
                           hook=self._hook(addr, action=_ACTIONS[action], elapsed_seconds=secs))

    def post_apply(self, addr: AbsResourceInstance, action: Action, id: str | None,
                   elapsed: float, error: Diagnostic | None, deposed: str = "") -> None:
        with self._mu:
            op = self._ops.pop(str(addr), None)
        if op is None:
            return
        act, start, done = op
        done.set()
        secs = round(time.monotonic() - start)
        name = _ACTIONS[act]
        if error is not None:
            self.view.emit("apply_errored", f"{addr}: {_VERBS[act][1]} errored after "
                           f"{format_duration(round(secs) * SECOND)}", "error",
                           hook=self._hook(addr, action=name, elapsed_seconds=secs))
            return
        extra = {"id_key": "id", "id_value": id} if id and act is not Action.DELETE else {}
        suffix = f" [id={id}]" if extra else ""
        self.view.emit("apply_complete", f"{addr}: {_VERBS[act][1]} complete after "
                       f"{format_duration(round(secs) * SECOND)}{suffix}",
                       hook=self._hook(addr, action=name, **extra, elapsed_seconds=secs))

    def pre_provision(self, addr: AbsResourceInstance, type_name: str) -> None:
        self.view.emit("provision_start", f"{addr}: Provisioning with '{type_name}'...",
                       hook=self._hook(addr, provisioner=type_name))

    def provision_output(self, addr: AbsResourceInstance, type_name: str, line: str) -> None:
        for shown in provision_lines(line):  # one message per visible line, as terraform
            self.view.emit("provision_progress", f"{addr}: ({type_name}): {shown}",
                           hook=self._hook(addr, provisioner=type_name, output=shown))

    def post_provision(self, addr: AbsResourceInstance, type_name: str,
                       error: Diagnostic | None) -> None:
        if error is not None:
            self.view.emit("provision_errored", f"{addr}: ({type_name}) Provisioning errored",
                           "error", hook=self._hook(addr, provisioner=type_name))
            return
        self.view.emit("provision_complete", f"{addr}: ({type_name}) Provisioning complete",
                       hook=self._hook(addr, provisioner=type_name))

    def pre_read_data(self, addr: AbsResourceInstance) -> None:
        self.pre_apply(addr, Action.READ, None)

    def post_read_data(self, addr: AbsResourceInstance, id: str | None, elapsed: float) -> None:
        self.post_apply(addr, Action.READ, id, elapsed, None)

    def close(self) -> None:
        with self._mu:
            ops = list(self._ops.values())
            self._ops.clear()
        for _a, _s, done in ops:
            done.set()
