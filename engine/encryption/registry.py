"""The key provider and method types groundplan knows, and how each decodes its body.

A builder takes the block's configuration, the static evaluator and `resolve` (which builds
the key provider another argument refers to, detecting cycles) and returns the configured
object, or None with diagnostics that carry the file and line of what is wrong. Nothing
here talks to a service or runs a program: that happens on first use.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

from engine.configs.encryption_config import KeyProviderConfig, MethodConfig
from engine.diags import Diagnostics, error
from engine.encryption.decode import Args, Evaluate, key_provider_ref
from engine.encryption.keyproviders import KeyProvider
from engine.encryption.keyproviders import pbkdf2 as P
from engine.encryption.keyproviders.aws_kms import (
    KEY_SPECS,
    AssumeRole,
    AwsKmsKeyProvider,
    KmsSettings,
)
from engine.encryption.keyproviders.external import ExternalKeyProvider
from engine.encryption.methods import Unencrypted
from engine.encryption.methods.aes_gcm import AesGcm, key_length_problem
from engine.source import Range
from engine.values import DYNAMIC, STRING

Resolve = Callable[[str, str, Range | None], KeyProvider | None]
KeyProviderBuilder = Callable[[KeyProviderConfig, Evaluate, Resolve, Diagnostics],
                              KeyProvider | None]
MethodBuilder = Callable[[MethodConfig, Evaluate, Resolve, Diagnostics], Any]


def _invalid(kind: str, addr: str, message: str, rng: Range | None) -> Any:
    return error(f"Invalid {kind} configuration", f"{addr}: {message}", rng)


def static_key_length(kp: KeyProvider) -> int | None:
    """The length of the keys `kp` yields when the configuration alone says it."""
    if isinstance(kp, P.Pbkdf2KeyProvider):
        return kp.key_length
    if isinstance(kp, AwsKmsKeyProvider):
        return KEY_SPECS.get(kp.settings.key_spec)
    return None


# ----------------------------------------------------------------------------- key providers
def build_pbkdf2(cfg: KeyProviderConfig, ev: Evaluate, resolve: Resolve,
                 diags: Diagnostics) -> KeyProvider | None:
    before = len(diags.errors)
    a = Args(cfg.body, ("passphrase", "chain", "key_length", "iterations", "hash_function",
                        "salt_length"), ev, diags, owner=cfg.decl_range)
    kp = P.Pbkdf2KeyProvider(cfg.addr, cfg.meta_key)
    passphrase = a.string("passphrase")
    kp.passphrase = passphrase
    if a.has("chain"):
        ref, rng = key_provider_ref(a, "chain")
        if ref is not None:
            kp.chain = resolve(ref[0], ref[1], rng)
    key_length = a.integer("key_length") if a.has("key_length") else P.DEFAULT_KEY_LENGTH
    iterations = a.integer("iterations") if a.has("iterations") else P.DEFAULT_ITERATIONS
    salt_length = a.integer("salt_length") if a.has("salt_length") else P.DEFAULT_SALT_LENGTH
    hash_function = a.string("hash_function") if a.has("hash_function") else P.DEFAULT_HASH
    if len(diags.errors) > before:
        return None
    if a.has("passphrase") and a.has("chain"):
        diags.append(_invalid("key provider", cfg.addr, "passphrase and chain are mutually "
                              "exclusive", a.range("chain")))
        return None
    if not a.has("passphrase") and not a.has("chain"):
        diags.append(_invalid("key provider", cfg.addr, "no passphrase provided and no chained "
                              "provider defined", cfg.decl_range))
        return None
    if key_length is None or iterations is None or salt_length is None or hash_function is None:
        return kp  # not known yet (validate without a variable's value): checked when known
    kp.key_length, kp.iterations = key_length, iterations
    kp.salt_length, kp.hash_function = salt_length, hash_function
    problem = P.check_settings(key_length, iterations, salt_length, hash_function, passphrase)
    if problem:
        where = {"passphrase": "passphrase", "iterations": "iterations", "salt": "salt_length",
                 "hash": "hash_function", "key length": "key_length"}
        rng = next((a.range(arg) for word, arg in where.items() if word in problem
                    and a.has(arg)), cfg.decl_range)
        diags.append(_invalid("key provider", cfg.addr, problem, rng))
        return None
    return kp


def build_aws_kms(cfg: KeyProviderConfig, ev: Evaluate, resolve: Resolve,
                  diags: Diagnostics) -> KeyProvider | None:
    before = len(diags.errors)
    a = Args(cfg.body, (
        "kms_key_id", "key_spec", "region", "access_key", "secret_key", "token", "profile",
        "max_retries", "retry_mode", "encryption_context", "sts_region", "assume_role",
        "skip_credentials_validation", "skip_requesting_account_id", "insecure",
        "custom_ca_bundle", "http_proxy", "https_proxy", "use_fips_endpoint",
        "use_dualstack_endpoint"), ev, diags, blocks=("endpoints",),
        required=("kms_key_id", "key_spec"), owner=cfg.decl_range)
    s = KmsSettings(a.string("kms_key_id") or "", a.string("key_spec") or "")
    for name in ("region", "access_key", "secret_key", "token", "profile", "retry_mode",
                 "sts_region", "custom_ca_bundle", "http_proxy", "https_proxy"):
        setattr(s, name, a.string(name) or "")
    for name in ("insecure", "use_fips_endpoint", "use_dualstack_endpoint"):
        setattr(s, name, bool(a.boolean(name)))
    a.boolean("skip_credentials_validation")  # no credential check is made: nothing to skip
    a.boolean("skip_requesting_account_id")  # the account id is never requested
    if a.has("max_retries"):
        s.max_retries = a.integer("max_retries") or 5
    s.encryption_context = a.string_map("encryption_context") or {}
    if a.has("assume_role"):
        s.assume_role = _assume_role(a, diags)
    endpoints = [b for b in a.blocks if b.type == "endpoints"]
    if len(endpoints) > 1:
        diags.append(_invalid("key provider", cfg.addr, "expected single aws_kms endpoints "
                              "block, multiple provided", endpoints[1].def_range))
    for blk in endpoints[:1]:
        e = Args(blk.body, ("iam", "sts"), ev, diags)
        sts = e.string("sts") or os.environ.get("AWS_ENDPOINT_URL_STS", "")
        if sts and "://" not in sts:
            sts = "https://" + sts
        s.sts_endpoint = sts
    if len(diags.errors) > before:
        return None
    if a.has("key_spec") and a.value("key_spec", STRING) is not None \
            and s.key_spec not in KEY_SPECS:
        diags.append(_invalid("key provider", cfg.addr, f"invalid key_spec {s.key_spec}, "
                              "expected one of [AES_256 AES_128]", a.range("key_spec")))
        return None
    if a.has("kms_key_id") and s.kms_key_id == "" and a.value("kms_key_id", STRING) is not None:
        diags.append(_invalid("key provider", cfg.addr, "no kms_key_id provided",
                              a.range("kms_key_id")))
        return None
    if not s.region and not os.environ.get("AWS_REGION") and \
            not os.environ.get("AWS_DEFAULT_REGION") and not (a.has("region") and
                                                             a.string("region") is None):
        diags.append(_invalid("key provider", cfg.addr, 'the "region" attribute or the '
                              '"AWS_REGION" or "AWS_DEFAULT_REGION" environment variables must '
                              "be set.", cfg.decl_range))
        return None
    return AwsKmsKeyProvider(cfg.addr, cfg.meta_key, s)


def _assume_role(a: Args, diags: Diagnostics) -> AssumeRole | None:
    v = a.value("assume_role", DYNAMIC)
    if v is None or not isinstance(v.v, dict):
        return None
    raw = {k: e for k, e in v.v.items() if not e.is_null}
    allowed = {"role_arn", "session_name", "external_id", "duration", "policy", "policy_arns",
               "tags", "transitive_tag_keys"}
    bad = sorted(set(raw) - allowed)
    if bad or "role_arn" not in raw:
        diags.append(error("Invalid assume_role", (
            f'Unsupported attribute "{bad[0]}".' if bad else
            'The attribute "role_arn" is required.'), a.range("assume_role")))
        return None
    ar = AssumeRole(str(raw["role_arn"].v))
    ar.session_name = str(raw["session_name"].v) if "session_name" in raw else ""
    ar.external_id = str(raw["external_id"].v) if "external_id" in raw else ""
    ar.policy = str(raw["policy"].v) if "policy" in raw else ""
    ar.policy_arns = [str(e.v) for e in raw["policy_arns"].elements()] if "policy_arns" in raw else []
    ar.transitive_tag_keys = ([str(e.v) for e in raw["transitive_tag_keys"].elements()]
                              if "transitive_tag_keys" in raw else [])
    ar.tags = {k: str(e.v) for k, e in raw["tags"].v.items()} if "tags" in raw else {}
    if "duration" in raw:
        seconds = _go_duration(str(raw["duration"].v))
        if seconds is None or not 900 <= seconds <= 43200:
            diags.append(error("Invalid assume_role", "assume_role duration must be between "
                               "15m0s and 12h0m0s.", a.range("assume_role")))
            return None
        ar.duration_seconds = seconds
    return ar


def _go_duration(text: str) -> int | None:
    parts = re.fullmatch(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?", text)
    if not text or parts is None:
        return None
    h, m, s = (int(p or 0) for p in parts.groups())
    return h * 3600 + m * 60 + s


def build_external(cfg: KeyProviderConfig, ev: Evaluate, resolve: Resolve,
                   diags: Diagnostics) -> KeyProvider | None:
    before = len(diags.errors)
    a = Args(cfg.body, ("command",), ev, diags, required=("command",), owner=cfg.decl_range)
    command = a.strings("command")
    if len(diags.errors) > before:
        return None
    if command is not None and not command:
        diags.append(_invalid("key provider", cfg.addr, "the command option is required",
                              a.range("command")))
        return None
    return ExternalKeyProvider(cfg.addr, cfg.meta_key, command or [])


KEY_PROVIDERS: dict[str, KeyProviderBuilder] = {
    "pbkdf2": build_pbkdf2, "aws_kms": build_aws_kms, "external": build_external,
}


# ----------------------------------------------------------------------------- methods
def build_aes_gcm(cfg: MethodConfig, ev: Evaluate, resolve: Resolve,
                  diags: Diagnostics) -> Any:
    before = len(diags.errors)
    a = Args(cfg.body, ("keys", "aad"), ev, diags, required=("keys",), owner=cfg.decl_range)
    aad = a.byte_list("aad") or b""
    if not a.has("keys"):
        return None
    ref, rng = key_provider_ref(a, "keys")
    if ref is None or len(diags.errors) > before:
        return None
    kp = resolve(ref[0], ref[1], rng)
    if kp is None:
        return None
    length = static_key_length(kp)
    problem = key_length_problem(length, "encryption") if length is not None else None
    if problem:
        diags.append(error("Invalid method configuration", f"{cfg.addr}: {problem} (from "
                           f"{kp.addr})", rng))
        return None
    return AesGcm(cfg.addr, kp, aad)


def build_unencrypted(cfg: MethodConfig, ev: Evaluate, resolve: Resolve,
                      diags: Diagnostics) -> Any:
    before = len(diags.errors)
    Args(cfg.body, (), ev, diags, owner=cfg.decl_range)
    return Unencrypted(cfg.addr) if len(diags.errors) == before else None


METHODS: dict[str, MethodBuilder] = {"aes_gcm": build_aes_gcm, "unencrypted": build_unencrypted}
