"""Slack's side of the conversation, for `groundplan cloud local` users, the demo and tests:
a webhook receiver that records the messages the control plane posts (standing in for an
incoming webhook) and signed `block_actions` callbacks as Slack sends them."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any

from functions.common.slack import sign
from functions.local.serving import LocalServer


class Webhook:
    """An HTTP server on 127.0.0.1 that records every JSON document POSTed to it."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.cond = threading.Condition()
        self._server = LocalServer(self._record, "groundplan-slack-webhook")
        self._server.start()

    def _record(self, method: str, path: str, headers: dict[str, str],
                body: bytes) -> tuple[int, dict[str, str], bytes]:
        if method != "POST":
            return 405, {}, b""
        with self.cond:
            self.messages.append(json.loads(body))
            self.cond.notify_all()
        return 200, {}, b"ok"

    @property
    def url(self) -> str:
        return self._server.url + "/hook"

    def wait_for(self, predicate: Callable[[dict[str, Any]], bool],
                 timeout: float = 120) -> dict[str, Any]:
        """The first message `predicate` accepts (waiting up to `timeout` for it)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for m in self.messages:
                    if predicate(m):
                        return m
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no such message; got {self.messages!r}")
                self.cond.wait(left)

    def close(self) -> None:
        self._server.stop()


def block_actions(run_id: str, user: str, action: str, secret: str,
                  timestamp: int | None = None) -> tuple[bytes, dict[str, str]]:
    """A `block_actions` callback pressing `action` on run `run_id` as `user`, signed with
    `secret` at `timestamp` (now by default): (form body, headers)."""
    payload = {"type": "block_actions", "user": {"id": user, "username": user},
               "actions": [{"action_id": action, "value": run_id, "type": "button"}]}
    body = urllib.parse.urlencode({"payload": json.dumps(payload)}).encode()
    ts = str(int(time.time()) if timestamp is None else timestamp)
    headers = {"Content-Type": "application/x-www-form-urlencoded",
               "X-Slack-Request-Timestamp": ts, "X-Slack-Signature": sign(secret, ts, body)}
    return body, headers


def post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int, Any]:
    """POST `body`; (HTTP status, decoded JSON answer)."""
    req = urllib.request.Request(url, method="POST", data=body, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return int(resp.status), json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return int(exc.code), json.loads(exc.read())
