"""The dumb S3 client under the S3 backend: get, conditional put, delete and list of objects.

Everything that talks to S3 through boto3 is here, and nothing else is: the state manager and
the locks above it see `Payload`s and `S3Error`s only. Errors carry terraform's wording
("S3 bucket %q does not exist.", "Unable to access object %q in S3 bucket %q: ...") and
always name the bucket and the key.

Writes are conditional when asked: `put(key, data, if_match=ETAG)` replaces the object only
if it still has that ETag, `put(key, data, if_none_match=True)` creates it only if it does not
exist; a refused condition is `PreconditionFailed` (HTTP 412). `faults` lets tests make the
next calls of an operation fail the way S3 would (a 412, access denied, a network error)
without reaching into boto3.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import boto3
import botocore.config
import botocore.exceptions

from engine.backend.s3.settings import S3Settings

NO_SUCH_BUCKET = """S3 bucket {bucket!s} does not exist.

The referenced S3 bucket must have been previously created. If the S3 bucket
was created within the last minute, please wait for a minute or two and try
again.

Error: {err}
"""


class S3Error(Exception):
    """An S3 request failed; `str()` is the message to show (names bucket and key)."""

    def __init__(self, message: str, code: str = "") -> None:
        super().__init__(message)
        self.code = code


class PreconditionFailed(S3Error):
    """A conditional write or delete was refused (412): the object is not as expected."""


@dataclass(frozen=True)
class Payload:
    """An object's bytes, its ETag (quotes kept) and the MD5 of the bytes."""

    data: bytes
    etag: str
    md5: bytes


def go_quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _code(exc: botocore.exceptions.ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


def _status(exc: botocore.exceptions.ClientError) -> int:
    return int(exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0) or 0)


def _api_text(exc: Exception) -> str:
    """The error as aws-sdk-go-v2 words an API error: "api error Code: Message"."""
    if isinstance(exc, botocore.exceptions.ClientError):
        err = exc.response.get("Error", {})
        op = getattr(exc, "operation_name", "")
        return (f"operation error S3: {op}, https response error StatusCode: {_status(exc)}, "
                f"api error {err.get('Code', '')}: {err.get('Message', '')}")
    return str(exc)


def make_session(settings: S3Settings) -> boto3.session.Session:
    """A boto3 session with the backend's credentials, profile and shared files; the usual
    AWS chain (environment, shared files, container and instance roles) otherwise."""
    session = boto3.session.Session(
        aws_access_key_id=settings.access_key or None,
        aws_secret_access_key=settings.secret_key or None,
        aws_session_token=settings.token or None,
        region_name=settings.region or None,
        profile_name=settings.profile or None,
    )
    core = session._session
    if settings.shared_credentials_files:
        core.set_config_variable("credentials_file", settings.shared_credentials_files[0])
    if settings.shared_config_files:
        core.set_config_variable("config_file", settings.shared_config_files[0])
    if settings.skip_metadata_api_check:
        resolver = core.get_component("credential_provider")
        resolver.remove("iam-role")
    if settings.assume_role and settings.assume_role.get("role_arn"):
        session = _assumed(session, settings)
    return session


def _assumed(base: boto3.session.Session, settings: S3Settings) -> boto3.session.Session:
    role = settings.assume_role or {}
    sts = base.client("sts", endpoint_url=settings.endpoints.get("sts"),
                      config=client_config(settings))
    args: dict[str, Any] = {"RoleArn": str(role["role_arn"]),
                            "RoleSessionName": str(role.get("session_name") or "groundplan")}
    if role.get("external_id"):
        args["ExternalId"] = str(role["external_id"])
    if role.get("policy"):
        args["Policy"] = str(role["policy"])
    creds = sts.assume_role(**args)["Credentials"]
    return boto3.session.Session(
        aws_access_key_id=creds["AccessKeyId"], aws_secret_access_key=creds["SecretAccessKey"],
        aws_session_token=creds["SessionToken"], region_name=settings.region or None)


def client_config(settings: S3Settings) -> botocore.config.Config:
    return botocore.config.Config(
        retries={"max_attempts": settings.max_retries + 1,
                 "mode": settings.retry_mode if settings.retry_mode in ("standard", "adaptive",
                                                                       "legacy") else "standard"},
        s3={"addressing_style": "path" if settings.use_path_style else "auto"},
        connect_timeout=10, read_timeout=60,
    )


@dataclass
class S3Client:
    """Object operations on the backend's bucket (see the module docstring)."""

    settings: S3Settings
    session: boto3.session.Session
    faults: dict[str, list[Exception]] = field(default_factory=dict)
    _s3: Any = None

    @property
    def bucket(self) -> str:
        return self.settings.bucket

    @property
    def s3(self) -> Any:
        if self._s3 is None:
            verify: bool | str = not self.settings.insecure
            if self.settings.custom_ca_bundle:
                verify = self.settings.custom_ca_bundle
            self._s3 = self.session.client(
                "s3", endpoint_url=self.settings.endpoints.get("s3"),
                config=client_config(self.settings), verify=verify)
        return self._s3

    def _fault(self, op: str) -> None:
        queue = self.faults.get(op)
        if queue:
            raise queue.pop(0)

    def _call(self, op: str, fn: Callable[..., Any], **kwargs: Any) -> Any:
        self._fault(op)
        return fn(**kwargs)

    def _sse(self, args: dict[str, Any], reading: bool = False) -> None:
        st = self.settings
        if not st.encrypt:
            return
        if st.sse_customer_key:
            import base64

            key = base64.b64decode(st.sse_customer_key)
            args["SSECustomerAlgorithm"] = "AES256"
            args["SSECustomerKey"] = key
        elif reading:
            return
        elif st.kms_key_id:
            args["ServerSideEncryption"] = "aws:kms"
            args["SSEKMSKeyId"] = st.kms_key_id
        else:
            args["ServerSideEncryption"] = "AES256"

    def get(self, key: str) -> Payload | None:
        """The object at `key`; None when it does not exist or is empty."""
        args: dict[str, Any] = {"Bucket": self.bucket, "Key": key}
        self._sse(args, reading=True)
        try:
            out = self._call("get", self.s3.get_object, **args)
            data = out["Body"].read()
        except botocore.exceptions.ClientError as exc:
            code = _code(exc)
            if code == "NoSuchBucket":
                raise S3Error(NO_SUCH_BUCKET.format(bucket=go_quote(self.bucket),
                                                    err=_api_text(exc)), code) from None
            if code in ("NoSuchKey", "404", "NotFound"):
                return None
            raise S3Error(f"Unable to access object {go_quote(key)} in S3 bucket "
                          f"{go_quote(self.bucket)}: {_api_text(exc)}", code) from None
        except (botocore.exceptions.BotoCoreError, OSError) as exc:
            raise S3Error(f"Unable to access object {go_quote(key)} in S3 bucket "
                          f"{go_quote(self.bucket)}: {exc}") from None
        if not data:
            return None
        return Payload(data, str(out.get("ETag", "")), hashlib.md5(data).digest())

    def put(self, key: str, data: bytes, *, if_match: str = "", if_none_match: bool = False,
            what: str = "state") -> str:
        """Write `data` at `key` (conditionally when asked); the new object's ETag."""
        args: dict[str, Any] = {"Bucket": self.bucket, "Key": key, "Body": data,
                                "ContentType": "application/json"}
        if not self.settings.skip_s3_checksum:
            args["ChecksumAlgorithm"] = "SHA256"
        if if_match:
            args["IfMatch"] = if_match
        elif if_none_match:
            args["IfNoneMatch"] = "*"
        if self.settings.acl:
            args["ACL"] = self.settings.acl
        self._sse(args)
        try:
            out = self._call("put", self.s3.put_object, **args)
        except botocore.exceptions.ClientError as exc:
            code = _code(exc)
            where = f"s3://{self.bucket}/{key}"
            if code == "PreconditionFailed" or _status(exc) == 412:
                raise PreconditionFailed(f"failed to upload {what} to {where}: {_api_text(exc)}",
                                         "PreconditionFailed") from None
            if code == "ConditionalRequestConflict" or _status(exc) == 409:
                raise PreconditionFailed(f"failed to upload {what} to {where}: {_api_text(exc)}",
                                         code) from None
            if code == "NoSuchKey" and if_match:
                raise PreconditionFailed(f"failed to upload {what} to {where}: the object was "
                                         "deleted since it was read", code) from None
            if code == "NoSuchBucket":
                raise S3Error(NO_SUCH_BUCKET.format(bucket=go_quote(self.bucket),
                                                    err=_api_text(exc)), code) from None
            raise S3Error(f"failed to upload {what} to {where}: {_api_text(exc)}", code) from None
        except (botocore.exceptions.BotoCoreError, OSError) as exc:
            raise S3Error(f"failed to upload {what} to s3://{self.bucket}/{key}: {exc}") from None
        return str(out.get("ETag", ""))

    def delete(self, key: str, *, if_match: str = "") -> None:
        """Remove the object at `key` (only if it still has ETag `if_match`, when given)."""
        args: dict[str, Any] = {"Bucket": self.bucket, "Key": key}
        if if_match:
            args["IfMatch"] = if_match
        try:
            self._call("delete", self.s3.delete_object, **args)
        except botocore.exceptions.ClientError as exc:
            code = _code(exc)
            if code == "PreconditionFailed" or _status(exc) == 412:
                raise PreconditionFailed(f"failed to delete s3://{self.bucket}/{key}: "
                                         f"{_api_text(exc)}", code) from None
            if code in ("NoSuchKey", "404"):
                return
            raise S3Error(f"failed to delete s3://{self.bucket}/{key}: {_api_text(exc)}",
                          code) from None
        except (botocore.exceptions.BotoCoreError, OSError) as exc:
            raise S3Error(f"failed to delete s3://{self.bucket}/{key}: {exc}") from None

    def list_keys(self, prefix: str) -> list[str]:
        """Every key under `prefix` (terraform's ListObjectsV2 pages of 1,000)."""
        keys: list[str] = []
        try:
            self._fault("list")
            pages = self.s3.get_paginator("list_objects_v2").paginate(
                Bucket=self.bucket, Prefix=prefix, PaginationConfig={"PageSize": 1000})
            for page in pages:
                keys.extend(str(o["Key"]) for o in page.get("Contents", []))
        except botocore.exceptions.ClientError as exc:
            code = _code(exc)
            if code == "NoSuchBucket":
                raise S3Error(NO_SUCH_BUCKET.format(bucket=go_quote(self.bucket),
                                                    err=_api_text(exc)), code) from None
            raise S3Error(f"Unable to list objects in S3 bucket {go_quote(self.bucket)} with "
                          f"prefix {go_quote(prefix)}: {_api_text(exc)}", code) from None
        except (botocore.exceptions.BotoCoreError, OSError) as exc:
            raise S3Error(f"Unable to list objects in S3 bucket {go_quote(self.bucket)} with "
                          f"prefix {go_quote(prefix)}: {exc}") from None
        return keys

    def check_credentials(self) -> str:
        """"" when credentials were found (and, unless skipped, accepted by STS); else why."""
        creds = self.session.get_credentials()
        if creds is None:
            return ("No valid credential sources found\n\nPlease see "
                    "https://www.terraform.io/docs/language/settings/backends/s3.html\n"
                    "for more information about providing credentials.")
        if self.settings.skip_credentials_validation:
            return ""
        try:
            sts = self.session.client("sts", endpoint_url=self.settings.endpoints.get("sts"),
                                      config=client_config(self.settings))
            sts.get_caller_identity()
        except (botocore.exceptions.ClientError, botocore.exceptions.BotoCoreError) as exc:
            return f"validating provider credentials: retrieving caller identity from STS: {exc}"
        return ""

