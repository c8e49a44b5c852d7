"""The local control plane's shortcut for moto's DynamoDB answers gives what moto's own
serializer gives, operation by operation (functions/local/moto_speedups.py)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws
from moto.dynamodb.responses import DynamoResult

from functions.local import moto_speedups

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def compared(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, Any, Any]]]:
    """Every DynamoDB answer made both ways: (operation, shortcut's, moto's)."""
    # a local cloud started by another test file in this process points AWS_ENDPOINT_URL at
    # its moto server process, which mock_aws would not intercept
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    moto_speedups.install()
    shortcut = DynamoResult.execute_result
    by_moto = DynamoResult.execute_result_by_moto  # type: ignore[attr-defined]
    seen: list[tuple[str, Any, Any]] = []

    def both(self: Any, context: Any) -> Any:
        mine, theirs = shortcut(self, context), by_moto(self, context)
        seen.append((context.operation_model.name, mine, theirs))
        return theirs

    DynamoResult.execute_result = both  # type: ignore[method-assign]
    try:
        with mock_aws():
            yield seen
    finally:
        DynamoResult.execute_result = shortcut  # type: ignore[method-assign]


def _range_table(db: Any) -> None:
    """Table "t": hash key h, range key r (strings), as the nodes table is keyed."""
    db.create_table(TableName="t", BillingMode="PAY_PER_REQUEST",
                    KeySchema=[{"AttributeName": "h", "KeyType": "HASH"},
                               {"AttributeName": "r", "KeyType": "RANGE"}],
                    AttributeDefinitions=[{"AttributeName": "h", "AttributeType": "S"},
                                          {"AttributeName": "r", "AttributeType": "S"}])


def _as_seen(answer: Any) -> tuple[int, str, Any]:
    status, headers, body = answer
    return status, headers["Content-Type"], json.loads(body)


def test_item_operations_answer_as_moto_does(compared: list[tuple[str, Any, Any]],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    walked: list[str] = []
    walk = moto_speedups.dynamodb_json

    def counted(value: Any, shape: Any) -> Any:
        out = walk(value, shape)
        walked.append(shape.name.removesuffix("Output"))
        return out

    monkeypatch.setattr(moto_speedups, "dynamodb_json", counted)
    db = boto3.client("dynamodb", region_name="us-east-1")
    _range_table(db)
    item = {"h": {"S": "run"}, "r": {"S": "000001"}, "n": {"N": "3"}, "ok": {"BOOL": True},
            "gone": {"NULL": True}, "deps": {"L": [{"S": "a"}, {"S": "b"}]}, "empty": {"L": []},
            "m": {"M": {"x": {"N": "1.5"}, "y": {"SS": ["p", "q"]}}}, "ns": {"NS": ["1", "2"]},
            "text": {"S": "ünïcode \"quoted\""}}
    db.put_item(TableName="t", Item=item, ReturnConsumedCapacity="TOTAL")
    db.put_item(TableName="t", Item={**item, "r": {"S": "000002"}}, ReturnValues="ALL_OLD")
    db.put_item(TableName="t", Item={**item, "r": {"S": "000002"}}, ReturnValues="ALL_OLD")
    db.get_item(TableName="t", Key={"h": {"S": "run"}, "r": {"S": "000001"}}, ConsistentRead=True)
    db.get_item(TableName="t", Key={"h": {"S": "run"}, "r": {"S": "nope"}})
    for rv in ("NONE", "ALL_NEW", "UPDATED_OLD", "UPDATED_NEW", "ALL_OLD"):
        db.update_item(TableName="t", Key={"h": {"S": "run"}, "r": {"S": "000001"}},
                       UpdateExpression="SET #s = :s ADD n :m", ReturnValues=rv,
                       ExpressionAttributeNames={"#s": "status"},
                       ExpressionAttributeValues={":s": {"S": "running"}, ":m": {"N": "-1"}})
    with pytest.raises(db.exceptions.ConditionalCheckFailedException):
        db.update_item(TableName="t", Key={"h": {"S": "run"}, "r": {"S": "000001"}},
                       UpdateExpression="SET #s = :s", ConditionExpression="#s = :p",
                       ExpressionAttributeNames={"#s": "status"},
                       ExpressionAttributeValues={":s": {"S": "x"}, ":p": {"S": "pending"}})
    db.query(TableName="t", KeyConditionExpression="h = :h",
             ExpressionAttributeValues={":h": {"S": "run"}}, ConsistentRead=True)
    db.query(TableName="t", KeyConditionExpression="h = :h", Limit=1,
             ExpressionAttributeValues={":h": {"S": "run"}}, ReturnConsumedCapacity="TOTAL")
    db.scan(TableName="t")
    db.batch_write_item(RequestItems={"t": [{"PutRequest": {"Item": {**item, "r": {"S": f"1{i}"}}}}
                                            for i in range(3)]})
    db.batch_get_item(RequestItems={"t": {"Keys": [{"h": {"S": "run"}, "r": {"S": "10"}},
                                                   {"h": {"S": "run"}, "r": {"S": "11"}}]}})
    db.transact_write_items(TransactItems=[{"Put": {"TableName": "t", "Item": {
        "h": {"S": "tx"}, "r": {"S": "1"}}}}])
    db.transact_get_items(TransactItems=[{"Get": {"TableName": "t", "Key": {
        "h": {"S": "tx"}, "r": {"S": "1"}}}}])
    db.delete_item(TableName="t", Key={"h": {"S": "run"}, "r": {"S": "000002"}},
                   ReturnValues="ALL_OLD")
    db.describe_table(TableName="t")
    # a binary attribute: left to moto's serializer
    db.put_item(TableName="t", Item={"h": {"S": "b"}, "r": {"S": "1"}, "blob": {"B": b"\x00"}})
    db.get_item(TableName="t", Key={"h": {"S": "b"}, "r": {"S": "1"}})

    for op, mine, theirs in compared:
        assert _as_seen(mine) == _as_seen(theirs), op
    # the shortcut answered them itself (the blob's GetItem is the one left to moto)
    assert walked.count("GetItem") == 2 and {"PutItem", "UpdateItem", "Query", "Scan",
                                               "BatchGetItem", "TransactGetItems",
                                               "DeleteItem"} <= set(walked)
    # (BatchWriteItem and TransactWriteItems answer through another class: moto's serializer)
    assert {"PutItem", "GetItem", "UpdateItem", "Query", "Scan", "BatchGetItem",
            "TransactGetItems", "DeleteItem", "DescribeTable"} <= {op for op, _, _ in compared}


def test_the_walk_gives_moto_the_values_it_does_not_handle() -> None:
    class Shape:
        type_name = "timestamp"

    with pytest.raises(moto_speedups._Unsupported):
        moto_speedups.dynamodb_json(0, Shape())



def test_concurrent_updates_of_one_item_through_the_server_all_count() -> None:
    """DynamoDB applies each update of an item atomically; so must the local cloud's moto."""
    from concurrent.futures import ThreadPoolExecutor

    from botocore.config import Config
    from moto.server import ThreadedMotoServer

    from functions.local.cloud import free_port

    moto_speedups.install()
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        ddb = boto3.client("dynamodb", region_name="us-east-1",
                           endpoint_url=f"http://127.0.0.1:{port}",
                           aws_access_key_id="k", aws_secret_access_key="s",
                           config=Config(max_pool_connections=16))
        ddb.create_table(TableName="counts", BillingMode="PAY_PER_REQUEST",
                         KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}])
        ddb.put_item(TableName="counts", Item={"id": {"S": "c"}, "n": {"N": "0"},
                                               "pad": {"S": "x" * 2000}})

        def down(_: int) -> None:
            ddb.update_item(TableName="counts", Key={"id": {"S": "c"}},
                            UpdateExpression="ADD n :d", ExpressionAttributeValues={
                                ":d": {"N": "-1"}})

        switching = sys.getswitchinterval()
        sys.setswitchinterval(1e-6)  # threads switch often: an unguarded update loses counts
        try:
            with ThreadPoolExecutor(max_workers=16) as pool:
                list(pool.map(down, range(800)))
        finally:
            sys.setswitchinterval(switching)
        item = ddb.get_item(TableName="counts", Key={"id": {"S": "c"}},
                            ConsistentRead=True)["Item"]
        assert item["n"] == {"N": "-800"}
    finally:
        server.stop()


def test_a_query_reads_its_partition_and_answers_as_before(monkeypatch: pytest.MonkeyPatch,
                                                          ) -> None:
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    moto_speedups.install()
    with mock_aws():
        ddb = boto3.client("dynamodb", region_name="us-east-1")
        _range_table(ddb)
        for h in ("a", "b", "c"):
            for r in ("3", "1", "2"):
                ddb.put_item(TableName="t", Item={"h": {"S": h}, "r": {"S": r},
                                                  "v": {"S": h + r}})

        def query(condition: str = "h = :h", values: dict[str, Any] | None = None,
                  **more: Any) -> list[str]:
            out = ddb.query(TableName="t", KeyConditionExpression=condition,
                            ExpressionAttributeValues={":h": {"S": "b"}, **(values or {})},
                            **more)
            return [i["v"]["S"] for i in out["Items"]]

        assert query() == ["b1", "b2", "b3"]
        assert query(ScanIndexForward=False, Limit=2) == ["b3", "b2"]
        assert query("h = :h AND r > :r", {":r": {"S": "1"}}) == ["b2", "b3"]
        assert ddb.query(TableName="t", KeyConditionExpression="h = :h",
                         ExpressionAttributeValues={":h": {"S": "zz"}})["Items"] == []
        # a scan still sees every partition
        assert len(ddb.scan(TableName="t")["Items"]) == 9


def test_the_server_keeps_a_clients_connection_open() -> None:
    """One connection serves a client's requests one after another (S3 with bodies,
    DynamoDB), where werkzeug's own handler closes each."""
    import http.client
    import threading

    from functions.local.cloud import free_port

    moto_speedups.install()
    port = free_port()
    server = moto_speedups.keep_alive_server(port)
    accepted: list[Any] = []
    original = server.get_request

    def get_request() -> Any:
        found = original()
        accepted.append(found)
        return found

    server.get_request = get_request  # type: ignore[method-assign]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        s3 = boto3.client("s3", region_name="us-east-1", endpoint_url=f"http://127.0.0.1:{port}",
                          aws_access_key_id="k", aws_secret_access_key="s")
        s3.create_bucket(Bucket="bucket-one")
        s3.put_object(Bucket="bucket-one", Key="k", Body=b"x" * 70_000)
        assert s3.get_object(Bucket="bucket-one", Key="k")["Body"].read() == b"x" * 70_000
        assert s3.head_object(Bucket="bucket-one", Key="k")["ContentLength"] == 70_000
        with pytest.raises(s3.exceptions.NoSuchKey):
            s3.get_object(Bucket="bucket-one", Key="missing")
        ddb = boto3.client("dynamodb", region_name="us-east-1",
                           endpoint_url=f"http://127.0.0.1:{port}",
                           aws_access_key_id="k", aws_secret_access_key="s")
        assert ddb.list_tables()["TableNames"] == []
        assert len(accepted) == 2, "one connection per client"
        conn = http.client.HTTPConnection("127.0.0.1", port)
        for _ in range(3):  # unsigned: refused, and the connection stays open all the same
            conn.request("GET", "/bucket-one/k", headers={"Host": f"127.0.0.1:{port}"})
            resp = conn.getresponse()
            assert resp.status == 403 and resp.read() == b""  # as moto's own server answers
            assert resp.getheader("Connection") != "close"
        assert len(accepted) == 3
    finally:
        server.shutdown()
        server.server_close()
