"""Four per-request costs of moto's server that the local control plane removes, measured on
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
- DynamoDB's answers: moto's generic response serializer looks every member of the output
  shape up through a chain of attribute-alias providers (~30 ms of CPU for one UpdateItem,
  the largest single cost of the fan-out). The item operations' results are already in the
  wire format, so `dynamodb_json` walks the output shape directly and gives the same JSON
  (tests/unit/functions/test_moto_speedups.py compares the two on every operation the
  control plane makes); anything else (errors, timestamps, blobs, other operations) goes to
  moto's serializer as before.

One more patch makes moto's server as faithful as the control plane needs: DynamoDB applies
each write to an item atomically (two concurrent `ADD remaining -1` updates always take two
off), but moto's `update_item` reads, copies and writes the item back without a lock, so
concurrent updates of one item can lose one (seen in the fan-out: a dependency count that
never reached zero). `_dynamodb_requests_one_at_a_time` serialises moto's DynamoDB requests;
tests/unit/functions/test_moto_speedups.py counts concurrent updates through a server.

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
    _dynamodb_requests_one_at_a_time()
    _route_once_per_host()
    _one_client_per_service()
    _parse_each_path_once()
    _dynamodb_item_answers_direct()


def _dynamodb_requests_one_at_a_time() -> None:
    import functools

    from moto.dynamodb.responses import DynamoHandler

    original = DynamoHandler.call_action
    lock = threading.Lock()

    @functools.wraps(original)
    def call_action(self: Any) -> Any:
        with lock:  # the request's item reads and writes, and its answer, as one step
            return original(self)

    DynamoHandler.call_action = call_action  # type: ignore[method-assign]


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


#: DynamoDB's item operations, whose results moto builds in the wire format already
ITEM_OPERATIONS = frozenset({
    "GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan", "BatchGetItem",
    "BatchWriteItem", "TransactGetItems", "TransactWriteItems",
})


class _Unsupported(Exception):
    """A value the direct walk leaves to moto's serializer."""


def dynamodb_json(value: Any, shape: Any) -> Any:
    """`value` (a result as moto's DynamoDB builds it) serialised for `shape` as moto's JSON
    serializer does: structure members by their serialised names, None members left out,
    strings, numbers and booleans as they are. Raises _Unsupported for what it does not
    handle (timestamps, blobs, objects that are not dicts)."""
    kind = shape.type_name
    if kind == "structure":
        if shape.is_document_type:
            return value
        if not isinstance(value, dict):
            raise _Unsupported(kind)
        out: dict[str, Any] = {}
        for name, member in shape.members.items():
            item = value.get(name)
            if item is not None:
                out[member.serialization.get("name", name)] = dynamodb_json(item, member)
        return out
    if kind == "list":
        items: list[Any] = []
        for item in value:
            if item is None and shape.member.type_name == "structure":
                items.append(None)
            else:
                items.append(dynamodb_json(item, shape.member))
        return items
    if kind == "map":
        entries: dict[str, Any] = {}
        for k, item in value.items():
            if item is None and shape.value.type_name == "structure":
                continue
            entries[k] = dynamodb_json(item, shape.value)
        return entries
    if kind == "string":
        if hasattr(value, "value") and not isinstance(value, str):  # an Enum
            value = value.value
        return str(value) if value not in (None, {}, []) else value
    if kind in ("integer", "long"):
        return int(value)
    if kind in ("float", "double"):
        return float(value)
    if kind == "boolean":
        return value
    raise _Unsupported(kind)


def _dynamodb_item_answers_direct() -> None:
    import json

    from moto import settings
    from moto.dynamodb.responses import DynamoResult

    original = DynamoResult.execute_result

    def execute_result(self: Any, context: Any) -> Any:
        op = context.operation_model
        result = self.result
        if (op.name not in ITEM_OPERATIONS or isinstance(result, Exception)
                or settings.PRETTIFY_RESPONSES or op.output_shape is None):
            return original(self, context)
        try:
            body = json.dumps(dynamodb_json(result, op.output_shape))
        except _Unsupported:
            return original(self, context)
        version = op.service_model.metadata.get("jsonVersion", "1.0")
        headers = {"Content-Type": f"application/x-amz-json-{version}"}
        return op.http.get("responseCode", 200), headers, body

    DynamoResult.execute_result = execute_result  # type: ignore[method-assign]
    DynamoResult.execute_result_by_moto = original  # type: ignore[attr-defined]
