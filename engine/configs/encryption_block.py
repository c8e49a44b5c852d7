"""Decoding `terraform { encryption { ... } }` (and the `TF_ENCRYPTION` text) into
engine.configs.encryption_config's model, with OpenTofu's structure checks.

What is checked here, each with the file and line: the block and argument names of
`encryption`, its targets and fallbacks; the labels of `key_provider` and `method` blocks
(OpenTofu's `^[a-zA-Z_0-9-]+$`); duplicate key providers, methods and remote targets; that
`enforced` is a literal bool. What needs values (references, key lengths, passphrases) is
checked when the encryption is built (engine.encryption.build), which `validate` also runs.
"""

from __future__ import annotations

import re

from engine.configs.encryption_config import (
    EncryptionConfig,
    EnforceableTargetConfig,
    KeyProviderConfig,
    MethodConfig,
    NamedTargetConfig,
    RemoteConfig,
    TargetConfig,
)
from engine.configs.syntax import AttrSchema, BlockSchema, BodySchema, content, partial_content
from engine.diags import Diagnostics, error
from engine.hcl.ast import Block, Body
from engine.source import Range

NAME_RE = re.compile(r"^[a-zA-Z_0-9-]+$")

ENCRYPTION_SCHEMA = BodySchema(
    (),
    (
        BlockSchema("key_provider", ("type", "name")),
        BlockSchema("method", ("type", "name")),
        BlockSchema("state"),
        BlockSchema("plan"),
        BlockSchema("remote_state_data_sources"),
    ),
)
ENFORCEABLE_SCHEMA = BodySchema(
    (AttrSchema("method"), AttrSchema("enforced")), (BlockSchema("fallback"),)
)
TARGET_SCHEMA = BodySchema((AttrSchema("method"),), (BlockSchema("fallback"),))
REMOTE_SCHEMA = BodySchema(
    (), (BlockSchema("default"), BlockSchema("remote_state_data_source", ("name",)))
)
KEY_PROVIDER_META = BodySchema((AttrSchema("encrypted_metadata_alias"),))


def _check_names(kind: str, blk: Block, diags: Diagnostics) -> None:
    for what, label, rng in zip(("type", "name"), blk.labels, blk.label_ranges):
        if not NAME_RE.match(label):
            diags.append(error(
                f"The provided {kind} {what} is invalid",
                f"The supplied {kind} {what} ({label}) does not match the required form of "
                f"{NAME_RE.pattern}.", rng))


def _single(blocks: list[Block], kind: str, diags: Diagnostics) -> Block | None:
    for extra in blocks[1:]:
        diags.append(error(
            f"Duplicate {kind} block",
            f"Only one {kind} block is allowed here; another was declared at "
            f"{blocks[0].def_range}.", extra.def_range))
    return blocks[0] if blocks else None


def _literal_bool(attr_expr: object, rng: Range, diags: Diagnostics) -> bool:
    from engine.lang.context import EvalContext
    from engine.lang.eval import evaluate
    from engine.values import BOOL
    from engine.values.convert import ConversionError, convert

    val, more = evaluate(attr_expr, EvalContext())  # type: ignore[arg-type]
    if more.has_errors:
        diags.append(error("Invalid enforced value",
                           "The enforced argument must be a literal true or false.", rng))
        return False
    try:
        val = convert(val, BOOL)
    except ConversionError:
        val = None  # type: ignore[assignment]
    if val is None or not val.is_known or val.is_null:
        diags.append(error("Invalid enforced value",
                           "The enforced argument must be a literal true or false.", rng))
        return False
    return bool(val.v)


def _target(blk: Block, diags: Diagnostics) -> TargetConfig:
    got, more = content(blk.body, TARGET_SCHEMA, blk)
    diags.extend(more)
    fb = _single([b for b in got.blocks if b.type == "fallback"], "fallback", diags)
    method = got.attributes.get("method")
    return TargetConfig(method.expr if method else None,
                        _target(fb, diags) if fb is not None else None, blk.def_range)


def _enforceable(blk: Block, diags: Diagnostics) -> EnforceableTargetConfig:
    got, more = content(blk.body, ENFORCEABLE_SCHEMA, blk)
    diags.extend(more)
    fb = _single([b for b in got.blocks if b.type == "fallback"], "fallback", diags)
    method = got.attributes.get("method")
    enforced = got.attributes.get("enforced")
    return EnforceableTargetConfig(
        method.expr if method else None,
        _target(fb, diags) if fb is not None else None,
        blk.def_range,
        _literal_bool(enforced.expr, enforced.expr.range, diags) if enforced else False,
        enforced.range if enforced else None,
    )


def _remote(blk: Block, diags: Diagnostics) -> RemoteConfig:
    got, more = content(blk.body, REMOTE_SCHEMA, blk)
    diags.extend(more)
    out = RemoteConfig()
    default = _single([b for b in got.blocks if b.type == "default"], "default", diags)
    if default is not None:
        out.default = _target(default, diags)
    seen: dict[str, Block] = {}
    for b in got.blocks:
        if b.type != "remote_state_data_source":
            continue
        name = b.labels[0]
        if name in seen:
            diags.append(error(
                "Duplicate remote_state_data_source",
                f"Found multiple instances of remote_state_data_source.{name}; the first was "
                f"declared at {seen[name].def_range}.", b.def_range))
            continue
        seen[name] = b
        t = _target(b, diags)
        out.targets.append(NamedTargetConfig(name, t.method, t.fallback, b.def_range))
    return out


def decode_encryption(body: Body, decl_range: Range) -> tuple[EncryptionConfig | None, Diagnostics]:
    """The encryption configuration in `body` (an `encryption` block's body, or the whole
    `TF_ENCRYPTION` document); None when it has errors."""
    got, diags = content(body, ENCRYPTION_SCHEMA)
    cfg = EncryptionConfig(decl_range)
    seen: dict[str, Block] = {}
    for blk in got.blocks:
        if blk.type in ("key_provider", "method"):
            kind = "key provider" if blk.type == "key_provider" else "encryption method"
            _check_names(kind, blk, diags)
            addr = f"{blk.type}.{blk.labels[0]}.{blk.labels[1]}"
            if addr in seen:
                diags.append(error(
                    f"Duplicate {blk.type}",
                    f"Found multiple instances of {addr}; the first was declared at "
                    f"{seen[addr].def_range}.", blk.def_range))
                continue
            seen[addr] = blk
            if blk.type == "key_provider":
                meta, rest, more = partial_content(blk.body, KEY_PROVIDER_META, blk)
                diags.extend(more)
                alias = ""
                if "encrypted_metadata_alias" in meta.attributes:
                    a = meta.attributes["encrypted_metadata_alias"]
                    alias = _literal_string(a.expr, diags)
                cfg.key_providers.append(
                    KeyProviderConfig(blk.labels[0], blk.labels[1], rest, blk.def_range, alias))
            else:
                cfg.methods.append(MethodConfig(blk.labels[0], blk.labels[1], blk.body,
                                                blk.def_range))
    for kind in ("state", "plan"):
        target = _single([b for b in got.blocks if b.type == kind], kind, diags)
        if target is not None:
            setattr(cfg, kind, _enforceable(target, diags))
    remote = _single([b for b in got.blocks if b.type == "remote_state_data_sources"],
                     "remote_state_data_sources", diags)
    if remote is not None:
        cfg.remote = _remote(remote, diags)
    if diags.has_errors:
        return None, diags
    return cfg, diags


def _literal_string(expr: object, diags: Diagnostics) -> str:
    from engine.lang.context import EvalContext
    from engine.lang.eval import evaluate

    val, more = evaluate(expr, EvalContext())  # type: ignore[arg-type]
    if more.has_errors or not isinstance(val.v, str):
        diags.append(error("Invalid encrypted_metadata_alias",
                           "The encrypted_metadata_alias must be a literal string.",
                           getattr(expr, "range", None)))
        return ""
    return val.v


def decode_encryption_text(source_name: str, text: str) -> tuple[EncryptionConfig | None, Diagnostics]:
    """`TF_ENCRYPTION`'s value: the blocks of an `encryption` block, in HCL or (starting with
    `{`) in JSON, as OpenTofu's LoadConfigFromString reads it."""
    from engine import hcl

    if text.strip().startswith("{"):
        parsed, diags = hcl.parse_json_file(text, source_name + ".json")
    else:
        parsed, diags = hcl.parse_file(text, source_name)
    if parsed is None or diags.has_errors:
        return None, diags
    cfg, more = decode_encryption(parsed.body, parsed.body.range)
    diags.extend(more)
    return cfg, diags
