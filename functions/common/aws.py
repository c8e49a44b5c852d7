"""boto3 clients, created once per process and injectable.

Handlers call `client("s3")`; tests and `groundplan cloud local` either point the whole process
at an endpoint (`AWS_ENDPOINT_URL`, which boto3 honours) or install their own client with
`set_client`. Clients are thread-safe; sessions are not, so each client is built under a lock.
"""

from __future__ import annotations

import threading
from typing import Any

from functions.common.settings import settings

_clients: dict[str, Any] = {}
_mu = threading.Lock()


def client(service: str) -> Any:
    """The shared boto3 client for `service` in the configured region."""
    found = _clients.get(service)
    if found is not None:
        return found
    with _mu:
        found = _clients.get(service)
        if found is None:
            import boto3

            found = boto3.session.Session().client(service, region_name=settings().region)
            _clients[service] = found
        return found


def set_client(service: str, value: Any) -> None:
    """Use `value` as the client for `service` from now on (tests, local mode)."""
    with _mu:
        _clients[service] = value


def reset_clients() -> None:
    """Drop every cached client (after the endpoint or credentials changed)."""
    with _mu:
        _clients.clear()
