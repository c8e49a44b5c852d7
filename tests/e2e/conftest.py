"""The local control plane for end-to-end tests: moto in server mode, the handlers dispatched
in-process, the API over real HTTP on 127.0.0.1, a webhook receiver standing in for Slack."""

from __future__ import annotations

import json
import threading
import time
import urllib.parse
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from engine.cli.remote_client import RemoteClient
from functions.common.slack import sign
from functions.local.cloud import LocalCloud


class Webhook:
    """An HTTP server that records every JSON document POSTed to it."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.cond = threading.Condition()
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with hook.cond:
                    hook.messages.append(json.loads(body))
                    hook.cond.notify_all()
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def wait_for(self, predicate: Any, timeout: float = 120) -> dict[str, Any]:
        """The first message `predicate` accepts (waiting for it to arrive)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for m in self.messages:
                    if predicate(m):
                        return m
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no such message; got {self.messages!r}")
                self.cond.wait(left)


@pytest.fixture(scope="session")
def cloud(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCloud]:
    lc = LocalCloud(work_root=str(tmp_path_factory.mktemp("cloud-work")), max_concurrency=8)
    lc.start()
    try:
        yield lc
    finally:
        lc.stop()


@pytest.fixture(scope="session")
def webhook() -> Iterator[Webhook]:
    hook = Webhook()
    yield hook
    hook.server.shutdown()


@pytest.fixture()
def client(cloud: LocalCloud) -> RemoteClient:
    return RemoteClient(cloud.api_url, cloud.token)


def wait_status(client: RemoteClient, run_id: str, statuses: tuple[str, ...],
                timeout: float = 180) -> dict[str, Any]:
    """The run once its status is one of `statuses` (polling the API)."""
    deadline = time.monotonic() + timeout
    run = client.run(run_id)
    while run["status"] not in statuses:
        if time.monotonic() > deadline:
            raise AssertionError(f"run {run_id} stayed {run['status']}: {run}")
        time.sleep(0.2)
        run = client.run(run_id)
    return run


def slack_callback(cloud: LocalCloud, run_id: str, user: str, action: str = "approve",
                   timestamp: int | None = None, secret: str | None = None) -> tuple[bytes, dict[str, str]]:
    """A signed Slack `block_actions` callback for `run_id` (body, headers)."""
    payload = {"type": "block_actions", "user": {"id": user, "username": user},
               "actions": [{"action_id": action, "value": run_id, "type": "button"}],
               "response_url": "http://127.0.0.1:9/unused"}
    body = urllib.parse.urlencode({"payload": json.dumps(payload)}).encode()
    ts = str(int(time.time()) if timestamp is None else timestamp)
    headers = {"Content-Type": "application/x-www-form-urlencoded",
               "X-Slack-Request-Timestamp": ts,
               "X-Slack-Signature": sign(secret or cloud.slack_secret, ts, body)}
    return body, headers


def post_raw(url: str, body: bytes, headers: dict[str, str]) -> tuple[int, Any]:
    import urllib.error
    import urllib.request

    req = urllib.request.Request(url, method="POST", data=body, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())
