"""A run's working directory on the function's disk (`/tmp` on Lambda), kept while the
function is warm: the configuration version unpacked, providers installed from the image's
filesystem mirror, the saved plan fetched once per plan digest.

Warm functions of one run reuse what an earlier invocation prepared: a node task does not
download and decode the whole plan again (see `prepared_plan`)."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Any

from functions.common import artifacts
from functions.common.archive import unpack
from functions.common.errors import Conflict, Unprocessable
from functions.common.models import Run
from functions.common.sealing import unseal, unseal_bytes
from functions.common.settings import settings

_mu = threading.Lock()
_run_locks: dict[str, threading.Lock] = {}


def _lock(run_id: str) -> threading.Lock:
    with _mu:
        return _run_locks.setdefault(run_id, threading.Lock())


def run_dir(run_id: str) -> str:
    return os.path.join(settings().work_root, "runs", run_id)


def configuration(run: Run) -> str:
    """The run's configuration directory, unpacked and with its providers installed."""
    return unpacked(run.id, run.workspace, run.configuration_version)


def unpacked(work_id: str, workspace: str, configuration_version: str) -> str:
    """Configuration version `configuration_version` of `workspace` unpacked in the working
    directory of `work_id` (a run, or a state action) with its providers installed."""
    root = os.path.join(run_dir(work_id), "config")
    marker = os.path.join(run_dir(work_id), ".prepared")
    with _lock(work_id):
        if os.path.exists(marker):
            return root
        cfg = settings()
        data = artifacts.get(cfg.config_bucket,
                             artifacts.config_key(workspace, configuration_version))
        unpack(data, root, cfg.max_upload_bytes)
        from engine.configs import load_config
        from engine.providercache.requirements import install_locked

        config, diags = load_config(root)
        if config is not None and not diags.has_errors:
            dirs = [cfg.plugin_dir] if os.path.isdir(cfg.plugin_dir) else []
            more = install_locked(root, config, dirs) if dirs else None
            if more is not None and more.has_errors:
                from engine.diags.render import render_diagnostics

                raise Unprocessable("providers could not be installed:\n" +
                                    render_diagnostics(more, box=False),
                                    code="providers_not_installed")
        with open(marker, "w") as fh:
            fh.write(configuration_version)
    return root


def variables(run: Run) -> dict[str, Any]:
    """The run's variables (decrypted; never written to disk)."""
    if not run.variables_key:
        return {}
    blob = artifacts.get(settings().artifact_bucket, run.variables_key)
    value = unseal(blob, "variables", run.id)
    return dict(value) if isinstance(value, dict) else {}


@dataclass
class PreparedPlan:
    path: str
    digest: str
    planfile: Any


_plans: dict[str, PreparedPlan] = {}


def prepared_plan(run: Run, expected_digest: str) -> PreparedPlan:
    """The run's saved plan on local disk and decoded, checked against `expected_digest` (the
    approved one); cached by digest while the function is warm."""
    found = _plans.get(expected_digest)
    if found is not None:
        return found
    with _lock(run.id):
        found = _plans.get(expected_digest)
        if found is not None:
            return found
        sealed = artifacts.get_artifact(run.id, "plan.tfplan")
        data = unseal_bytes(sealed, "plan", run.id)
        digest = artifacts.sha256(data)
        if digest != expected_digest:
            raise Conflict(f"the plan of run {run.id} is not the approved plan "
                           f"(digest {digest}, approved {expected_digest})",
                           code="plan_digest_mismatch")
        path = os.path.join(run_dir(run.id), "apply.tfplan")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(data)
        from engine.plans.planfile import read_planfile

        pf, _ = read_planfile(path)
        if pf is None:
            raise Unprocessable("the saved plan cannot be read", code="invalid_plan")
        found = PreparedPlan(path, digest, pf)
        _plans[expected_digest] = found
        return found
