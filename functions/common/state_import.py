"""`import ADDRESS ID` through the control plane: the engine's import operation
(`engine.operations.import_resource`, what `groundplan import` runs) over one of the
workspace's configuration versions, its variables, and the workspace's provider credentials
obtained at execute time only (as a run's plan step obtains them).

Under the workspace (and lineage) lock (409 naming an active run), the live state is copied
as stored (encrypted) into a working directory beside the unpacked configuration; the engine
imports into it (configuring the resource's provider, ImportResourceState, ReadResource) and
writes it with the configuration's state encryption; the result goes back to the state bucket
over the version that was read (`If-Match`, or `If-None-Match` when there was no state). The
replaced version stays as the backup and is named in the answer; the import is audited. A
failed import writes nothing: a 422 with terraform's diagnostics, scrubbed of the variables'
values, the credentials and every value the state marks sensitive. The working directory is
removed however the action ends.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from typing import Any

from functions.common import (
    artifacts,
    audit,
    credentials,
    locks,
    state_crypto,
    state_store,
    workdir,
)
from functions.common.errors import InvalidRequest, NotFound, Unprocessable
from functions.common.inspector import sensitive_values
from functions.common.models import Workspace
from functions.common.planning import var_args
from functions.common.redact import scrub, secret_strings
from functions.common.settings import settings


def _field(body: dict[str, Any], name: str, what: str) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not value:
        raise InvalidRequest(f"{name} must be {what}", code="invalid_field", field=name)
    return value


def _request(body: dict[str, Any], ws: Workspace) -> tuple[str, str, str, dict[str, Any]]:
    address = _field(body, "address", "the resource instance address to import into")
    import_id = _field(body, "id", "the remote object's import ID")
    cv = _field(body, "configuration_version", "a configuration version of the workspace")
    variables = body.get("variables") or {}
    if not isinstance(variables, dict):
        raise InvalidRequest("variables must be an object", code="invalid_field",
                             field="variables")
    if not artifacts.exists(settings().config_bucket, artifacts.config_key(ws.name, cv)):
        raise NotFound(f"workspace {ws.name} has no configuration version {cv}",
                       code="configuration_version_not_found")
    return address, import_id, cv, variables


def import_resource(ws: Workspace, body: dict[str, Any], actor: str,
                    source: str) -> dict[str, Any]:
    """Import `body["id"]` into `body["address"]` of the live state of `ws` with configuration
    version `body["configuration_version"]` and `body["variables"]` (see the module
    docstring); the imported address and the versions before and after."""
    address, import_id, cv, variables = _request(body, ws)
    work_id = "state-import-" + uuid.uuid4().hex[:12]
    locks.acquire(ws.name, ws.lineage, work_id, actor)
    try:
        answer = _import(ws, work_id, cv, address, import_id, variables, actor)
        audit.record("state.imported", actor, source, workspace=ws.name,
                     detail={"address": address, "configuration_version": cv,
                             "backup_version": answer["backup_version"],
                             "version": answer["version"], "serial": answer["serial"]})
        return answer
    finally:
        locks.release(ws.name, ws.lineage, work_id)
        shutil.rmtree(workdir.run_dir(work_id), ignore_errors=True)


def _import(ws: Workspace, work_id: str, cv: str, address: str, import_id: str,
            variables: dict[str, Any], actor: str) -> dict[str, Any]:
    from engine.backend import LocalBackend
    from engine.operations import ImportRequest
    from engine.operations import import_resource as run_import
    from engine.plugin.loader import PluginRegistry

    loc = state_store.of_workspace(ws)
    stored, etag, before = state_store.read_versioned(loc)
    root = workdir.unpacked(work_id, ws.name, cv)
    args = var_args(variables)
    encryption = state_crypto.state_encryption(root, args)
    secrets = secret_strings(variables)
    if stored is not None:
        secrets += sensitive_values(json.loads(encryption.decrypt(stored)))
    state_path = os.path.join(root, "terraform.tfstate")
    if stored is not None:
        with open(state_path, "wb") as fh:
            fh.write(stored)
    env = credentials.provider_environment(ws, work_id)
    secrets += [v for k, v in env.items() if k not in os.environ or os.environ[k] != v]
    registry = PluginRegistry(root, provider_env=env)
    try:
        result = run_import(ImportRequest(
            working_dir=root, backend=LocalBackend(root, encryption=encryption),
            address=address, import_id=import_id, variables=args, registry=registry,
            lock=False, in_automation=True))
    finally:
        registry.close()
    if result.not_in_config:
        raise Unprocessable(scrub(
            f"Configuration for import target does not exist: the configuration for {address} "
            "does not exist. All target instances must have an associated configuration to "
            "be imported.", secrets), code="import_not_in_config")
    if not result.success:
        errors = result.diagnostics.errors
        raise Unprocessable(
            scrub("; ".join(f"{d.summary}: {d.detail}" if d.detail else d.summary
                            for d in errors) or "the import failed", secrets),
            code="import_failed",
            diagnostics=[{"summary": scrub(d.summary, secrets),
                          "detail": scrub(d.detail or "", secrets)} for d in errors])
    with open(state_path, "rb") as fh:
        written = fh.read()
    _, after = state_store.write_versioned(loc, written, etag, run_id=work_id, actor=actor)
    doc = json.loads(encryption.decrypt(written))
    answer = {"imported": address, "backup_version": before, "version": after,
              "serial": doc.get("serial"), "lineage": doc.get("lineage")}
    return dict(json.loads(scrub(json.dumps(answer), secrets + sensitive_values(doc))))
