"""The S3 backend's storage and locks against moto, in-process: every lock and write path.

Each test runs twice: under moto's `mock_aws` (boto3 and pynamodb intercepted in this
process) and against a moto server on 127.0.0.1 started by the tests (real HTTP).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from moto import mock_aws
from pynamodb.exceptions import DoesNotExist

from engine.backend.config import from_record
from engine.backend.s3 import S3Backend
from engine.backend.s3.client import PreconditionFailed, S3Error
from engine.backend.s3.locks import Lease, S3Locker, lock_json
from engine.diags import Diagnostics, error
from engine.encryption import EncryptionError
from engine.states.lock import LockInfo, acquire, new_lock_info
from engine.states.state import OutputValue, State
from engine.values import NUMBER, Value
from tests.functional.s3_support import BUCKET, CREDENTIALS, REGION, TABLE, S3Env, prepare
from tests.functional.s3_support import moto_s3 as moto_s3

KEY = "app/terraform.tfstate"


@pytest.fixture(params=["mock_aws", "server"])
def aws(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[S3Env | None]:
    """None under mock_aws (no endpoint), else the moto server's environment."""
    for k, v in CREDENTIALS.items():
        monkeypatch.setenv(k, v)
    if request.param == "mock_aws":
        with mock_aws():
            prepare_mock()
            yield None
    else:
        server = request.getfixturevalue("moto_s3")
        server.reset()
        yield prepare(server.url)


def prepare_mock() -> None:
    import boto3

    s3 = boto3.client("s3", region_name=REGION)
    s3.create_bucket(Bucket=BUCKET)
    s3.put_bucket_versioning(Bucket=BUCKET, VersioningConfiguration={"Status": "Enabled"})
    boto3.client("dynamodb", region_name=REGION).create_table(
        TableName=TABLE, KeySchema=[{"AttributeName": "LockID", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "LockID", "AttributeType": "S"}],
        BillingMode="PAY_PER_REQUEST")


def backend(aws: S3Env | None, tmp_path: Path, *, lockfile: bool = True, table: bool = False,
            **more: Any) -> S3Backend:
    config: dict[str, Any] = {"bucket": BUCKET, "key": KEY, "region": REGION,
                              "use_lockfile": lockfile, "skip_credentials_validation": True,
                              "skip_metadata_api_check": True, "use_path_style": True}
    if table:
        config["dynamodb_table"] = TABLE
    if aws is not None:
        config["endpoints"] = {"s3": aws.url, "dynamodb": aws.url, "sts": aws.url}
    config.update(more.pop("config", {}))
    cfg, problem = from_record("s3", config)
    assert cfg is not None, problem
    be, diags = S3Backend.configure(cfg, dict(os.environ), str(tmp_path / ".terraform"),
                                    more.pop("encryption", None))
    assert be is not None, list(diags)
    be.lock_options = {"heartbeat": 0, **more}
    return be


def raw(be: S3Backend, key: str) -> bytes:
    return bytes(be.client.s3.get_object(Bucket=BUCKET, Key=key)["Body"].read())


def _num(n: int) -> Value:
    return Value(NUMBER, n)


def state_with(n: int) -> State:
    return State(outputs={"n": OutputValue(_num(n))})


# ------------------------------------------------------------------------------ storage
def test_state_write_read_round_trip_and_layout(aws: S3Env | None, tmp_path: Path) -> None:
    be = backend(aws, tmp_path)
    storage, diags = be.storage("default")
    assert storage is not None and not diags.has_errors
    sf, diags = storage.read()
    assert sf is None and not diags.has_errors
    written, diags = storage.write(state_with(1))
    assert written is not None and written.serial == 1, list(diags)
    doc = json.loads(raw(be, KEY))
    assert (doc["serial"], doc["lineage"], doc["outputs"]["n"]["value"]) == (1, written.lineage, 1)
    again, _ = storage.write(state_with(1))
    assert again is not None and again.serial == 1  # unchanged: nothing written
    second, _ = storage.write(state_with(2))
    assert second is not None and (second.serial, second.lineage) == (2, written.lineage)
    fresh, _ = be.storage("default")
    assert fresh is not None
    back, _ = fresh.read()
    assert back is not None and back.serial == 2


def test_a_lost_update_is_refused_with_a_412(aws: S3Env | None, tmp_path: Path) -> None:
    be = backend(aws, tmp_path)
    first, _ = be.storage("default")
    assert first is not None
    first.write(state_with(1))
    a, _ = be.storage("default")
    b, _ = be.storage("default")
    assert a is not None and b is not None
    a.read()
    b.read()
    assert b.write(state_with(2))[0] is not None
    written, diags = a.write(state_with(3))
    assert written is None
    text = " ".join(d.detail for d in diags.errors)
    assert "changed by someone else" in text and "PreconditionFailed" in text
    assert f"s3://{BUCKET}/{KEY}" in text
    assert json.loads(raw(be, KEY))["outputs"]["n"]["value"] == 2  # b's update survived


def test_first_write_is_if_none_match(aws: S3Env | None, tmp_path: Path) -> None:
    be = backend(aws, tmp_path)
    a, _ = be.storage("default")
    b, _ = be.storage("default")
    assert a is not None and b is not None
    a.read()
    b.read()
    assert b.write(state_with(1))[0] is not None
    written, diags = a.write(state_with(2))
    assert written is None and "as not existing" in diags.errors[0].detail


def test_forced_412_on_put(aws: S3Env | None, tmp_path: Path) -> None:
    be = backend(aws, tmp_path)
    storage, _ = be.storage("default")
    assert storage is not None
    be.client.faults["put"] = [PreconditionFailed("failed to upload state: StatusCode: 412")]
    written, diags = storage.write(state_with(1))
    assert written is None and "changed by someone else" in diags.errors[0].detail
    assert be.client.list_keys("app/") == []


def test_final_write_failure_saves_errored_tfstate(aws: S3Env | None, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    be = backend(aws, tmp_path)
    mgr, _ = be.state_manager("default")
    assert mgr is not None
    with mgr.locked("OperationTypeApply") as diags:
        assert not diags.has_errors
        assert not mgr.begin_apply().has_errors
        mgr.sync.set_output("n", OutputValue(_num(7)))
        be.client.faults["put"] = [S3Error("failed to upload state: AccessDenied: Access Denied")]
        done = mgr.finish()
    assert any(d.summary == "Failed to persist state to backend" for d in done.errors)
    assert any("groundplan state push errored.tfstate" in d.detail for d in done.errors)
    assert "AccessDenied" in done.errors[0].detail
    saved = json.loads((tmp_path / "errored.tfstate").read_text())
    assert saved["version"] == 4 and saved["serial"] == 1
    assert be.client.list_keys("app/") == []  # nothing half-written


def test_bad_state_object_names_bucket_and_key(aws: S3Env | None, tmp_path: Path) -> None:
    be = backend(aws, tmp_path)
    be.client.s3.put_object(Bucket=BUCKET, Key=KEY, Body=b"not json {")
    storage, _ = be.storage("default")
    assert storage is not None
    sf, diags = storage.read()
    assert sf is None and diags.has_errors
    assert f"Bucket: {BUCKET}" in diags.errors[0].detail and KEY in diags.errors[0].detail
    written, diags = storage.write(state_with(1))
    assert written is None and "could not be read" in diags.errors[0].detail
    assert raw(be, KEY) == b"not json {"  # no write after a failed read


def test_newer_state_format_is_refused(aws: S3Env | None, tmp_path: Path) -> None:
    be = backend(aws, tmp_path)
    be.client.s3.put_object(Bucket=BUCKET, Key=KEY, Body=json.dumps(
        {"version": 5, "serial": 1, "lineage": "x"}).encode())
    storage, _ = be.storage("default")
    assert storage is not None
    sf, diags = storage.read()
    assert sf is None and diags.has_errors and KEY in diags.errors[0].detail


def test_missing_bucket_and_directory_key(aws: S3Env | None, tmp_path: Path) -> None:
    be = backend(aws, tmp_path, config={"bucket": "no-such-bucket"})
    storage, _ = be.storage("default")
    assert storage is not None
    _, diags = storage.read()
    assert 'S3 bucket "no-such-bucket" does not exist.' in diags.errors[0].detail
    be = backend(aws, tmp_path)
    be.client.s3.put_object(Bucket=BUCKET, Key=KEY + "/inner", Body=b"x")
    storage, _ = be.storage("default")
    assert storage is not None
    _, diags = storage.read()
    assert "is a directory" in diags.errors[0].detail and BUCKET in diags.errors[0].detail


class Rot13Encryption:
    """A reversible transform standing in for a StateEncryption (the protocol only)."""

    def encrypt(self, data: bytes) -> bytes:
        return b"ENC:" + base64.b64encode(data)

    def decrypt(self, data: bytes) -> bytes:
        if not data.startswith(b"ENC:"):
            raise EncryptionError(Diagnostics([error("Not encrypted", "payload is plain")]))
        return base64.b64decode(data[4:])


def test_encryption_seam_wraps_what_is_stored(aws: S3Env | None, tmp_path: Path) -> None:
    be = backend(aws, tmp_path, encryption=Rot13Encryption())
    storage, _ = be.storage("default")
    assert storage is not None
    storage.write(state_with(1))
    stored = raw(be, KEY)
    assert stored.startswith(b"ENC:") and b'"serial"' not in stored
    again, _ = be.storage("default")
    assert again is not None
    sf, _ = again.read()
    assert sf is not None and sf.serial == 1
    be.client.s3.put_object(Bucket=BUCKET, Key=KEY, Body=b"{}")
    third, _ = be.storage("default")
    assert third is not None
    _, diags = third.read()
    assert diags.errors[0].summary == "Not encrypted" and KEY in diags.errors[0].detail


# ------------------------------------------------------------------------------ workspaces
def test_workspaces_layout_listing_and_delete(aws: S3Env | None, tmp_path: Path) -> None:
    be = backend(aws, tmp_path)
    assert be.workspaces()[0] == ["default"]
    storage, diags = be.storage("dev")  # created empty, under the lock, as terraform does
    assert storage is not None and not diags.has_errors
    be.storage("b-team")
    assert be.workspaces()[0] == ["default", "b-team", "dev"]
    assert "env:/dev/" + KEY in be.client.list_keys("env:/")
    doc = json.loads(raw(be, "env:/dev/" + KEY))
    assert doc["serial"] == 1 and doc["resources"] == []
    assert be.client.list_keys("env:/dev/" + KEY + ".tflock") == []  # lock released
    assert not be.delete_workspace("dev").has_errors
    assert be.workspaces()[0] == ["default", "b-team"]
    assert be.delete_workspace("default").has_errors


# ------------------------------------------------------------------------------ locks
def test_lockfile_shape_conflict_and_unlock(aws: S3Env | None, tmp_path: Path) -> None:
    be = backend(aws, tmp_path)
    locker = be.locker("default")
    assert isinstance(locker, S3Locker)
    info = new_lock_info("OperationTypeApply")
    lock_id, err = locker.lock(info)
    assert err is None and lock_id == info.id
    doc = json.loads(raw(be, KEY + ".tflock"))
    assert list(doc)[:7] == ["ID", "Operation", "Info", "Who", "Version", "Created", "Path"]
    assert doc["Path"] == f"{BUCKET}/{KEY}" and doc["Operation"] == "OperationTypeApply"
    assert "Heartbeat" in doc["Lease"]
    other = be.locker("default")
    assert other is not None
    _, err = other.lock(new_lock_info("OperationTypePlan"))
    assert err is not None and err.info is not None and err.info.id == lock_id
    assert "PreconditionFailed" in err.message
    assert other.unlock("wrong-id") is not None
    assert other.force_unlock("wrong-id") is not None
    assert locker.unlock(lock_id) is None
    assert be.client.list_keys(KEY + ".tflock") == []


def test_dynamodb_lock_items_and_digest(aws: S3Env | None, tmp_path: Path) -> None:
    be = backend(aws, tmp_path, lockfile=False, table=True)
    assert be.table is not None
    locker = be.locker("default")
    assert locker is not None
    lock_id, err = locker.lock(new_lock_info("OperationTypeApply"))
    assert err is None
    item = be.table.model.get(f"{BUCKET}/{KEY}")
    assert json.loads(str(item.Info))["ID"] == lock_id
    assert be.client.list_keys(KEY + ".tflock") == []  # no lock object without use_lockfile
    other = be.locker("default")
    assert other is not None
    _, err = other.lock(new_lock_info())
    assert err is not None and err.info is not None and err.info.id == lock_id
    assert "ConditionalCheckFailed" in err.message
    storage, _ = be.storage("default")
    assert storage is not None
    storage.write(state_with(1))
    digest = be.table.get_digest(f"{BUCKET}/{KEY}")
    assert digest == hashlib.md5(raw(be, KEY)).digest()
    assert locker.unlock(lock_id) is None
    with pytest.raises(DoesNotExist):
        be.table.model.get(f"{BUCKET}/{KEY}")


def test_digest_mismatch_retries_then_fails_as_terraform(aws: S3Env | None,
                                                          tmp_path: Path) -> None:
    be = backend(aws, tmp_path, lockfile=False, table=True)
    assert be.table is not None
    storage, _ = be.storage("default")
    assert storage is not None
    storage.write(state_with(1))
    be.table.put_digest(f"{BUCKET}/{KEY}", b"\x01" * 16)
    sleeps: list[float] = []
    clock = [0.0]

    def sleep(s: float) -> None:
        sleeps.append(s)
        clock[0] += s

    reader = be.remote_state("default")
    reader._sleep, reader._clock = sleep, lambda: clock[0]
    sf, diags = reader.read()
    assert sf is None and sleeps == [2.0] * 5
    detail = diags.errors[0].detail
    assert "state data in S3 does not have the expected content." in detail
    assert "Stored checksum:     " + "01" * 16 in detail
    assert hashlib.md5(raw(be, KEY)).hexdigest() in detail
    # the digest catching up during the retries is no error
    clock[0], sleeps[:] = 0.0, []
    real = be.table.get_digest

    def catch_up(lock_id: str) -> bytes | None:
        if sleeps:
            be.table.put_digest(lock_id, hashlib.md5(raw(be, KEY)).digest())  # type: ignore[union-attr]
        return real(lock_id)

    be.table.get_digest = catch_up  # type: ignore[method-assign]
    sf, diags = reader.read()
    assert sf is not None and not diags.has_errors and sleeps == [2.0]


def test_both_locks_in_terraforms_order(aws: S3Env | None, tmp_path: Path) -> None:
    be = backend(aws, tmp_path, lockfile=True, table=True)
    assert be.table is not None
    # someone holds only the DynamoDB item: our file lock is taken, then given back
    be.table.put_lock(f"{BUCKET}/{KEY}", new_lock_info("OperationTypePlan").to_json())
    locker = be.locker("default")
    assert locker is not None
    _, err = locker.lock(new_lock_info("OperationTypeApply"))
    assert err is not None and err.info is not None and err.info.operation == "OperationTypePlan"
    assert be.client.list_keys(KEY + ".tflock") == []
    be.table.delete_lock(f"{BUCKET}/{KEY}")
    lock_id, err = locker.lock(new_lock_info("OperationTypeApply"))
    assert err is None
    assert json.loads(raw(be, KEY + ".tflock"))["ID"] == lock_id
    assert json.loads(str(be.table.model.get(f"{BUCKET}/{KEY}").Info))["ID"] == lock_id
    assert locker.unlock(lock_id) is None
    assert be.client.list_keys(KEY + ".tflock") == []


def test_stale_lease_is_reported_and_terraform_locks_never_are(aws: S3Env | None,
                                                               tmp_path: Path) -> None:
    be = backend(aws, tmp_path)
    old = new_lock_info("OperationTypeApply")
    old.path = f"{BUCKET}/{KEY}"
    beat = old.created_ns
    be.client.s3.put_object(Bucket=BUCKET, Key=KEY + ".tflock",
                            Body=lock_json(old, Lease(30.0, beat)).encode())
    later = beat + 10 * 60 * 10**9
    locker = be.locker("default")
    assert isinstance(locker, S3Locker)
    locker.now_ns = lambda: later
    _, err = locker.lock(new_lock_info())
    assert err is not None and err.info is not None
    assert "The lock is stale" in err.info.info and old.who in err.info.info
    assert f"groundplan force-unlock {old.id}" in err.info.info
    assert "OperationTypeApply" in err.info.info
    # terraform's lock info has no lease: never stale, however old
    be.client.s3.put_object(Bucket=BUCKET, Key=KEY + ".tflock", Body=old.to_json().encode())
    _, err = locker.lock(new_lock_info())
    assert err is not None and err.info is not None and "stale" not in err.info.info
    assert locker.force_unlock(old.id) is None
    assert be.client.list_keys(KEY + ".tflock") == []


def test_heartbeat_renews_with_if_match_and_notices_takeover(aws: S3Env | None,
                                                             tmp_path: Path) -> None:
    be = backend(aws, tmp_path, lockfile=True, table=True)
    locker = be.locker("default")
    assert isinstance(locker, S3Locker)
    now = [10**18]
    locker.now_ns = lambda: now[0]
    lock_id, err = locker.lock(new_lock_info("OperationTypeApply"))
    assert err is None
    now[0] += 5 * 10**9
    assert locker.renew() == ""
    doc = json.loads(raw(be, KEY + ".tflock"))
    assert doc["Lease"]["Heartbeat"].startswith("2001-09-09T01:46:45")
    assert be.table is not None
    assert "01:46:45" in json.loads(str(be.table.model.get(f"{BUCKET}/{KEY}").Info))["Lease"][
        "Heartbeat"]
    # someone force-unlocks and takes the lock: the next renewal notices, unlock reports it
    other = be.locker("default")
    assert other is not None and other.force_unlock(lock_id) is None
    theirs, err = other.lock(new_lock_info("OperationTypePlan"))
    assert err is None
    assert "removed or taken over" in locker.renew()
    assert json.loads(raw(be, KEY + ".tflock"))["ID"] == theirs  # their lock untouched
    err2 = locker.unlock(lock_id)
    assert err2 is not None and theirs in str(err2)


def test_garbage_lock_object_is_a_clear_error(aws: S3Env | None, tmp_path: Path) -> None:
    be = backend(aws, tmp_path)
    be.client.s3.put_object(Bucket=BUCKET, Key=KEY + ".tflock", Body=b"\x00garbage")
    locker = be.locker("default")
    assert locker is not None
    _, err = locker.lock(new_lock_info())
    assert err is not None and "does not hold lock information" in err.message
    assert f"s3://{BUCKET}/{KEY}.tflock" in err.message


def test_lock_timeout_retries_with_backoff_and_jitter(aws: S3Env | None, tmp_path: Path) -> None:
    be = backend(aws, tmp_path)
    holder = be.locker("default")
    assert holder is not None
    held, _ = holder.lock(new_lock_info("OperationTypeApply"))
    waiter = be.locker("default")
    assert waiter is not None
    sleeps: list[float] = []
    clock = [0.0]

    def sleep(s: float) -> None:
        sleeps.append(s)
        clock[0] += s
        if len(sleeps) == 4:
            holder.unlock(held)

    lock_id, diags = acquire(waiter, new_lock_info("OperationTypeApply"), 300, sleep=sleep,
                             clock=lambda: clock[0])
    assert lock_id and not diags.has_errors and len(sleeps) == 4
    # backoff doubles from 1 s, each delay jittered within its step
    for i, s in enumerate(sleeps):
        assert 2**i / 2 <= s <= 2**i
    assert waiter.unlock(lock_id) is None
    # and gives up at the deadline naming the holder
    held, _ = holder.lock(new_lock_info("OperationTypeApply"))
    clock[0] = 0.0
    lock_id, diags = acquire(waiter, new_lock_info(), 5, sleep=lambda s: clock.__setitem__(
        0, clock[0] + s), clock=lambda: clock[0])
    assert not lock_id and diags.errors[0].summary == "Error acquiring the state lock"
    assert held in diags.errors[0].detail and "OperationTypeApply" in diags.errors[0].detail


def test_lock_info_round_trips_terraforms_json() -> None:
    text = ('{"ID":"3b1d","Operation":"OperationTypeApply","Info":"","Who":"me@host",'
            '"Version":"1.11.4","Created":"2025-05-21T11:46:36.2262448Z","Path":"b/k"}')
    info = LockInfo.from_json(text)
    assert info is not None and info.to_json() == text
