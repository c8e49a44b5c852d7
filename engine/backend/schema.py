"""The configuration schemas of the backends, attribute for attribute terraform 1.11's.

A schema maps each argument of `backend "TYPE" { ... }` to its type (engine.values types;
nested attributes such as `endpoints` are objects whose attributes are all optional) and says
which are required. `cty_hash` is cty's `Value.Hash()` (CRC-32 of `makeSetHashBytes`), which
terraform records as the backend's `hash` in `.terraform/terraform.tfstate`; computing it the
same way keeps the record terraform's.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

from engine.values import BOOL, NUMBER, STRING, MapType, ObjectType, SetType, Type, Value
from engine.values.numbers import format_number


@dataclass(frozen=True)
class BackendSchema:
    """The arguments of one backend type: name -> type, the required names, and for nested
    object attributes the required names inside them."""

    attributes: dict[str, Type]
    required: frozenset[str] = frozenset()
    nested_required: dict[str, frozenset[str]] = field(default_factory=dict)
    deprecated: frozenset[str] = frozenset()

    def object_type(self) -> ObjectType:
        return ObjectType(self.attributes)

    def null_config(self) -> dict[str, Value]:
        """Every argument, null."""
        return {name: Value(t, None) for name, t in sorted(self.attributes.items())}


def _nested(**attrs: Type) -> ObjectType:
    return ObjectType(attrs, optional=attrs.keys())


_STRINGS = SetType(STRING)

LOCAL_SCHEMA = BackendSchema({"path": STRING, "workspace_dir": STRING})

ASSUME_ROLE = _nested(
    role_arn=STRING, duration=STRING, external_id=STRING, policy=STRING, policy_arns=_STRINGS,
    session_name=STRING, source_identity=STRING, tags=MapType(STRING),
    transitive_tag_keys=_STRINGS,
)
ASSUME_ROLE_WITH_WEB_IDENTITY = _nested(
    role_arn=STRING, duration=STRING, policy=STRING, policy_arns=_STRINGS, session_name=STRING,
    web_identity_token=STRING, web_identity_token_file=STRING,
)
ENDPOINTS = _nested(dynamodb=STRING, iam=STRING, s3=STRING, sso=STRING, sts=STRING)

S3_SCHEMA = BackendSchema(
    {
        "access_key": STRING,
        "acl": STRING,
        "allowed_account_ids": _STRINGS,
        "assume_role": ASSUME_ROLE,
        "assume_role_with_web_identity": ASSUME_ROLE_WITH_WEB_IDENTITY,
        "bucket": STRING,
        "custom_ca_bundle": STRING,
        "dynamodb_endpoint": STRING,
        "dynamodb_table": STRING,
        "ec2_metadata_service_endpoint": STRING,
        "ec2_metadata_service_endpoint_mode": STRING,
        "encrypt": BOOL,
        "endpoint": STRING,
        "endpoints": ENDPOINTS,
        "forbidden_account_ids": _STRINGS,
        "force_path_style": BOOL,
        "http_proxy": STRING,
        "https_proxy": STRING,
        "iam_endpoint": STRING,
        "insecure": BOOL,
        "key": STRING,
        "kms_key_id": STRING,
        "max_retries": NUMBER,
        "no_proxy": STRING,
        "profile": STRING,
        "region": STRING,
        "retry_mode": STRING,
        "secret_key": STRING,
        "shared_config_files": _STRINGS,
        "shared_credentials_file": STRING,
        "shared_credentials_files": _STRINGS,
        "skip_credentials_validation": BOOL,
        "skip_metadata_api_check": BOOL,
        "skip_region_validation": BOOL,
        "skip_requesting_account_id": BOOL,
        "skip_s3_checksum": BOOL,
        "sse_customer_key": STRING,
        "sts_endpoint": STRING,
        "sts_region": STRING,
        "token": STRING,
        "use_dualstack_endpoint": BOOL,
        "use_fips_endpoint": BOOL,
        "use_lockfile": BOOL,
        "use_path_style": BOOL,
        "workspace_key_prefix": STRING,
    },
    required=frozenset({"bucket", "key"}),
    nested_required={
        "assume_role": frozenset({"role_arn"}),
        "assume_role_with_web_identity": frozenset({"role_arn"}),
    },
)

# Backend types terraform 1.11 knows (internal/backend/init); only some are implemented here.
KNOWN_TYPES = frozenset(
    {"local", "remote", "azurerm", "consul", "cos", "gcs", "http", "kubernetes", "oss", "pg",
     "s3", "cloud"}
)
SCHEMAS: dict[str, BackendSchema] = {"local": LOCAL_SCHEMA, "s3": S3_SCHEMA}


# ------------------------------------------------------------------------------ cty's hash
def _go_quote(s: str) -> str:
    """Go's `%q` for a string of printable characters (what backend settings are)."""
    out = ['"']
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _hash_bytes(val: Value, t: Type, out: list[str]) -> None:
    """cty's appendSetHashBytes for the value kinds backend schemas use."""
    if val.v is None:
        out.append("~")
        return
    if t == STRING:
        out.append(_go_quote(str(val.v)))
    elif t == BOOL:
        out.append("T" if val.v else "F")
    elif t == NUMBER:
        out.append(format_number(val.v))
    elif isinstance(t, ObjectType):
        out.append("<")
        for name, at in t.attrs.items():
            inner = val.v.get(name) if isinstance(val.v, dict) else None
            _hash_bytes(inner if inner is not None else Value(at, None), at, out)
            out.append(";")
        out.append(">")
    elif isinstance(t, MapType):
        out.append("{")
        for k in sorted(val.v):
            out.append(_go_quote(k) + ":")
            _hash_bytes(val.v[k], t.element, out)
            out.append(";")
        out.append("}")
    elif isinstance(t, SetType):
        out.append("[")
        for e in sorted(val.v, key=lambda x: str(x.v)):
            _hash_bytes(e, t.element, out)
            out.append(";")
        out.append("]")
    else:  # pragma: no cover - schemas use no other kinds
        out.append("?")


def cty_hash(backend_type: str, config: dict[str, Value], schema: BackendSchema) -> int:
    """terraform's `configs.Backend.Hash`: cty's hash of `[type, config object]`."""
    out = ["<", _go_quote(backend_type), ";"]
    _hash_bytes(Value(schema.object_type(), config), schema.object_type(), out)
    out.append(";>")
    return zlib.crc32("".join(out).encode("utf-8"))
