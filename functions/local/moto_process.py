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
        data = resp.read()
        error = resp.getheader("X-Amz-Function-Error")
        if error:
            response_headers["x-amz-function-error"] = error
        return data

    models.LambdaSimpleBackend.invoke = invoke  # type: ignore[method-assign]


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
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
    from werkzeug.serving import make_server

    from functions.local import moto_speedups

    moto_speedups.install()
    _forward_invokes(args.bridge)
    # as moto's ThreadedMotoServer, with connections kept open between requests
    server = make_server("127.0.0.1", args.port, DomainDispatcherApplication(create_backend_app),
                         threaded=True,
                         request_handler=moto_speedups.keep_alive_request_handler())
    print("ready", flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
