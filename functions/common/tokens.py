"""API bearer tokens, stored only as SHA-256 digests.

The token store is a Secrets Manager secret holding `{"tokens": [{"sha256": HEX, "principal":
NAME}, ...]}`; a caller is the principal whose digest matches its token (constant-time)."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets

from functions.common.aws import client


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A fresh random token (43 url-safe characters)."""
    return secrets.token_urlsafe(32)


def store_document(entries: list[tuple[str, str]]) -> str:
    """The secret's JSON for (token, principal) pairs: digests only."""
    return json.dumps({"tokens": [{"sha256": digest(t), "principal": p} for t, p in entries]})


def principal_for(token: str, secret_id: str) -> str | None:
    """The principal `token` belongs to, or None."""
    raw = client("secretsmanager").get_secret_value(SecretId=secret_id)["SecretString"]
    want = digest(token)
    found = None
    for entry in json.loads(raw).get("tokens", []):
        if hmac.compare_digest(str(entry.get("sha256", "")), want):
            found = str(entry.get("principal", ""))
    return found
