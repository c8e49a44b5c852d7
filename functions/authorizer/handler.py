"""API Gateway TOKEN authorizer: `Authorization: Bearer TOKEN` against the hashed token store.

Answers an IAM policy allowing the API for the token's principal (passed to the `api`
function as `requestContext.authorizer.principalId`), or raises `Unauthorized` (API Gateway
answers 401)."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger

from functions.common.settings import settings
from functions.common.tokens import principal_for

logger = Logger(service="groundplan-authorizer")


@logger.inject_lambda_context
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    header = str(event.get("authorizationToken", ""))
    scheme, _, token = header.partition(" ")
    principal = principal_for(token, settings().api_token_secret_id) if scheme == "Bearer" else None
    if not principal:
        logger.info("token refused")
        raise Exception("Unauthorized")  # API Gateway maps exactly this message to 401
    arn = str(event.get("methodArn", "*"))
    api_root = "/".join(arn.split("/")[:2]) + "/*" if "/" in arn else arn
    return {
        "principalId": principal,
        "policyDocument": {"Version": "2012-10-17", "Statement": [
            {"Action": "execute-api:Invoke", "Effect": "Allow", "Resource": api_root}]},
    }
