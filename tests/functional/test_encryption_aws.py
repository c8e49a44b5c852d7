"""AWS KMS through the CLI against moto_server, an unreachable KMS refused with the stored
bytes unchanged, and encrypted state in an S3 bucket at the storage level (moto): the S3
backend is not on main yet, so these tests put and get the objects with boto3 through the
same StateEncryption seam the backend will call, including the migration plaintext ->
encrypted -> plaintext and a search of every object for the secret."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import boto3
import pytest

from tests.functional.encryption_support import checksum, envelope, gp, ok, write_config
from tests.unit.encryption.support import build

pytestmark = pytest.mark.slow
CREDS = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
         "AWS_REGION": "us-east-1"}
SECRET = "kms-protected-value-7Hq2"


def _client(moto: str, service: str) -> Any:
    return boto3.client(service, endpoint_url=moto, region_name="us-east-1",
                        aws_access_key_id="testing", aws_secret_access_key="testing")


def kms_encryption(key_id: str, extra: str = "") -> str:
    return (f'    key_provider "aws_kms" "k" {{\n      kms_key_id = "{key_id}"\n'
            f'      key_spec = "AES_256"\n      encryption_context = {{ app = "groundplan" }}\n'
            f"{extra}    }}\n"
            '    method "aes_gcm" "m" {\n      keys = key_provider.aws_kms.k\n    }\n'
            "    state { method = method.aes_gcm.m }\n")


BODY = (f'resource "terraform_data" "d" {{\n  input = "{SECRET}"\n}}\n'
        'output "v" {\n  value = terraform_data.d.output\n}\n')


def test_kms_through_the_cli_and_unreachable_kms(tmp_path: Path, moto: str) -> None:
    key_id = _client(moto, "kms").create_key()["KeyMetadata"]["KeyId"]
    env = {**CREDS, "AWS_ENDPOINT_URL_KMS": moto}
    write_config(tmp_path, kms_encryption(key_id), BODY)
    ok(gp(tmp_path, "apply", "-auto-approve", "-input=false", env=env), "apply")
    state = tmp_path / "terraform.tfstate"
    doc = envelope(state)
    assert doc is not None and list(doc["meta"]) == ["key_provider.aws_kms.k"]
    assert SECRET.encode() not in state.read_bytes()
    out = json.loads(ok(gp(tmp_path, "output", "-json", env=env), "output").stdout)
    assert out["v"]["value"] == SECRET
    plan = ok(gp(tmp_path, "plan", "-input=false", "-detailed-exitcode", env=env), "plan")
    assert "No changes" in plan.stdout
    # KMS out of reach: refused, naming the target and the key provider; nothing written
    before = checksum(state)
    write_config(tmp_path, kms_encryption(key_id, "      max_retries = 1\n"), BODY)
    gone = {**CREDS, "AWS_ENDPOINT_URL_KMS": "http://127.0.0.1:9"}
    for cmd in (["plan", "-input=false"], ["apply", "-auto-approve", "-input=false"]):
        r = gp(tmp_path, *cmd, env=gone)
        assert r.code == 1, r.text
        assert "Failed to decrypt state" in r.text and "key_provider.aws_kms.k" in r.text
        assert "failed to decrypt the data key" in r.text
        assert checksum(state) == before


def _put(s3: Any, bucket: str, key: str, data: bytes) -> None:
    s3.put_object(Bucket=bucket, Key=key, Body=data)


def _get(s3: Any, bucket: str, key: str) -> bytes:
    return bytes(s3.get_object(Bucket=bucket, Key=key)["Body"].read())


def _state(serial: int, value: str) -> bytes:
    return json.dumps({"version": 4, "terraform_version": "1.11.0", "serial": serial,
                       "lineage": "b3a8d7e2-1111-4222-8333-444455556666",
                       "outputs": {"v": {"value": value, "type": "string"}},
                       "resources": [], "check_results": None}, indent=2).encode()


def test_s3_objects_storage_level_migration(tmp_path: Path, moto: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    for k, v in {**CREDS, "AWS_ENDPOINT_URL_KMS": moto}.items():
        monkeypatch.setenv(k, v)
    key_id = _client(moto, "kms").create_key()["KeyMetadata"]["KeyId"]
    s3 = _client(moto, "s3")
    s3.create_bucket(Bucket="states")
    s3.put_bucket_encryption(Bucket="states", ServerSideEncryptionConfiguration={
        "Rules": [{"ApplyServerSideEncryptionByDefault": {"SSEAlgorithm": "AES256"}}]})
    key = "env/prod/terraform.tfstate"
    _put(s3, "states", key, _state(1, SECRET))  # plaintext, as before encryption
    kms = (f'key_provider "aws_kms" "k" {{\n  kms_key_id = "{key_id}"\n  key_spec = "AES_256"\n'
           "}\n" 'method "aes_gcm" "m" {\n  keys = key_provider.aws_kms.k\n}\n'
           'method "unencrypted" "u" {}\n')
    to_enc, diags = build(tmp_path / "a", kms + "state {\n  method = method.aes_gcm.m\n"
                          "  fallback { method = method.unencrypted.u }\n}\n")
    assert not diags.has_errors, list(diags)
    plain = to_enc.state.decrypt(_get(s3, "states", key))
    assert not to_enc.state.last_read.encrypted
    _put(s3, "states", key, to_enc.state.encrypt(plain.replace(b'"serial": 1', b'"serial": 2')))
    stored = _get(s3, "states", key)
    assert json.loads(stored)["serial"] == 2 and SECRET.encode() not in stored
    for obj in s3.list_objects_v2(Bucket="states")["Contents"]:
        assert SECRET.encode() not in _get(s3, "states", obj["Key"])
    back, _ = build(tmp_path / "b", kms + "state {\n  method = method.unencrypted.u\n"
                    "  fallback { method = method.aes_gcm.m }\n}\n")
    plain = back.state.decrypt(stored)
    assert back.state.last_read.method == "method.aes_gcm.m"
    _put(s3, "states", key, back.state.encrypt(plain))
    final = _get(s3, "states", key)
    assert json.loads(final)["outputs"]["v"]["value"] == SECRET
    assert json.loads(final)["serial"] == 2
