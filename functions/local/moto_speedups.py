"""Six per-request costs of moto's server that the local control plane removes, measured on
the apply fan-out (benchmarks/control_plane.py, sampled with py-spy); none changes what moto
answers.

- Connections: werkzeug's development server, which moto's serves with, ends every response
  with `Connection: close` (http.server cannot skip a request body the application left
  unread), so each of a client's requests opens a TCP connection and the server starts a
  thread for it. `keep_alive_server` serves moto's application with a handler that reads
  each request's body whole before the application runs and answers with its length on a
  connection kept open (a chunked request is still served, and closed, by werkzeug).
- A DynamoDB query reads every item of the table (moto lists and sorts all of them, every
  run's nodes, to keep those of one partition). `_query_reads_its_partition` hands the
  query the items of its partition only (for a table query; an index query is moto's own).

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
    """Patch this process's moto with the speed-ups above (once); `keep_alive_server` is
    the server to serve it with."""
    global _installed
    with _mu:
        if _installed:
            return
        _installed = True
    _dynamodb_requests_one_at_a_time()
    _query_reads_its_partition()
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


def _query_reads_its_partition() -> None:
    from moto.dynamodb.models.table import Table

    original_query, original_all_items = Table.query, Table.all_items
    local = threading.local()

    def query(self: Any, hash_key: Any, *args: Any, **kwargs: Any) -> Any:
        index_name = args[6] if len(args) > 6 else kwargs.get("index_name")
        if index_name is not None or hash_key is None or not self.range_key_attr:
            return original_query(self, hash_key, *args, **kwargs)
        local.partition = (self, hash_key)
        try:
            return original_query(self, hash_key, *args, **kwargs)
        finally:
            local.partition = None

    def all_items(self: Any) -> Any:
        partition = getattr(local, "partition", None)
        if partition is None or partition[0] is not self:
            return original_all_items(self)
        found = self.items.get(partition[1]) or {}  # .get: `items` is a defaultdict
        return sorted(found.values(), key=lambda x: (x.hash_key, x.range_key))

    Table.query = query  # type: ignore[method-assign]
    Table.all_items = all_items  # type: ignore[method-assign]


def keep_alive_server(port: int, host: str = "127.0.0.1") -> Any:
    """A threaded werkzeug server of moto's application on `host`:`port`, as moto's
    `ThreadedMotoServer` builds it, with connections kept open (see the module docstring);
    run it with `serve_forever()`."""
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
    from werkzeug.serving import make_server

    return make_server(host, port, DomainDispatcherApplication(create_backend_app),
                       threaded=True, request_handler=_keep_alive_request_handler())


def _keep_alive_request_handler() -> type:
    """moto's request handler with connections kept open (see the module docstring)."""
    import io

    from moto.moto_server.werkzeug_app import MotoRequestHandler

    class KeepAliveRequestHandler(MotoRequestHandler):
        """Runs moto's application with the request's body read whole first, and answers
        with a `Content-Length` on a connection kept open. (werkzeug's own `run_wsgi`
        closes every connection and, after each answer, drains the socket: it would read
        the client's next request away.) A chunked request is werkzeug's to serve."""

        # headers and body are two writes: with Nagle's algorithm the body would wait for
        # the client's delayed ACK (~40 ms) on a connection kept open
        disable_nagle_algorithm = True

        def run_wsgi(self) -> None:
            if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
                super().run_wsgi()
                return
            if (self.headers.get("Expect") or "").lower().strip() == "100-continue":
                self.wfile.write(b"HTTP/1.1 100 Continue\r\n\r\n")
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            self.environ = environ = self.make_environ()
            environ["wsgi.input"] = io.BytesIO(body)
            answer: list[Any] = []

            def start_response(status: str, headers: list[tuple[str, str]],
                               exc_info: Any = None) -> Any:
                answer[:] = [status, headers]
                return lambda data: chunks.append(data)

            chunks: list[bytes] = []
            try:
                result = self.server.app(environ, start_response)
                try:
                    chunks.extend(result)
                finally:
                    if hasattr(result, "close"):
                        result.close()
            except Exception:  # as werkzeug answers an application that raised
                self.close_connection = True
                answer[:] = ["500 INTERNAL SERVER ERROR", [("Content-Type", "text/plain")]]
                chunks[:] = [b"Internal Server Error"]
            status, headers = answer
            code, _, reason = status.partition(" ")
            out = b"".join(chunks)
            head = self.command == "HEAD"
            self.send_response(int(code), reason)
            sent_length = False
            for k, v in headers:
                key = k.lower()
                if key in ("connection", "transfer-encoding"):
                    continue
                if key == "content-length":
                    if not head:
                        continue  # the length of what is sent, below
                    sent_length = True
                self.send_header(k, v)
            if not head and not (100 <= int(code) < 200 or int(code) in (204, 304)):
                self.send_header("Content-Length", str(len(out)))
            elif head and not sent_length:
                self.send_header("Content-Length", "0")
            self.end_headers()
            if not head:
                self.wfile.write(out)

    return KeepAliveRequestHandler


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
