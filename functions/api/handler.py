"""The control plane's REST API (API Gateway proxy events → Powertools' REST resolver).

Routes are thin: they read the caller (the authorizer's principal), the path and the JSON
body, call `functions.common.run_service` / `workspaces`, and answer JSON. Every refusal is a
`ControlPlaneError` answered as `{"error": {"code", "message"}}` with its status. The routes
are listed in `infra/openapi.yaml` (a test checks the two agree)."""

from __future__ import annotations

import json
import uuid
from typing import Any
from urllib.parse import unquote

from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response, content_types
from aws_lambda_powertools.utilities.typing import LambdaContext

from functions.common import (
    artifacts,
    audit,
    console_assets,
    fanout,
    inspector,
    locks,
    run_service,
    state_actions,
    state_import,
    versions,
    workspaces,
)
from functions.common.errors import ControlPlaneError, InvalidRequest, Unauthorized
from functions.common.models import Workspace
from functions.common.powertools import observability
from functions.common.settings import settings

logger, tracer, metrics = observability("groundplan-api")
app = APIGatewayRestResolver()


def _json(status: int, body: Any) -> Response[str]:
    return Response(status_code=status, content_type=content_types.APPLICATION_JSON,
                    body=json.dumps(body))


@app.exception_handler(ControlPlaneError)
def _refused(exc: ControlPlaneError) -> Response[str]:
    logger.info("refused", extra={"code": exc.code, "status": exc.status})
    return _json(exc.status, exc.body())


def _caller() -> str:
    ctx = app.current_event.request_context
    principal = (ctx.authorizer.principal_id if ctx.authorizer else None) or ""
    if not principal:
        raise Unauthorized("no authenticated caller", code="unauthorized")
    return str(principal)


def _body() -> dict[str, Any]:
    raw = app.current_event.body
    if not raw:
        return {}
    try:
        body = json.loads(raw)
    except ValueError:
        raise InvalidRequest("request body is not JSON", code="invalid_json") from None
    if not isinstance(body, dict):
        raise InvalidRequest("request body must be a JSON object", code="invalid_json")
    return body


@app.post("/workspaces")
def create_workspace() -> Response[str]:
    ws = workspaces.create(_body(), _caller())
    return _json(201, ws.public())


def _with_activity(ws: Workspace) -> dict[str, Any]:
    return {**ws.public(), "active_run": locks.active_run(ws.name)}


@app.get("/workspaces")
def list_workspaces() -> Response[str]:
    _caller()
    return _json(200, {"workspaces": [_with_activity(w) for w in workspaces.list_all()]})


@app.get("/workspaces/<name>")
def get_workspace(name: str) -> Response[str]:
    _caller()
    return _json(200, _with_activity(workspaces.get(name)))


@app.post("/workspaces/<name>/configuration-versions")
def create_configuration_version(name: str) -> Response[str]:
    _caller()
    workspaces.get(name)
    cv_id = "cv-" + uuid.uuid4().hex[:20]
    url = artifacts.presigned_upload(settings().config_bucket, artifacts.config_key(name, cv_id))
    return _json(201, {"id": cv_id, "upload_url": url})


@app.post("/workspaces/<name>/runs")
def create_run(name: str) -> Response[str]:
    run = run_service.start_run(name, _body(), _caller())
    metrics.add_metric(name="RunsStarted", unit="Count", value=1)
    return _json(202, run.public())


@app.post("/workspaces/<name>/versions")
def create_version(name: str) -> Response[str]:
    user = _caller()
    ws = workspaces.get(name)
    versions.create(ws, user)
    return _json(201, workspaces.get(name).public())


@app.get("/workspaces/<name>/versions")
def list_versions(name: str) -> Response[str]:
    _caller()
    return _json(200, {"versions": workspaces.get(name).public()["versions"]})


@app.post("/workspaces/<name>/actions/detect-drift")
def detect_drift(name: str) -> Response[str]:
    run = run_service.detect_drift(name, _caller(), "api")
    return _json(202, run.public())


@app.get("/workspaces/<name>/runs")
def list_runs(name: str) -> Response[str]:
    _caller()
    q = app.current_event.get_query_string_value
    try:
        limit = int(q("limit", "50") or "50")
    except ValueError:
        raise InvalidRequest("limit must be a number", code="invalid_field", field="limit") from None
    runs, cursor = run_service.list_runs(name, q("status"), q("operation"), q("since"),
                                         max(1, min(limit, 200)), q("before"))
    return _json(200, {"runs": [r.public() for r in runs], "next": cursor})


@app.get("/workspaces/<name>/state/resources")
def state_resources(name: str) -> Response[str]:
    _caller()
    return _json(200, {"resources": inspector.resources(workspaces.get(name))})


@app.get("/workspaces/<name>/state/resources/<address>")
def state_resource(name: str, address: str) -> Response[str]:
    _caller()
    return _json(200, inspector.resource(workspaces.get(name), unquote(address)))


@app.get("/workspaces/<name>/state/raw")
def state_raw(name: str) -> Response[str]:
    _caller()
    return _json(200, inspector.raw(workspaces.get(name)))


@app.get("/workspaces/<name>/state/versions")
def state_versions(name: str) -> Response[str]:
    _caller()
    return _json(200, {"versions": inspector.versions(workspaces.get(name))})


@app.post("/workspaces/<name>/state/versions/<version_id>/restore")
def state_restore(name: str, version_id: str) -> Response[str]:
    user = _caller()
    return _json(202, inspector.restore(workspaces.get(name), version_id, user, "api"))


@app.post("/workspaces/<name>/state/actions/<action>")
def state_action(name: str, action: str) -> Response[str]:
    user = _caller()
    ws = workspaces.get(name)
    if action == "mv":
        return _json(200, state_actions.move(ws, _body(), user, "api"))
    if action == "rm":
        return _json(200, state_actions.remove(ws, _body(), user, "api"))
    if action == "import":
        return _json(200, state_import.import_resource(ws, _body(), user, "api"))
    raise InvalidRequest(f"unknown state action {action!r} (mv, rm, import)",
                         code="unknown_action")


@app.get("/audit")
def audit_log() -> Response[str]:
    _caller()
    q = app.current_event.get_query_string_value
    return _json(200, {"events": audit.query(q("workspace"), q("run"), q("action"), q("since"))})


@app.get("/runs/<run_id>")
def get_run(run_id: str) -> Response[str]:
    _caller()
    return _json(200, run_service.get_run(run_id).public())


@app.get("/runs/<run_id>/plan")
def get_plan(run_id: str) -> Response[str]:
    _caller()
    fmt = app.current_event.get_query_string_value("format", "text") or "text"
    data = run_service.plan_artifact(run_id, fmt)
    if fmt == "json":
        return Response(status_code=200, content_type=content_types.APPLICATION_JSON,
                        body=data.decode())
    return Response(status_code=200, content_type="text/plain; charset=utf-8",
                    body=data.decode())


@app.get("/runs/<run_id>/log")
def get_log(run_id: str) -> Response[str]:
    _caller()
    run_service.get_run(run_id)
    try:
        data = artifacts.get_artifact(run_id, "log.txt").decode()
    except Exception:  # no log written yet
        data = ""
    return Response(status_code=200, content_type="text/plain; charset=utf-8", body=data)


@app.get("/runs/<run_id>/graph")
def get_graph(run_id: str) -> Response[str]:
    _caller()
    run_service.get_run(run_id)
    return _json(200, {"nodes": fanout.picture(run_id)})


@app.post("/runs/<run_id>/actions/<action>")
def run_action(run_id: str, action: str) -> Response[str]:
    user = _caller()
    if action == "approve":
        run = run_service.decide(run_id, True, user, "api")
    elif action == "reject":
        run = run_service.decide(run_id, False, user, "api")
    elif action == "discard":
        run = run_service.discard(run_id, user)
    elif action == "cancel":
        run = run_service.cancel(run_id, user)
    else:
        raise InvalidRequest(f"unknown run action {action!r}", code="unknown_action")
    return _json(202, run.public())


def _asset(name: str) -> Response[str]:
    content_type, text = console_assets.asset(name)
    return Response(status_code=200, content_type=content_type, body=text,
                    headers=console_assets.HEADERS)


@app.get("/console")
def console_page() -> Response[str]:
    path = app.current_event.path
    slashes = len(path) - len(path.rstrip("/"))
    if slashes:  # `/console/`: the page's relative asset links need `/console`
        return Response(status_code=301, content_type="text/plain; charset=utf-8",
                        body="", headers={**console_assets.HEADERS,
                                          "Location": "../" * slashes + "console"})
    return _asset("index.html")


@app.get("/console/<asset>")
def console_asset(asset: str) -> Response[str]:
    return _asset(asset)


@logger.inject_lambda_context(log_event=False)
@tracer.capture_lambda_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
