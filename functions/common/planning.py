"""The plan step of a run: the engine's plan operation over the run's configuration and the
workspace's state, and the artifacts it leaves (saved plan encrypted, JSON plan and text
redacted, the log), recorded on the run with the plan's digest and change counts."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from functions.common import artifacts, credentials, state_crypto, state_store, workdir
from functions.common.drift import drift_of
from functions.common.models import Run, Workspace
from functions.common.redact import redact_plan, scrub, secret_strings
from functions.common.sealing import seal_bytes

MODES = {"plan": "normal", "apply": "normal", "destroy": "destroy", "refresh-only": "refresh-only"}


@dataclass
class PlanOutcome:
    """What the state machine needs to know after planning."""

    has_changes: bool
    digest: str | None
    counts: dict[str, int]
    prior_serial: int | None
    prior_lineage: str | None
    error: str | None = None
    drift: dict[str, Any] | None = None


def change_counts(plan: Any) -> dict[str, int]:
    """The run's `resource_changes` summary: add/change/destroy/import/move/forget."""
    from engine.plans.model import Action

    counts = {"add": 0, "change": 0, "destroy": 0, "import": 0, "move": 0, "forget": 0}
    for c in plan.changes:
        a = c.action
        if a is Action.CREATE:
            counts["add"] += 1
        elif a is Action.UPDATE:
            counts["change"] += 1
        elif a is Action.DELETE:
            counts["destroy"] += 1
        elif a.is_replace:
            counts["add"] += 1
            counts["destroy"] += 1
        elif a is Action.FORGET:
            counts["forget"] += 1
        if c.importing is not None:
            counts["import"] += 1
        if c.moved:
            counts["move"] += 1
    return counts


def var_args(values: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for name, value in sorted(values.items()):
        text = value if isinstance(value, str) else json.dumps(value)
        out.append(("var", f"{name}={text}"))
    return out


def run_plan(run: Run, ws: Workspace) -> PlanOutcome:
    """Plan `run` against `ws`'s current state; write its artifacts."""
    from engine.backend import LocalBackend
    from engine.diags.render import render_diagnostics
    from engine.operations import PlanRequest, plan
    from engine.plans.model import PlanMode
    from engine.plugin.loader import PluginRegistry

    root = workdir.configuration(run)
    values = workdir.variables(run)
    args = var_args(values)
    secrets = secret_strings(values)
    encryption = state_crypto.state_encryption(root, args)
    loc = state_store.of_run(run, ws)
    state, _ = state_store.read(loc)  # copied as stored (encrypted): the engine decrypts
    state_path = os.path.join(root, "terraform.tfstate")
    if state is not None:
        with open(state_path, "wb") as fh:
            fh.write(state)
    elif os.path.exists(state_path):
        os.unlink(state_path)
    env = credentials.provider_environment(ws, run.id)
    secrets += [v for k, v in env.items() if k not in os.environ or os.environ[k] != v]
    out = os.path.join(workdir.run_dir(run.id), "plan.tfplan")
    registry = PluginRegistry(root, provider_env=env)
    try:
        result = plan(PlanRequest(
            working_dir=root, backend=LocalBackend(root, encryption=encryption), mode=PlanMode(MODES[run.operation]),
            targets=[str(t) for t in run.targets or []], variables=args, out=out,
            registry=registry, lock=False, in_automation=True, command="plan"))
        log = scrub(render_diagnostics(result.diagnostics, box=False), secrets)
        artifacts.put_artifact(run.id, "log.txt", log.encode(), "text/plain")
        if not result.success or result.plan is None:
            return PlanOutcome(False, None, {}, None, None,
                               error=scrub(_summary(result.diagnostics), secrets) or "plan failed")
        with open(out, "rb") as fh:
            data = fh.read()
        digest = artifacts.sha256(data)
        artifacts.put_artifact(run.id, "plan.tfplan", seal_bytes(data, "plan", run.id),
                               "application/octet-stream")
        text, doc = _rendered(out, registry)
        artifacts.put_artifact(run.id, "plan.txt", scrub(text, secrets).encode(), "text/plain")
        redacted_doc = json.loads(scrub(json.dumps(redact_plan(doc)), secrets))
        artifacts.put_artifact(run.id, "plan.json", json.dumps(redacted_doc).encode(),
                               "application/json")
        base = result.base
        return PlanOutcome(
            has_changes=result.changed, digest=digest, counts=change_counts(result.plan),
            prior_serial=base.serial if base is not None else None,
            prior_lineage=base.lineage if base is not None else None,
            drift=drift_of(redacted_doc) if run.kind == "drift" else None)
    finally:
        registry.close()
        if os.path.exists(state_path):
            os.unlink(state_path)


def _summary(diags: Any) -> str:
    errs = [d for d in diags if d.severity.name == "ERROR"]
    return "; ".join(f"{d.summary}: {d.detail}" if d.detail else d.summary for d in errs[:5])


def _rendered(path: str, registry: Any) -> tuple[str, dict[str, Any]]:
    """The saved plan at `path` as `show` prints it, and as `show -json`."""
    from engine.operations.saved_plan import saved_plan_documents

    text, doc, _ = saved_plan_documents(path, registry)
    return text, doc
