"""moto's server in a process of its own, for the local control plane.

AWS runs in other machines than the Lambda functions; locally, moto's server (S3, DynamoDB,
the Step Functions interpreter, ...) runs in a child process so that it has a core of its
own instead of sharing one interpreter lock with every handler. moto cannot run Lambda code,
so the child's Lambda Invoke (the Step Functions interpreter's tasks) is forwarded over HTTP
to the parent's `LambdaBridge` (functions/local/lambda_bridge.py), which serves Lambda's
Invoke API: it runs the handler in-process (or queues an asynchronous invocation) and
answers with the result and Lambda's function-error header.

    python -m functions.local.moto_process --port PORT --bridge http://127.0.0.1:BRIDGE

serves until it is terminated, or its parent process goes away."""

from __future__ import annotations

import argparse
import http.client
import json
import logging
import os
import sys
import threading
import time
from typing import Any
from urllib.parse import urlsplit


def _forward_invokes(bridge: str) -> None:
    """Point moto's Lambda Invoke at the bridge (one kept-alive connection per thread)."""
    from moto.awslambda_simple import models

    from functions.local.lambda_bridge import invoke_path

    target = urlsplit(bridge)
    host, port = target.hostname or "127.0.0.1", target.port or 80
    local = threading.local()

    def post(path: str, body: bytes, kind: str) -> http.client.HTTPResponse:
        for attempt in range(2):
            conn = getattr(local, "conn", None)
            if conn is None:
                conn = http.client.HTTPConnection(host, port, timeout=None)
                local.conn = conn
            try:
                conn.request("POST", path, body=body,
                             headers={"X-Amz-Invocation-Type": kind,
                                      "Content-Type": "application/json"})
                return conn.getresponse()
            except (ConnectionError, http.client.HTTPException):
                conn.close()
                local.conn = None
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def invoke(self: Any, function_name: str, qualifier: str | None, body: Any, headers: Any,
               response_headers: Any) -> bytes:
        raw = body if isinstance(body, bytes) else (body or "{}").encode()
        kind = headers.get("X-Amz-Invocation-Type") or "RequestResponse"
        resp = post(invoke_path(function_name), raw or b"{}", kind)
        payload, error = invoke_answer(resp.status, resp.getheader("x-amzn-ErrorType"),
                                       resp.getheader("X-Amz-Function-Error"), resp.read())
        if error:
            response_headers["x-amz-function-error"] = error
        return payload

    models.LambdaSimpleBackend.invoke = invoke  # type: ignore[method-assign]


def invoke_answer(status: int, error_type: str | None, function_error: str | None,
                  body: bytes) -> tuple[bytes, str | None]:
    """The bridge's answer to an Invoke as moto's Lambda backend returns it: (payload,
    function error). A refused invoke (4xx: no such function, a payload that is not JSON)
    becomes an `Unhandled` function error whose document names Lambda's error, so the
    Step Functions task fails with it instead of taking the refusal for a result."""
    if status < 400:
        return body, function_error or None
    try:
        message = str(json.loads(body).get("message") or "")
    except (ValueError, AttributeError):
        message = body.decode(errors="replace")
    return json.dumps({"errorType": error_type or "ServiceException",
                       "errorMessage": message}).encode(), "Unhandled"


def _exit_with_parent(parent: int) -> None:
    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(0)
            time.sleep(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="functions.local.moto_process")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--bridge", required=True)
    args = ap.parse_args(argv)
    os.environ["MOTO_PORT"] = str(args.port)  # the interpreter's clients call this server
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    _exit_with_parent(os.getppid())
    from functions.local import moto_speedups

    moto_speedups.install()
    _forward_invokes(args.bridge)
    server = moto_speedups.keep_alive_server(args.port)
    print("ready", flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
