"""The Lambda service's side of the local control plane, over HTTP on 127.0.0.1: moto's server
(a child process, functions/local/moto_process.py) forwards every Lambda Invoke here, and the
handler runs in this process (`Dispatcher`).

`POST /invoke/{function name}` with the payload as the body and `X-Amz-Invocation-Type`:
`Event` is queued (`Dispatcher.invoke_async`) and answered 202 at once; anything else runs
the handler and answers 200 with its result, with `X-Amz-Function-Error: Unhandled` when it
raised (the body is then Lambda's error document)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote

from functions.local.lambdas import Dispatcher


class LambdaBridge:
    """Serves one dispatcher's functions (see the module docstring)."""

    def __init__(self, dispatcher: Dispatcher, host: str = "127.0.0.1", port: int = 0) -> None:
        bridge = self
        self.dispatcher = dispatcher

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                status, headers, out = bridge.handle(
                    self.path, self.headers.get("X-Amz-Invocation-Type") or "", body)
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

        self.server = ThreadingHTTPServer((host, port), Handler)
        self.server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def handle(self, path: str, kind: str, body: bytes) -> tuple[int, dict[str, str], bytes]:
        """(status, headers, body) of one forwarded Invoke."""
        if not path.startswith("/invoke/"):
            return 404, {}, b"{}"
        name = unquote(path[len("/invoke/"):])
        try:
            payload = json.loads(body or b"{}")
        except ValueError:
            return 400, {}, json.dumps({"errorType": "InvalidRequestContentException",
                                        "errorMessage": "the payload is not JSON"}).encode()
        if kind == "Event":
            self.dispatcher.invoke_async(name, payload)
            return 202, {}, b""
        result, error = self.dispatcher.invoke(name, payload)
        headers = {"Content-Type": "application/json"}
        if error is not None:
            headers["X-Amz-Function-Error"] = "Unhandled"
        return 200, headers, json.dumps(result).encode()

    def start(self) -> None:
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True,
                                        name="groundplan-lambda-bridge")
        self._thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
