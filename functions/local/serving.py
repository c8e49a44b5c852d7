"""The local control plane's HTTP servers (the API front, the Lambda service, the Slack
webhook stand-in) share one shape: a threading HTTP/1.1 server on 127.0.0.1 whose every
request, whatever its method, is answered by one function of (method, path, headers, body)
→ (status, headers, body)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: (method, path with query, headers, body) -> (status, headers, body)
Handle = Callable[[str, str, dict[str, str], bytes], tuple[int, dict[str, str], bytes]]


class LocalServer:
    """Serves `handle` on 127.0.0.1 (`port` 0: a free port) in a daemon thread once started;
    connections are kept alive (HTTP/1.1) and each is served on a thread of its own."""

    def __init__(self, handle: Handle, name: str, host: str = "127.0.0.1",
                 port: int = 0) -> None:
        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # an answer's headers and body are two writes: with Nagle's algorithm the body
            # of a kept-alive connection waits for the client's delayed ACK (~40 ms)
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                status, headers, out = handle(self.command, self.path,
                                              dict(self.headers.items()), body)
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _serve

        self.name = name
        self.server = ThreadingHTTPServer((host, port), Handler)
        self.server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> None:
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True,
                                        name=self.name)
        self._thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
