"""Posting a JSON message to a workspace's notification URL (a Slack incoming webhook or
anything that takes one)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any


def post(url: str, message: dict[str, Any], timeout: float = 5.0) -> int:
    """POST `message` as JSON to `url`; the HTTP status (0 when it could not be delivered)."""
    req = urllib.request.Request(url, method="POST", data=json.dumps(message).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return int(resp.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    except (urllib.error.URLError, OSError):
        return 0
