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

#: connections each client keeps open: a warm function's threads (a node task's concurrent
#: reads, the local control plane's handlers) share one client, and botocore's default of 10
#: would open and drop a connection for every request beyond that
POOL_CONNECTIONS = 64


def client(service: str) -> Any:
    """The shared boto3 client for `service` in the configured region."""
    found = _clients.get(service)
    if found is not None:
        return found
    with _mu:
        found = _clients.get(service)
        if found is None:
            import boto3
            from botocore.config import Config

            found = boto3.session.Session().client(
                service, region_name=settings().region,
                config=Config(max_pool_connections=POOL_CONNECTIONS))
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
