"""Running the control plane's Lambda handlers in-process, for `groundplan cloud local` and the
tests: moto runs no Lambda code without Docker, so Lambda's Invoke API is served by
`lambda_bridge` (moto's server process forwards its interpreter's invokes there, and this
process's Lambda clients call it directly), which calls `Dispatcher.invoke`.

`Dispatcher.invoke` runs the handler registered for the function's name with the decoded
payload and a Lambda context; a raised exception becomes Lambda's `Unhandled` function error
(the `x-amz-function-error` header and an `{"errorType", "errorMessage"}` body), so a Step
Functions `Catch` sees it under the exception's class name, as it would on AWS.

An asynchronous invocation (`InvocationType=Event`) is answered 202 at once and queued, as
Lambda does: a function's queued events run on as many threads as its reserved concurrency
(`configure`), a failed event is retried twice (Lambda waits a minute, then two, between
tries; here they follow at once) and then, if the function has an on-failure destination,
that function is invoked with Lambda's failure record (`requestContext`, `requestPayload`,
`responseContext`, `responsePayload`)."""

from __future__ import annotations

import datetime as dt
import importlib
import threading
import traceback
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

Handler = Callable[[dict[str, Any], Any], Any]

#: function logical name -> "module:attribute" of its handler
HANDLERS: dict[str, str] = {
    "api": "functions.api.handler:handler",
    "authorizer": "functions.authorizer.handler:handler",
    "approval": "functions.approval.handler:handler",
    "plan": "functions.plan.handler:handler",
    "apply_node": "functions.apply_node.handler:handler",
    "finalize": "functions.finalize.handler:handler",
    "notify": "functions.notify.handler:handler",
    "drift": "functions.drift.handler:handler",
}


@dataclass
class LambdaContext:
    """The attributes of AWS's Lambda context object that Powertools reads."""

    function_name: str
    memory_limit_in_mb: int = 1024
    function_version: str = "$LATEST"
    invoked_function_arn: str = ""
    aws_request_id: str = ""
    log_group_name: str = ""
    log_stream_name: str = ""

    def get_remaining_time_in_millis(self) -> int:
        return 900_000


def resolve(target: str) -> Handler:
    module, _, attr = target.partition(":")
    fn: Handler = getattr(importlib.import_module(module), attr)
    return fn


class Dispatcher:
    """Function names (`<prefix>-<logical name>`) to handlers, with a record of calls."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self._handlers: dict[str, Handler] = {}
        self._mu = threading.Lock()
        self.invocations: list[tuple[str, float]] = []
        self.listeners: list[Callable[[str, dict[str, Any]], None]] = []
        #: function name -> (reserved concurrency, on-failure destination function name)
        self._async: dict[str, tuple[int, str]] = {}
        self._queues: dict[str, ThreadPoolExecutor] = {}
        self.retries = 2

    def configure(self, logical: str, concurrency: int, on_failure: str = "") -> None:
        """The asynchronous invocation settings of function `logical` (the template's
        ReservedConcurrentExecutions and EventInvokeConfig); default: 10, no destination."""
        self._async[self.function_name(logical)] = (
            max(1, concurrency), self.function_name(on_failure) if on_failure else "")

    def function_name(self, logical: str) -> str:
        return f"{self.prefix}-{logical.replace('_', '-')}"

    def handler_for(self, function_name: str) -> Handler:
        name = self._name(function_name)
        with self._mu:
            found = self._handlers.get(name)
            if found is None:
                for logical, target in HANDLERS.items():
                    if self.function_name(logical) == name:
                        found = resolve(target)
                        self._handlers[name] = found
                        break
        if found is None:
            raise KeyError(f"no handler for Lambda function {name}")
        return found

    def invoke(self, function_name: str, payload: dict[str, Any]) -> tuple[Any, str | None]:
        """Run the function; (result, None) or (error document, error type)."""
        for listen in self.listeners:
            listen(function_name, payload)
        handler = self.handler_for(function_name)
        ctx = LambdaContext(function_name=function_name, aws_request_id=str(uuid.uuid4()),
                            invoked_function_arn=function_name)
        try:
            return handler(payload, ctx), None
        except Exception as exc:
            kind = type(exc).__name__
            return {"errorType": kind, "errorMessage": str(exc),
                    "stackTrace": traceback.format_exception(exc)[-3:]}, kind

    def knows(self, function_name: str) -> bool:
        """Whether `function_name` (a name or an ARN) is one of the control plane's
        functions."""
        name = self._name(function_name)
        with self._mu:
            if name in self._handlers:
                return True
        return any(self.function_name(logical) == name for logical in HANDLERS)

    def register(self, logical: str, handler: Handler) -> None:
        """Run `handler` for function `logical` instead of its registered module's."""
        with self._mu:
            self._handlers[self.function_name(logical)] = handler

    def _name(self, function_name: str) -> str:
        return function_name.split(":function:")[-1].split(":")[0]

    def invoke_async(self, function_name: str, payload: dict[str, Any]) -> None:
        """Queue an asynchronous invocation (see the module docstring)."""
        name = self._name(function_name)
        with self._mu:
            queue = self._queues.get(name)
            if queue is None:
                workers = self._async.get(name, (10, ""))[0]
                queue = ThreadPoolExecutor(max_workers=workers,
                                           thread_name_prefix=f"lambda-{name}")
                self._queues[name] = queue
        queue.submit(self._run_event, name, payload)

    def _run_event(self, name: str, payload: dict[str, Any]) -> None:
        result: Any = None
        for _ in range(1 + self.retries):
            result, error = self.invoke(name, payload)
            if error is None:
                return
        destination = self._async.get(name, (10, ""))[1]
        if not destination:
            return
        record = {
            "version": "1.0",
            "timestamp": dt.datetime.now(dt.UTC).isoformat(),
            "requestContext": {"requestId": str(uuid.uuid4()), "functionArn": name,
                               "condition": "RetriesExhausted",
                               "approximateInvokeCount": 1 + self.retries},
            "requestPayload": payload,
            "responseContext": {"statusCode": 200, "executedVersion": "$LATEST",
                                "functionError": "Unhandled"},
            "responsePayload": result,
        }
        self.invoke(destination, record)

    def close(self, drop_queued: bool = True) -> None:
        """Wait for the asynchronous invocations running (and, unless `drop_queued`, for
        those queued too)."""
        with self._mu:
            queues = list(self._queues.values())
            self._queues.clear()
        for queue in queues:
            queue.shutdown(wait=True, cancel_futures=drop_queued)

