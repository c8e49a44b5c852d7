"""Three per-request costs of moto's server that the local control plane removes, measured on
the apply fan-out (benchmarks/control_plane.py, sampled with py-spy); none changes what moto
answers.

- Routing: for every request, moto's `DomainDispatcherApplication.get_backend_for_host`
  lists moto's package directory (a `listdir` and an `isdir` per service, ~1 ms) and tries
  its URL patterns, under one lock every request of the server takes. The answer depends on
  the host only, so it is kept per host.
- The Step Functions interpreter builds a new boto3 client (~6 ms of CPU, in the process
  that also serves every request) for each Lambda task it runs. boto3 clients are
  thread-safe, so one client per (region, service) serves every task.
- The interpreter parses every JSONPath it evaluates (`$.run_id`, `$.ready.skip`, ...) with
  a new jsonpath-ng parser, whose construction builds the grammar's tables (~1.4 ms each, a
  dozen per node task). Parsed paths are kept per text (they are not changed by `find`).

`install()` is idempotent; `groundplan cloud local` and the tests' local cloud call it."""

from __future__ import annotations

import threading
from typing import Any

_installed = False
_mu = threading.Lock()


def install() -> None:
    """Apply both speed-ups to this process's moto (once)."""
    global _installed
    with _mu:
        if _installed:
            return
        _installed = True
    _route_once_per_host()
    _one_client_per_service()
    _parse_each_path_once()


def _parse_each_path_once() -> None:
    import functools

    from moto.stepfunctions.parser.asl.utils import json_path

    json_path.parse = functools.lru_cache(maxsize=4096)(json_path.parse)


def _route_once_per_host() -> None:
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication

    original = DomainDispatcherApplication.get_backend_for_host
    routes: dict[str | None, Any] = {}

    def get_backend_for_host(self: Any, host: str | None) -> Any:
        if host in routes:
            return routes[host]
        found = original(self, host)
        if found is not None:  # an unknown host may be known later (a backend loaded)
            routes[host] = found
        return found

    DomainDispatcherApplication.get_backend_for_host = (  # type: ignore[method-assign]
        get_backend_for_host)


def _one_client_per_service() -> None:
    from moto.stepfunctions.parser.asl.component.state.exec.state_task import (
        lambda_eval_utils,
    )

    original = lambda_eval_utils.boto_client_for
    clients: dict[tuple[str, str, str, bool], Any] = {}
    lock = threading.Lock()

    def boto_client_for(region: str, service: str, state_credentials: Any = None) -> Any:
        # moto's own builds every client with the same fixed keys, whatever the credentials
        from moto.core.models import botocore_stubber
        from moto.settings import moto_server_port

        ident = (region, service, str(moto_server_port()), bool(botocore_stubber.enabled))
        with lock:
            found = clients.get(ident)
            if found is None:
                found = original(region=region, service=service,
                                 state_credentials=state_credentials)
                clients[ident] = found
            return found

    lambda_eval_utils.boto_client_for = boto_client_for
