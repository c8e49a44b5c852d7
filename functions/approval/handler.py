"""Slack's interactive-message callback: verify, check the approver, resume the run.

`POST /slack/interactions` carries a form-encoded body whose `payload` field is the JSON of a
`block_actions` callback. The request must be signed with the workspace app's signing secret
(Secrets Manager, read once per warm function), at most 300 s old and not seen before; the
acting `user.id` must be an approver of the run's workspace. `actions[0].action_id` is
`approve` or `reject` and `value` the run id. The answer (within Slack's 3 s) is the updated
message, without its buttons."""

from __future__ import annotations

import base64
import json
import time
from typing import Any
from urllib.parse import parse_qs

from botocore.exceptions import ClientError

from functions.common import run_service, slack
from functions.common.aws import client
from functions.common.errors import ControlPlaneError, InvalidRequest
from functions.common.powertools import observability
from functions.common.settings import settings

logger, tracer, metrics = observability("groundplan-approval")
_secret: str | None = None


def _signing_secret() -> str:
    global _secret
    if _secret is None:
        out = client("secretsmanager").get_secret_value(SecretId=settings().slack_secret_id)
        _secret = str(out["SecretString"])
    return _secret


def _seen(signature: str) -> bool:
    """Record `signature` (for 10 minutes); True when it was recorded before."""
    try:
        client("dynamodb").put_item(
            TableName=settings().idempotency_table,
            Item={"id": {"S": f"slack#{signature}"},
                  "expiration": {"N": str(int(time.time()) + 2 * slack.MAX_SKEW)}},
            ConditionExpression="attribute_not_exists(id)")
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
            return True
        raise
    return False


def _headers(event: dict[str, Any]) -> dict[str, str]:
    return {str(k).lower(): str(v) for k, v in (event.get("headers") or {}).items()}


def _raw_body(event: dict[str, Any]) -> bytes:
    body = event.get("body") or ""
    if event.get("isBase64Encoded"):
        return base64.b64decode(body)
    return str(body).encode()


def _answer(status: int, body: dict[str, Any]) -> dict[str, Any]:
    return {"statusCode": status, "headers": {"Content-Type": "application/json"},
            "body": json.dumps(body)}


def decide(event: dict[str, Any]) -> dict[str, Any]:
    """The callback's outcome as an API Gateway proxy response."""
    headers = _headers(event)
    raw = _raw_body(event)
    slack.verify(_signing_secret(), headers.get("x-slack-request-timestamp"),
                 headers.get("x-slack-signature"), raw, seen=_seen)
    try:
        payload = json.loads(parse_qs(raw.decode())["payload"][0])
        action = payload["actions"][0]
        action_id, run_id = str(action["action_id"]), str(action["value"])
        user = str(payload["user"]["id"])
    except (KeyError, IndexError, ValueError, TypeError):
        raise InvalidRequest("not a Slack block_actions callback", code="invalid_payload") from None
    if action_id not in ("approve", "reject"):
        raise InvalidRequest(f"unknown action {action_id!r}", code="unknown_action")
    run = run_service.decide(run_id, action_id == "approve", user, "slack")
    verb = "approved" if action_id == "approve" else "rejected"
    logger.info("run decided", extra={"run_id": run_id, "decision": verb, "user": user})
    metrics.add_metric(name="Approvals" if verb == "approved" else "Rejections", unit="Count",
                       value=1)
    text = f"Run `{run.id}` on `{run.workspace}` was {verb} by <@{user}>."
    return _answer(200, {"replace_original": True, **slack.notice(text)})


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    try:
        return decide(event)
    except ControlPlaneError as exc:
        logger.info("refused", extra={"code": exc.code})
        return _answer(exc.status, exc.body())
