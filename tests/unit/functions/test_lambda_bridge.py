"""The local Lambda service speaks Lambda's Invoke API: boto3's own client, pointed at it
over real HTTP, gets what it gets from AWS."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.config import Config

from functions.local.lambda_bridge import LambdaBridge
from functions.local.lambdas import Dispatcher


@pytest.fixture()
def lam() -> Iterator[tuple[Any, Dispatcher, list[dict[str, Any]], threading.Event]]:
    dispatcher = Dispatcher("t")
    seen: list[dict[str, Any]] = []
    ran = threading.Event()

    def echo(event: dict[str, Any], context: Any) -> Any:
        if event.get("fail"):
            raise ValueError("asked to fail")
        seen.append(event)
        ran.set()
        return {"echo": event, "function": context.function_name}

    dispatcher.register("plan", echo)
    bridge = LambdaBridge(dispatcher)
    bridge.start()
    client = boto3.client("lambda", endpoint_url=bridge.url, region_name="us-east-1",
                          aws_access_key_id="k", aws_secret_access_key="s",
                          config=Config(retries={"max_attempts": 1}))
    try:
        yield client, dispatcher, seen, ran
    finally:
        dispatcher.close()
        bridge.stop()


def test_request_response_returns_the_handlers_result(lam: Any) -> None:
    client, _, _, _ = lam
    out = client.invoke(FunctionName="t-plan", Payload=json.dumps({"a": 1}).encode())
    assert out["StatusCode"] == 200
    assert "FunctionError" not in out
    assert json.loads(out["Payload"].read()) == {"echo": {"a": 1}, "function": "t-plan"}


def test_an_arn_names_the_function_too(lam: Any) -> None:
    client, _, _, _ = lam
    out = client.invoke(FunctionName="arn:aws:lambda:us-east-1:123456789012:function:t-plan",
                        Payload=b"{}")
    assert json.loads(out["Payload"].read())["echo"] == {}


def test_a_raised_exception_is_an_unhandled_function_error(lam: Any) -> None:
    client, _, _, _ = lam
    out = client.invoke(FunctionName="t-plan", Payload=json.dumps({"fail": True}).encode())
    assert out["StatusCode"] == 200
    assert out["FunctionError"] == "Unhandled"
    doc = json.loads(out["Payload"].read())
    assert doc["errorType"] == "ValueError"
    assert doc["errorMessage"] == "asked to fail"


def test_an_event_is_accepted_at_once_and_run_later(lam: Any) -> None:
    client, _, seen, ran = lam
    out = client.invoke(FunctionName="t-plan", InvocationType="Event",
                        Payload=json.dumps({"b": 2}).encode())
    assert out["StatusCode"] == 202
    assert out["Payload"].read() == b""
    assert ran.wait(30)
    assert seen == [{"b": 2}]


def test_dry_run_runs_nothing(lam: Any) -> None:
    client, _, seen, _ = lam
    out = client.invoke(FunctionName="t-plan", InvocationType="DryRun", Payload=b"{}")
    assert out["StatusCode"] == 204
    assert seen == []


def test_an_unknown_function_is_resource_not_found(lam: Any) -> None:
    client, _, _, _ = lam
    with pytest.raises(client.exceptions.ResourceNotFoundException):
        client.invoke(FunctionName="t-nothing", Payload=b"{}")


def test_a_payload_that_is_not_json_is_refused(lam: Any) -> None:
    client, _, seen, _ = lam
    with pytest.raises(client.exceptions.InvalidRequestContentException):
        client.invoke(FunctionName="t-plan", Payload=b"{not json")
    assert seen == []


def test_moto_sees_a_refused_invoke_as_a_function_error(lam: Any) -> None:
    """What moto's server process makes of the bridge's answers (a Step Functions task
    invoking a function the bridge refuses fails with Lambda's error, not a result)."""
    import http.client
    from urllib.parse import urlsplit

    from functions.local.lambda_bridge import invoke_path
    from functions.local.moto_process import invoke_answer

    client = lam[0]
    assert invoke_answer(200, None, None, b'{"ok": 1}') == (b'{"ok": 1}', None)
    assert invoke_answer(200, None, "Unhandled", b"{}") == (b"{}", "Unhandled")
    target = urlsplit(client.meta.endpoint_url)
    conn = http.client.HTTPConnection(target.hostname, target.port)
    conn.request("POST", invoke_path("t-nothing"), body=b"{}")
    resp = conn.getresponse()
    payload, error = invoke_answer(resp.status, resp.getheader("x-amzn-ErrorType"),
                                   resp.getheader("X-Amz-Function-Error"), resp.read())
    assert error == "Unhandled"
    assert json.loads(payload) == {"errorType": "ResourceNotFoundException",
                                   "errorMessage": "Function not found: t-nothing"}
