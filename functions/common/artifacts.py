"""Where the control plane keeps objects in S3, and small helpers to read and write them.

    configuration bucket:  configuration-versions/<workspace>/<cv-id>.tar.gz
    artifact bucket:       runs/<run-id>/plan.tfplan     the saved plan (encrypted)
                           runs/<run-id>/plan.json      terraform's JSON plan, redacted
                           runs/<run-id>/plan.txt       the rendered plan, redacted
                           runs/<run-id>/variables.bin  run variables (encrypted)
                           runs/<run-id>/log.txt        the run's log, redacted
                           runs/<run-id>/nodes/<n>.json per-node work items and results
    state bucket:          the workspace's state key (terraform's S3 layout)
"""

from __future__ import annotations

import hashlib
from typing import Any

from functions.common.aws import client
from functions.common.settings import settings


def config_key(workspace: str, cv_id: str) -> str:
    return f"configuration-versions/{workspace}/{cv_id}.tar.gz"


def run_key(run_id: str, name: str) -> str:
    return f"runs/{run_id}/{name}"


def node_key(run_id: str, index: int, kind: str) -> str:
    return f"runs/{run_id}/nodes/{index:06d}.{kind}.json"


def put(bucket: str, key: str, data: bytes, content_type: str = "application/octet-stream",
        **extra: Any) -> str:
    """Store `data`; its ETag."""
    out = client("s3").put_object(Bucket=bucket, Key=key, Body=data, ContentType=content_type,
                                  **extra)
    return str(out.get("ETag", ""))


def get(bucket: str, key: str) -> bytes:
    """The bytes of `bucket/key` (botocore's NoSuchKey propagates)."""
    return bytes(client("s3").get_object(Bucket=bucket, Key=key)["Body"].read())


def exists(bucket: str, key: str) -> bool:
    from botocore.exceptions import ClientError

    try:
        client("s3").head_object(Bucket=bucket, Key=key)
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
            return False
        raise
    return True


def put_artifact(run_id: str, name: str, data: bytes, content_type: str) -> None:
    put(settings().artifact_bucket, run_key(run_id, name), data, content_type)


def get_artifact(run_id: str, name: str) -> bytes:
    return get(settings().artifact_bucket, run_key(run_id, name))


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def presigned_upload(bucket: str, key: str, expires: int = 3600) -> str:
    """A presigned PUT URL for `bucket/key`."""
    url: str = client("s3").generate_presigned_url(
        "put_object", Params={"Bucket": bucket, "Key": key}, ExpiresIn=expires,
        HttpMethod="PUT")
    return url
