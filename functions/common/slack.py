"""Slack request signing and the approval message.

Slack signs each interactive callback with `X-Slack-Signature: v0=<hex>`, the HMAC-SHA256 of
`v0:{X-Slack-Request-Timestamp}:{raw body}` under the app's signing secret. `verify` checks
the signature in constant time, refuses timestamps more than `MAX_SKEW` seconds from now and
(with a replay store) a request seen before.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Callable
from typing import Any

from functions.common.errors import Unauthorized

MAX_SKEW = 300


def sign(secret: str, timestamp: str, body: bytes) -> str:
    """The `X-Slack-Signature` value for `body` sent at `timestamp`."""
    base = b"v0:" + timestamp.encode() + b":" + body
    return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


def verify(
    secret: str,
    timestamp: str | None,
    signature: str | None,
    body: bytes,
    *,
    now: float | None = None,
    seen: Callable[[str], bool] | None = None,
) -> None:
    """Raise `Unauthorized` unless the request is signed by `secret`, recent and new.

    `seen(signature)` records a verified request and answers whether it was recorded before
    (a replay)."""
    if not timestamp or not signature:
        raise Unauthorized("missing Slack signature headers", code="signature_missing")
    try:
        ts = int(timestamp)
    except ValueError:
        raise Unauthorized("invalid Slack request timestamp", code="signature_invalid") from None
    current = time.time() if now is None else now
    if abs(current - ts) > MAX_SKEW:
        raise Unauthorized("Slack request timestamp is too old", code="signature_expired")
    expected = sign(secret, timestamp, body)
    if not hmac.compare_digest(expected.encode(), signature.encode()):
        raise Unauthorized("Slack signature does not match", code="signature_invalid")
    if seen is not None and seen(signature):
        raise Unauthorized("Slack request was already processed", code="signature_replayed")


def approval_message(run: dict[str, Any], summary: str, plan_url: str | None) -> dict[str, Any]:
    """The Block Kit message asking for approval of `run` (buttons carry only the run id)."""
    changes = run.get("resource_changes") or {}
    counts = ", ".join(f"{changes.get(k, 0)} to {k}" for k in ("add", "change", "destroy"))
    text = f"groundplan run {run['id']} on workspace {run['workspace']} needs approval: {counts}"
    blocks: list[dict[str, Any]] = [
        {"type": "header", "text": {"type": "plain_text", "text": "Plan awaiting approval"}},
        {"type": "section", "text": {"type": "mrkdwn", "text": (
            f"*Workspace:* `{run['workspace']}`\n*Run:* `{run['id']}`\n"
            f"*Started by:* {run.get('created_by', '')}\n*Plan digest:* `{run.get('plan_digest')}`"
        )}},
        {"type": "section", "text": {"type": "mrkdwn", "text": f"```{summary[:2800]}```"}},
    ]
    if plan_url:
        blocks.append({"type": "context", "elements": [
            {"type": "mrkdwn", "text": f"<{plan_url}|Full plan>"}]})
    blocks.append({"type": "actions", "block_id": "approval", "elements": [
        {"type": "button", "action_id": "approve", "style": "primary", "value": run["id"],
         "text": {"type": "plain_text", "text": "Approve"}},
        {"type": "button", "action_id": "reject", "style": "danger", "value": run["id"],
         "text": {"type": "plain_text", "text": "Reject"}},
    ]})
    return {"text": text, "blocks": blocks}


def notice(text: str) -> dict[str, Any]:
    """A one-section Block Kit notice (run finished, failed, discarded)."""
    return {"text": text, "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": text}}]}
