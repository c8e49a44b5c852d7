"""The S3 backend's settings: terraform 1.11's PrepareConfig checks and the values in effect.

`prepare(cfg)` makes the checks terraform's S3 backend makes before it configures anything
(required `bucket` and `key`, no empty bucket, a key that neither starts nor ends with "/" nor
contains "//", a region from the configuration or `AWS_REGION`/`AWS_DEFAULT_REGION`,
conflicting and deprecated arguments), with terraform's summaries and details, pointing at the
argument's line. `S3Settings.from_config` then resolves defaults and the deprecated spellings
(`endpoint` for `endpoints.s3`, `force_path_style`, ...). Nothing here talks to AWS.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.backend.config import BackendConfig
from engine.diags import Diagnostic, Diagnostics, error, warning

DEFAULT_WORKSPACE_KEY_PREFIX = "env:"
LOCK_FILE_SUFFIX = ".tflock"

_LEGACY_ENDPOINTS = {"dynamodb_endpoint": "dynamodb", "iam_endpoint": "iam", "endpoint": "s3",
                     "sts_endpoint": "sts"}
_CONFLICTS = [("kms_key_id", "sse_customer_key"),
              ("shared_credentials_file", "shared_credentials_files"),
              ("force_path_style", "use_path_style"),
              ("allowed_account_ids", "forbidden_account_ids")]
_RETRY_MODES = ("standard", "adaptive", "legacy")


def _attr_diag(cfg: BackendConfig, name: str, summary: str, detail: str,
               severity_error: bool = True) -> Diagnostic:
    rng = cfg.ranges.get(name.split(".")[0], cfg.decl_range)
    return (error if severity_error else warning)(summary, detail, rng)


def _required(cfg: BackendConfig, path: str) -> Diagnostic:
    return _attr_diag(
        cfg, path, "Missing Required Value",
        f'The attribute "{path}" is required by the backend.\n\n'
        "Refer to the backend documentation for additional information which attributes are "
        "required.",
    )


def _deprecated(cfg: BackendConfig, name: str, replacement: str) -> Diagnostic:
    return _attr_diag(cfg, name, "Deprecated Parameter",
                      f'The parameter "{name}" is deprecated. Use parameter "{replacement}" '
                      "instead.", severity_error=False)


def _s3_path_ok(value: str) -> bool:
    return not (value.startswith("/") or value.endswith("/"))


def prepare(cfg: BackendConfig, environ: Mapping[str, str]) -> Diagnostics:
    """terraform's `PrepareConfig` for the S3 backend (see the module docstring)."""
    diags = Diagnostics()
    bucket = cfg.get("bucket")
    if bucket is None:
        diags.append(_required(cfg, "bucket"))
    elif not str(bucket).strip():
        diags.append(_attr_diag(cfg, "bucket", "Invalid Value",
                                "The value cannot be empty or all whitespace"))
    key = cfg.get("key")
    if key is None:
        diags.append(_required(cfg, "key"))
    else:
        key = str(key)
        if not key.strip():
            diags.append(_attr_diag(cfg, "key", "Invalid Value",
                                    "The value cannot be empty or all whitespace"))
        if not _s3_path_ok(key):
            diags.append(_attr_diag(cfg, "key", "Invalid Value",
                                    'The value must not start or end with "/"'))
        if "//" in key:
            diags.append(_attr_diag(cfg, "key", "Invalid Value", 'Value must not contain "//"'))
    if not cfg.get("region") and not environ.get("AWS_REGION") and not environ.get(
            "AWS_DEFAULT_REGION"):
        diags.append(_attr_diag(
            cfg, "region", "Missing region value",
            'The "region" attribute or the "AWS_REGION" or "AWS_DEFAULT_REGION" environment '
            "variables must be set."))
    for a, b in _CONFLICTS:
        if cfg.get(a) is not None and cfg.get(b) is not None:
            diags.append(_attr_diag(cfg, b, "Invalid Attribute Combination",
                                    f'Only one of {a}, {b} can be set.'))
    prefix = cfg.get("workspace_key_prefix")
    if prefix is not None and not _s3_path_ok(str(prefix)):
        diags.append(_attr_diag(cfg, "workspace_key_prefix", "Invalid Value",
                                'The value must not start or end with "/"'))
    for nested in ("assume_role", "assume_role_with_web_identity"):
        val = cfg.get(nested)
        if isinstance(val, dict):
            for name in sorted(cfg.schema.nested_required.get(nested, ())):
                if val.get(name) is None:
                    diags.append(_required(cfg, f"{nested}.{name}"))
    if cfg.get("shared_credentials_file") is not None:
        diags.append(_deprecated(cfg, "shared_credentials_file", "shared_credentials_files"))
    if cfg.get("dynamodb_table") is not None:
        diags.append(_deprecated(cfg, "dynamodb_table", "use_lockfile"))
    endpoints = cfg.get("endpoints") if isinstance(cfg.get("endpoints"), dict) else {}
    for legacy, new in sorted(_LEGACY_ENDPOINTS.items()):
        if cfg.get(legacy) is None:
            continue
        diags.append(_deprecated(cfg, legacy, f"endpoints.{new}"))
        if isinstance(endpoints, dict) and endpoints.get(new) is not None:
            diags.append(error("Conflicting Parameters",
                               f'The parameters "{legacy}" and "endpoints.{new}" cannot be '
                               "configured together.", cfg.decl_range))
    if cfg.get("force_path_style") is not None:
        diags.append(_deprecated(cfg, "force_path_style", "use_path_style"))
    mode = cfg.get("retry_mode")
    if mode is not None and mode not in _RETRY_MODES:
        diags.append(_attr_diag(cfg, "retry_mode", "Invalid Value",
                                f"unknown RetryMode, {mode}"))
    return diags


@dataclass(frozen=True)
class S3Settings:
    """The S3 backend's settings in effect (defaults and deprecated spellings resolved)."""

    bucket: str
    key: str
    region: str
    workspace_key_prefix: str = DEFAULT_WORKSPACE_KEY_PREFIX
    encrypt: bool = False
    kms_key_id: str = ""
    sse_customer_key: str = ""
    acl: str = ""
    use_lockfile: bool = False
    dynamodb_table: str = ""
    endpoints: dict[str, str] = field(default_factory=dict)
    use_path_style: bool = False
    skip_credentials_validation: bool = False
    skip_requesting_account_id: bool = False
    skip_metadata_api_check: bool = False
    skip_s3_checksum: bool = False
    access_key: str = ""
    secret_key: str = ""
    token: str = ""
    profile: str = ""
    shared_credentials_files: tuple[str, ...] = ()
    shared_config_files: tuple[str, ...] = ()
    assume_role: dict[str, object] | None = None
    max_retries: int = 5
    retry_mode: str = ""
    insecure: bool = False
    custom_ca_bundle: str = ""

    @classmethod
    def from_config(cls, cfg: BackendConfig, environ: Mapping[str, str]) -> S3Settings:
        """Resolve `cfg` (already `prepare`d without errors)."""

        def s(name: str, default: str = "") -> str:
            v = cfg.get(name)
            return default if v is None else str(v)

        def b(name: str, *env: str) -> bool:
            v = cfg.get(name)
            if v is None:
                return any(environ.get(e, "").lower() == "true" for e in env)
            return bool(v)

        def files(*names: str) -> tuple[str, ...]:
            for name in names:
                v = cfg.get(name)
                if isinstance(v, list):
                    return tuple(os.path.expanduser(str(x)) for x in v)
                if isinstance(v, str):
                    return (os.path.expanduser(v),)
            return ()

        raw = cfg.get("endpoints")
        endpoints = {k: str(v) for k, v in raw.items() if v} if isinstance(raw, dict) else {}
        for legacy, new in _LEGACY_ENDPOINTS.items():
            if cfg.get(legacy) is not None:
                endpoints.setdefault(new, str(cfg.get(legacy)))
        for service in ("s3", "dynamodb", "sts", "iam"):
            env = environ.get(f"AWS_ENDPOINT_URL_{service.upper()}")
            if env:
                endpoints.setdefault(service, env)
        retries = cfg.get("max_retries")
        role = cfg.get("assume_role")
        return cls(
            bucket=s("bucket"),
            key=s("key"),
            region=s("region") or environ.get("AWS_REGION") or environ.get(
                "AWS_DEFAULT_REGION", ""),
            workspace_key_prefix=s("workspace_key_prefix", DEFAULT_WORKSPACE_KEY_PREFIX),
            encrypt=b("encrypt"),
            kms_key_id=s("kms_key_id"),
            sse_customer_key=s("sse_customer_key") or environ.get("AWS_SSE_CUSTOMER_KEY", ""),
            acl=s("acl"),
            use_lockfile=b("use_lockfile"),
            dynamodb_table=s("dynamodb_table"),
            endpoints=endpoints,
            use_path_style=b("use_path_style") or b("force_path_style"),
            skip_credentials_validation=b("skip_credentials_validation"),
            skip_requesting_account_id=b("skip_requesting_account_id"),
            skip_metadata_api_check=b("skip_metadata_api_check", "AWS_EC2_METADATA_DISABLED"),
            skip_s3_checksum=b("skip_s3_checksum"),
            access_key=s("access_key"),
            secret_key=s("secret_key"),
            token=s("token"),
            profile=s("profile"),
            shared_credentials_files=files("shared_credentials_files",
                                           "shared_credentials_file"),
            shared_config_files=files("shared_config_files"),
            assume_role=dict(role) if isinstance(role, dict) else None,
            max_retries=int(retries) if isinstance(retries, int) else 5,
            retry_mode=s("retry_mode"),
            insecure=b("insecure"),
            custom_ca_bundle=s("custom_ca_bundle") or environ.get("AWS_CA_BUNDLE", ""),
        )

    def state_key(self, workspace: str) -> str:
        """terraform's layout: `<key>` for default, `<prefix>/<workspace>/<key>` otherwise."""
        if workspace in ("", "default"):
            return self.key
        return "/".join(p for p in (self.workspace_key_prefix, workspace, self.key) if p)

    def lock_id(self, workspace: str) -> str:
        """The DynamoDB `LockID` of a workspace's state: `<bucket>/<state key>`."""
        return f"{self.bucket}/{self.state_key(workspace)}"
