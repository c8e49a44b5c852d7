"""`key_provider "aws_kms"`: data keys from AWS KMS, as OpenTofu's keyprovider/aws_kms.

Writing calls GenerateDataKey (`kms_key_id`, `key_spec`, `encryption_context`) once per
process and stores the encrypted data key beside the data: `meta["key_provider.aws_kms.N"]`
is base64 of `{"ciphertext_blob":"<base64>","encryption_context":{...}}` (the context left
out when empty). Reading calls Decrypt with the stored blob and context (once per blob).

The client is built as the AWS SDK builds one: `region` or AWS_REGION/AWS_DEFAULT_REGION,
static keys, `profile`, the SDK's credential chain otherwise; `assume_role` through STS;
the KMS endpoint from AWS_ENDPOINT_URL_KMS / AWS_ENDPOINT_URL, as OpenTofu (its `endpoints`
block names only `iam` and `sts`).
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import threading
from dataclasses import dataclass, field
from typing import Any

from engine.encryption.keyproviders import KeyProviderError, go_json, put_meta

KEY_SPECS = {"AES_256": 32, "AES_128": 16}


@dataclass
class AssumeRole:
    """The `assume_role` settings of the aws_kms key provider (STS AssumeRole parameters)."""

    role_arn: str
    session_name: str = ""
    external_id: str = ""
    duration_seconds: int = 0
    policy: str = ""
    policy_arns: list[str] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    transitive_tag_keys: list[str] = field(default_factory=list)


@dataclass
class KmsSettings:
    """The decoded `aws_kms` arguments this implementation acts on."""

    kms_key_id: str
    key_spec: str
    region: str = ""
    access_key: str = ""
    secret_key: str = ""
    token: str = ""
    profile: str = ""
    max_retries: int = 5
    retry_mode: str = ""
    encryption_context: dict[str, str] = field(default_factory=dict)
    sts_endpoint: str = ""
    sts_region: str = ""
    assume_role: AssumeRole | None = None
    insecure: bool = False
    custom_ca_bundle: str = ""
    http_proxy: str = ""
    https_proxy: str = ""
    use_fips_endpoint: bool = False
    use_dualstack_endpoint: bool = False


def _error_text(exc: Exception) -> str:
    """A botocore error as a short sentence ("DisabledException: ... is disabled.")."""
    resp = getattr(exc, "response", None)
    if isinstance(resp, dict):
        err = resp.get("Error") or {}
        code, msg = err.get("Code", ""), err.get("Message", "")
        if code or msg:
            return f"{code}: {msg}" if code and msg else str(code or msg)
    return str(exc)


@dataclass
class AwsKmsKeyProvider:
    """A configured aws_kms key provider."""

    addr: str
    meta_key: str
    settings: KmsSettings
    _client: Any = field(default=None, repr=False)
    _enc: tuple[bytes, bytes] | None = field(default=None, repr=False)
    _dec: dict[bytes, bytes] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def client(self) -> Any:
        """The KMS client, built on first use."""
        if self._client is not None:
            return self._client
        import boto3
        from botocore.config import Config

        s = self.settings
        retry: dict[str, Any] = {"max_attempts": s.max_retries}
        if s.retry_mode:
            retry["mode"] = s.retry_mode
        proxies = {k: v for k, v in (("http", s.http_proxy), ("https", s.https_proxy)) if v}
        cfg = Config(retries=retry, proxies=proxies or None,
                     use_fips_endpoint=s.use_fips_endpoint,
                     use_dualstack_endpoint=s.use_dualstack_endpoint)
        session = boto3.session.Session(
            aws_access_key_id=s.access_key or None, aws_secret_access_key=s.secret_key or None,
            aws_session_token=s.token or None,
            region_name=s.region or os.environ.get("AWS_REGION") or None,
            profile_name=s.profile or None)
        verify: bool | str | None = False if s.insecure else (s.custom_ca_bundle or None)
        if s.assume_role is not None:
            ar = s.assume_role
            sts = session.client("sts", region_name=s.sts_region or None,
                                 endpoint_url=s.sts_endpoint or None, verify=verify, config=cfg)
            args: dict[str, Any] = {"RoleArn": ar.role_arn,
                                    "RoleSessionName": ar.session_name or "groundplan"}
            if ar.external_id:
                args["ExternalId"] = ar.external_id
            if ar.duration_seconds:
                args["DurationSeconds"] = ar.duration_seconds
            if ar.policy:
                args["Policy"] = ar.policy
            if ar.policy_arns:
                args["PolicyArns"] = [{"arn": a} for a in ar.policy_arns]
            if ar.tags:
                args["Tags"] = [{"Key": k, "Value": v} for k, v in sorted(ar.tags.items())]
            if ar.transitive_tag_keys:
                args["TransitiveTagKeys"] = list(ar.transitive_tag_keys)
            try:
                creds = sts.assume_role(**args)["Credentials"]
            except Exception as exc:  # botocore's error kinds
                raise KeyProviderError(f"failed to assume role {ar.role_arn}: "
                                       f"{_error_text(exc)}") from None
            session = boto3.session.Session(
                aws_access_key_id=creds["AccessKeyId"],
                aws_secret_access_key=creds["SecretAccessKey"],
                aws_session_token=creds["SessionToken"], region_name=session.region_name)
        self._client = session.client("kms", verify=verify, config=cfg)
        return self._client

    def encryption_key(self, out_meta: dict[str, bytes]) -> bytes:
        with self._lock:
            if self._enc is None:
                s = self.settings
                args: dict[str, Any] = {"KeyId": s.kms_key_id, "KeySpec": s.key_spec}
                if s.encryption_context:
                    args["EncryptionContext"] = dict(s.encryption_context)
                try:
                    got = self.client().generate_data_key(**args)
                except KeyProviderError:
                    raise
                except Exception as exc:  # botocore's error kinds
                    raise KeyProviderError(f"failed to generate key: {_error_text(exc)}") from None
                meta: dict[str, Any] = {
                    "ciphertext_blob": base64.b64encode(got["CiphertextBlob"]).decode()}
                if s.encryption_context:
                    meta["encryption_context"] = dict(sorted(s.encryption_context.items()))
                self._enc = (bytes(got["Plaintext"]), go_json(meta))
            key, meta_bytes = self._enc
        put_meta(out_meta, self.meta_key, meta_bytes)
        return key

    def decryption_key(self, in_meta: dict[str, bytes]) -> bytes | None:
        raw = in_meta.get(self.meta_key)
        if raw is None:
            return None
        try:
            doc = json.loads(raw)
            blob = base64.b64decode(doc.get("ciphertext_blob") or "", validate=True)
            context = dict(doc.get("encryption_context") or {})
        except (ValueError, TypeError, AttributeError, binascii.Error) as exc:
            raise KeyProviderError(
                f"Unable to decode encrypted metadata (did you change your encryption config?): "
                f"metadata decoder for {self.meta_key} failed with error: {exc}") from None
        if not blob:
            return None
        with self._lock:
            found = self._dec.get(blob)
        if found is not None:
            return found
        args: dict[str, Any] = {"KeyId": self.settings.kms_key_id, "CiphertextBlob": blob}
        if context:
            args["EncryptionContext"] = context
        try:
            got = self.client().decrypt(**args)
        except KeyProviderError:
            raise
        except Exception as exc:  # botocore's error kinds
            raise KeyProviderError(f"failed to decrypt the data key: {_error_text(exc)}") from None
        key = bytes(got["Plaintext"])
        with self._lock:
            self._dec[blob] = key
        return key
