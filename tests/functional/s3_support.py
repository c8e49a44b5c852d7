"""What the S3 backend tests share: a serialised moto server, a bucket and a lock table, the
backend block terraform needs to reach moto, and running either tool as a subprocess."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3
import pytest

from tests.functional.moto_serial import MotoServer
from tests.product_name import as_groundplan

ROOT = Path(__file__).resolve().parents[2]
BUCKET = "tfstate"
TABLE = "tf-locks"
REGION = "us-east-1"
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
               "AWS_DEFAULT_REGION": REGION}


@dataclass
class S3Env:
    """A reset moto server with the bucket (versioned) and the lock table."""

    url: str

    def client(self, service: str) -> Any:
        return boto3.client(service, endpoint_url=self.url, region_name=REGION,
                            aws_access_key_id="testing", aws_secret_access_key="testing")

    def object_keys(self) -> list[str]:
        out = self.client("s3").list_objects_v2(Bucket=BUCKET)
        return sorted(o["Key"] for o in out.get("Contents", []))

    def body(self, key: str) -> bytes:
        return bytes(self.client("s3").get_object(Bucket=BUCKET, Key=key)["Body"].read())

    def lock_items(self) -> dict[str, dict[str, str]]:
        out = self.client("dynamodb").scan(TableName=TABLE)
        return {i["LockID"]["S"]: {k: v["S"] for k, v in i.items()} for i in out["Items"]}


def prepare(url: str) -> S3Env:
    env = S3Env(url)
    s3 = env.client("s3")
    s3.create_bucket(Bucket=BUCKET)
    s3.put_bucket_versioning(Bucket=BUCKET, VersioningConfiguration={"Status": "Enabled"})
    env.client("dynamodb").create_table(
        TableName=TABLE, KeySchema=[{"AttributeName": "LockID", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "LockID", "AttributeType": "S"}],
        BillingMode="PAY_PER_REQUEST")
    return env


@pytest.fixture(scope="module")
def moto_s3() -> Iterator[MotoServer]:
    server = MotoServer()
    server.__enter__()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def s3env(moto_s3: MotoServer, monkeypatch: pytest.MonkeyPatch) -> S3Env:
    """A fresh bucket and table on the module's moto server; AWS credentials in the env."""
    moto_s3.reset()
    for k, v in CREDENTIALS.items():
        monkeypatch.setenv(k, v)
    return prepare(moto_s3.url)


def backend_block(url: str, key: str = "app/terraform.tfstate", *, lockfile: bool = True,
                  table: bool = False, extra: str = "") -> str:
    """A `backend "s3"` block both tools accept against moto."""
    lines = [
        f'bucket = "{BUCKET}"', f'key = "{key}"', f'region = "{REGION}"',
        "skip_credentials_validation = true", "skip_requesting_account_id = true",
        "skip_metadata_api_check = true", "use_path_style = true",
        f'endpoints = {{ s3 = "{url}", dynamodb = "{url}", sts = "{url}" }}',
    ]
    if lockfile:
        lines.append("use_lockfile = true")
    if table:
        lines.append(f'dynamodb_table = "{TABLE}"')
    if extra:
        lines.append(extra)
    body = "\n".join("    " + line for line in lines)
    return f'terraform {{\n  backend "s3" {{\n{body}\n  }}\n}}\n'


def tool_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "AWS_"))}
    env.update(CREDENTIALS)
    env.update(TF_CLI_CONFIG_FILE=os.devnull, TF_IN_AUTOMATION="1", CHECKPOINT_DISABLE="1",
               PYTHONPATH=str(ROOT))
    env.update(extra or {})
    return env


def groundplan_cmd() -> list[str]:
    return [sys.executable, "-m", "engine.cli.main"]


def terraform_cmd() -> list[str]:
    path = shutil.which("terraform")
    if path is None:
        pytest.fail("CONFORMANCE TESTS NEED TERRAFORM: the `terraform` binary (v1.11) is not on "
                    "PATH, so groundplan cannot be compared with its oracle.", pytrace=False)
    return [path]


def run(tool: str, cwd: Path, *args: str, stdin: str = "", timeout: float = 300,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    cmd = terraform_cmd() if tool == "terraform" else groundplan_cmd()
    proc = subprocess.run([*cmd, *args], cwd=cwd, env=tool_env(env), input=stdin,
                          capture_output=True, text=True, timeout=timeout, check=False)
    if tool == "terraform":  # terraform's words as groundplan prints them (tests.product_name)
        proc.stdout, proc.stderr = as_groundplan(proc.stdout), as_groundplan(proc.stderr)
    return proc


def gp(cwd: Path, *args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    return run("groundplan", cwd, *args, **kw)


def ok(proc: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc
