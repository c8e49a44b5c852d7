"""A workspace's state object in the state bucket, read with its ETag and written only over
the version that was read (`If-Match`), or as a new object (`If-None-Match: *`).

The layout is terraform's S3 backend layout (the workspace's `state_key`), so the terraform
or groundplan CLI with a matching `backend "s3"` block reads the same state. A write that lost
a race is a `StaleState` error: the state changed since the plan read it."""

from __future__ import annotations

from dataclasses import dataclass

from botocore.exceptions import ClientError

from functions.common.aws import client
from functions.common.errors import Conflict
from functions.common.models import Run, Workspace
from functions.common.settings import settings


class StaleState(Conflict):
    code = "stale_state"


@dataclass(frozen=True)
class Location:
    """One state object: the workspace it belongs to and its key (a workspace version's)."""

    name: str
    state_key: str


def of_workspace(ws: Workspace) -> Location:
    """The workspace's live state."""
    return Location(ws.name, ws.state_key)


def of_run(run: Run, ws: Workspace) -> Location:
    """The state a run works on: the workspace version it was started for."""
    return Location(ws.name, run.state_key or ws.state_key)


def read(ws: Location) -> tuple[bytes | None, str | None]:
    """The state bytes and ETag (None, None when the workspace has no state yet)."""
    data, etag, _ = read_versioned(ws)
    return data, etag


def read_versioned(ws: Location) -> tuple[bytes | None, str | None, str | None]:
    """The state bytes, ETag and S3 version id (all None when there is no state yet)."""
    try:
        out = client("s3").get_object(Bucket=settings().state_bucket, Key=ws.state_key)
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") in ("NoSuchKey", "404"):
            return None, None, None
        raise
    return bytes(out["Body"].read()), str(out["ETag"]), out.get("VersionId")


def write(ws: Location, data: bytes, etag: str | None, *, run_id: str = "",
          actor: str = "") -> str:
    """Store `data` as the workspace's state over the version `etag` (None: there must be no
    state yet); the new ETag. `run_id` and `actor` are kept as the version's metadata (who
    and which run wrote it). Raises StaleState when the object changed meanwhile."""
    return write_versioned(ws, data, etag, run_id=run_id, actor=actor)[0]


def write_versioned(ws: Location, data: bytes, etag: str | None, *, run_id: str = "",
                    actor: str = "") -> tuple[str, str | None]:
    """`write`, answering the new ETag and the new S3 version id."""
    args: dict[str, object] = {"Bucket": settings().state_bucket, "Key": ws.state_key,
                               "Body": data, "ContentType": "application/json",
                               "Metadata": {"groundplan-run": run_id, "groundplan-actor": actor}}
    if etag:
        args["IfMatch"] = etag
    else:
        args["IfNoneMatch"] = "*"
    if settings().kms_key_id:
        args["ServerSideEncryption"] = "aws:kms"
        args["SSEKMSKeyId"] = settings().kms_key_id
    try:
        out = client("s3").put_object(**args)
    except ClientError as exc:
        code = exc.response.get("Error", {}).get("Code")
        if code in ("PreconditionFailed", "412", "NoSuchKey", "ConditionalRequestConflict"):
            raise StaleState(f"the state of workspace {ws.name} changed since this run read it",
                             code="stale_state") from None
        raise
    return str(out["ETag"]), out.get("VersionId")


def versions(ws: Location) -> list[dict[str, object]]:
    """Every version of the workspace's state object, newest first: version id, time, size,
    and who/which run wrote it."""
    s3 = client("s3")
    out: list[dict[str, object]] = []
    pages = s3.get_paginator("list_object_versions").paginate(Bucket=settings().state_bucket,
                                                               Prefix=ws.state_key)
    for page in pages:
        for v in page.get("Versions", []):
            if v["Key"] != ws.state_key:
                continue
            head = s3.head_object(Bucket=settings().state_bucket, Key=ws.state_key,
                                  VersionId=v["VersionId"])
            meta = head.get("Metadata") or {}
            out.append({"id": v["VersionId"], "is_latest": bool(v.get("IsLatest")),
                        "last_modified": v["LastModified"].isoformat(), "size": v["Size"],
                        "run": meta.get("groundplan-run") or None,
                        "actor": meta.get("groundplan-actor") or None})
    return out


def read_version(ws: Location, version_id: str) -> bytes:
    """The bytes of one version of the workspace's state object."""
    try:
        out = client("s3").get_object(Bucket=settings().state_bucket, Key=ws.state_key,
                                      VersionId=version_id)
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") in ("NoSuchVersion", "NoSuchKey", "404",
                                                         "InvalidArgument"):
            from functions.common.errors import NotFound

            raise NotFound(f"workspace {ws.name} has no state version {version_id}",
                           code="state_version_not_found") from None
        raise
    return bytes(out["Body"].read())
