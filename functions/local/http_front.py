"""An HTTP server on 127.0.0.1 that does what API Gateway does in front of the functions:
each request becomes a REST API proxy event; `Authorization` goes through the TOKEN
authorizer first (401 `{"message": "Unauthorized"}` when it refuses, as API Gateway answers);
`POST /slack/interactions` goes to the approval function unauthenticated (it verifies Slack's
signature itself); `GET /console` and `GET /console/{asset}` (the web console's static files)
go to the api function unauthenticated too, as the template's `Auth: NONE` events do. The
function's proxy response becomes the HTTP response."""

from __future__ import annotations

import base64
import json
import uuid
from typing import Any
from urllib.parse import parse_qs, urlsplit

from functions.local.lambdas import Dispatcher
from functions.local.serving import LocalServer

SLACK_PATH = "/slack/interactions"
CONSOLE_PATH = "/console"


def proxy_event(method: str, raw_path: str, headers: dict[str, str], body: bytes,
                principal: str | None) -> dict[str, Any]:
    """A REST API (v1) proxy event as API Gateway builds it."""
    parts = urlsplit(raw_path)
    query = parse_qs(parts.query)
    text_body: str | None
    try:
        text_body = body.decode("utf-8") if body else None
        b64 = False
    except UnicodeDecodeError:
        text_body, b64 = base64.b64encode(body).decode(), True
    ctx: dict[str, Any] = {
        "resourcePath": parts.path, "httpMethod": method, "path": "/local" + parts.path,
        "stage": "local", "requestId": str(uuid.uuid4()),
        "identity": {"sourceIp": "127.0.0.1", "userAgent": headers.get("User-Agent", "")},
    }
    if principal is not None:
        ctx["authorizer"] = {"principalId": principal}
    return {
        "resource": parts.path, "path": parts.path, "httpMethod": method,
        "headers": headers, "multiValueHeaders": {k: [v] for k, v in headers.items()},
        "queryStringParameters": {k: v[-1] for k, v in query.items()} or None,
        "multiValueQueryStringParameters": query or None,
        "pathParameters": None, "stageVariables": None,
        "requestContext": ctx, "body": text_body, "isBase64Encoded": b64,
    }


class ApiFront:
    """The HTTP front of one local control plane (see the module docstring)."""

    def __init__(self, dispatcher: Dispatcher, host: str = "127.0.0.1", port: int = 0) -> None:
        self.dispatcher = dispatcher
        self._server = LocalServer(self.handle, "groundplan-api-front", host, port)

    @property
    def url(self) -> str:
        return self._server.url

    def start(self) -> None:
        self._server.start()

    def stop(self) -> None:
        self._server.stop()

    def _authorize(self, headers: dict[str, str]) -> str | None:
        token = next((v for k, v in headers.items() if k.lower() == "authorization"), "")
        result, error = self.dispatcher.invoke(self.dispatcher.function_name("authorizer"), {
            "type": "TOKEN", "authorizationToken": token,
            "methodArn": "arn:aws:execute-api:local:000000000000:local/local/*"})
        if error is not None or not isinstance(result, dict):
            return None
        return str(result.get("principalId") or "") or None

    def handle(self, method: str, path: str, headers: dict[str, str],
               body: bytes) -> tuple[int, dict[str, str], bytes]:
        """One request through authorizer and function: (status, headers, body)."""
        route = urlsplit(path).path
        if route == SLACK_PATH and method == "POST":
            target, principal = "approval", None
        elif method == "GET" and (route == CONSOLE_PATH or route.startswith(CONSOLE_PATH + "/")):
            target, principal = "api", None
        else:
            principal = self._authorize(headers)
            if principal is None:
                return 401, {"Content-Type": "application/json"}, json.dumps(
                    {"message": "Unauthorized"}).encode()
            target = "api"
        event = proxy_event(method, path, headers, body, principal)
        result, error = self.dispatcher.invoke(self.dispatcher.function_name(target), event)
        if error is not None or not isinstance(result, dict):
            return 502, {"Content-Type": "application/json"}, json.dumps(
                {"message": "Internal server error"}).encode()
        out_headers = {str(k): str(v) for k, v in (result.get("headers") or {}).items()}
        for k, vs in (result.get("multiValueHeaders") or {}).items():
            out_headers[str(k)] = ", ".join(str(v) for v in vs)
        raw = result.get("body") or ""
        data = base64.b64decode(raw) if result.get("isBase64Encoded") else str(raw).encode()
        return int(result.get("statusCode", 200)), out_headers, data
