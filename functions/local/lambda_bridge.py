"""The Lambda service of the local control plane, over HTTP on 127.0.0.1: Lambda's `Invoke`
API, served by the handlers of this process (`Dispatcher`).

Two kinds of caller reach it: moto's server (a child process, functions/local/moto_process.py)
forwards the invokes of its Step Functions interpreter here, and this process's own Lambda
clients call it directly (`AWS_ENDPOINT_URL_LAMBDA`, as boto3 is pointed at
`sam local start-lambda`): a node task that starts its dependents is one request, not one
through moto and a second from moto to here.

`POST /2015-03-31/functions/{FunctionName}/invocations` with the payload as the body and
`X-Amz-Invocation-Type` (botocore's request for `lambda.invoke`): `Event` is queued
(`Dispatcher.invoke_async`) and answered 202 with no body; `DryRun` is answered 204;
`RequestResponse` (the default) runs the handler and answers 200 with its result, with
`X-Amz-Function-Error: Unhandled` when it raised (the body is then Lambda's error document).
A function with no handler is Lambda's 404 `ResourceNotFoundException`, a payload that is not
JSON its 400 `InvalidRequestContentException`."""

from __future__ import annotations

import json
import re
from urllib.parse import quote, unquote, urlsplit

from functions.local.lambdas import Dispatcher
from functions.local.serving import LocalServer

_INVOKE = re.compile(r"^/2015-03-31/functions/(?P<name>[^/]+)/invocations$")


def invoke_path(function_name: str) -> str:
    """The request path of Lambda's Invoke for `function_name` (a name or an ARN)."""
    return f"/2015-03-31/functions/{quote(function_name, safe='')}/invocations"


def _error(status: int, kind: str, message: str) -> tuple[int, dict[str, str], bytes]:
    return status, {"Content-Type": "application/json", "x-amzn-ErrorType": kind}, json.dumps(
        {"Type": "User", "message": message}).encode()


class LambdaBridge:
    """Serves one dispatcher's functions (see the module docstring)."""

    def __init__(self, dispatcher: Dispatcher, host: str = "127.0.0.1", port: int = 0) -> None:
        self.dispatcher = dispatcher
        self._server = LocalServer(self.handle, "groundplan-lambda-bridge", host, port)

    @property
    def url(self) -> str:
        return self._server.url

    def handle(self, method: str, path: str, headers: dict[str, str],
               body: bytes) -> tuple[int, dict[str, str], bytes]:
        """(status, headers, body) of one Invoke request."""
        found = _INVOKE.match(urlsplit(path).path)
        if method != "POST" or found is None:
            return _error(404, "UnknownOperationException", f"no such operation: {method} {path}")
        name = unquote(found.group("name"))
        if not self.dispatcher.knows(name):
            return _error(404, "ResourceNotFoundException", f"Function not found: {name}")
        kind = next((v for k, v in headers.items() if k.lower() == "x-amz-invocation-type"),
                    "RequestResponse")
        if kind == "DryRun":
            return 204, {}, b""
        try:
            payload = json.loads(body or b"{}")
        except ValueError:
            return _error(400, "InvalidRequestContentException",
                          "Could not parse request body into json")
        if kind == "Event":
            self.dispatcher.invoke_async(name, payload)
            return 202, {}, b""
        result, error = self.dispatcher.invoke(name, payload)
        out = {"Content-Type": "application/json", "X-Amz-Executed-Version": "$LATEST"}
        if error is not None:
            out["X-Amz-Function-Error"] = "Unhandled"
        return 200, out, json.dumps(result).encode()

    def start(self) -> None:
        self._server.start()

    def stop(self) -> None:
        self._server.stop()
