"""The encryption configuration as written in `terraform { encryption { ... } }` (or in
`TF_ENCRYPTION`), before anything in it is evaluated: OpenTofu's `config.EncryptionConfig`.

Key provider and method bodies stay raw HCL bodies: each type decodes its own arguments when
the encryption is built (engine.encryption.build). `merge` is OpenTofu's `MergeConfigs`, how
`TF_ENCRYPTION` is laid over the configuration's block.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.hcl.ast import Block, Body, Expr
from engine.source import Range


@dataclass(slots=True)
class KeyProviderConfig:
    """`key_provider "TYPE" "NAME" { ... }`; `metadata_alias` is `encrypted_metadata_alias`."""

    type: str
    name: str
    body: Body
    decl_range: Range
    metadata_alias: str = ""

    @property
    def addr(self) -> str:
        return f"key_provider.{self.type}.{self.name}"

    @property
    def meta_key(self) -> str:
        """The key of this provider's entry in a payload's `meta` object."""
        return self.metadata_alias or self.addr


@dataclass(slots=True)
class MethodConfig:
    """`method "TYPE" "NAME" { ... }`."""

    type: str
    name: str
    body: Body
    decl_range: Range

    @property
    def addr(self) -> str:
        return f"method.{self.type}.{self.name}"


@dataclass(slots=True)
class TargetConfig:
    """A target's `method = method.T.N` and its `fallback { ... }` chain."""

    method: Expr | None
    fallback: TargetConfig | None
    decl_range: Range


@dataclass(slots=True)
class EnforceableTargetConfig:
    """`state { ... }` / `plan { ... }`: a target that may be `enforced`."""

    method: Expr | None
    fallback: TargetConfig | None
    decl_range: Range
    enforced: bool = False
    enforced_range: Range | None = None

    def as_target(self) -> TargetConfig:
        return TargetConfig(self.method, self.fallback, self.decl_range)


@dataclass(slots=True)
class NamedTargetConfig:
    """`remote_state_data_source "NAME" { ... }`."""

    name: str
    method: Expr | None
    fallback: TargetConfig | None
    decl_range: Range

    def as_target(self) -> TargetConfig:
        return TargetConfig(self.method, self.fallback, self.decl_range)


@dataclass(slots=True)
class RemoteConfig:
    """`remote_state_data_sources { default { ... } remote_state_data_source "N" { ... } }`."""

    default: TargetConfig | None = None
    targets: list[NamedTargetConfig] = field(default_factory=list)


@dataclass(slots=True)
class EncryptionConfig:
    """One `encryption` block (or the merge of the configuration's and `TF_ENCRYPTION`)."""

    decl_range: Range
    key_providers: list[KeyProviderConfig] = field(default_factory=list)
    methods: list[MethodConfig] = field(default_factory=list)
    state: EnforceableTargetConfig | None = None
    plan: EnforceableTargetConfig | None = None
    remote: RemoteConfig | None = None

    def key_provider(self, type_: str, name: str) -> KeyProviderConfig | None:
        for kp in self.key_providers:
            if kp.type == type_ and kp.name == name:
                return kp
        return None

    def method(self, type_: str, name: str) -> MethodConfig | None:
        for m in self.methods:
            if m.type == type_ and m.name == name:
                return m
        return None


# ------------------------------------------------------------------------------ merging
def merge_bodies(base: Body, override: Body) -> Body:
    """hcl2shim.MergeBodies: the override's arguments replace the base's of the same name;
    a block type present in the override replaces all the base's blocks of that type."""
    attrs = dict(base.attributes)
    attrs.update(override.attributes)
    override_types = {b.type for b in override.blocks}
    blocks: list[Block] = [b for b in base.blocks if b.type not in override_types]
    blocks.extend(override.blocks)
    return Body(attrs, blocks, base.range, base.end_range)


def _merge_target(cfg: TargetConfig | None, over: TargetConfig | None) -> TargetConfig | None:
    if cfg is None:
        return over
    if over is None:
        return cfg
    return TargetConfig(
        over.method if over.method is not None else cfg.method,
        over.fallback if over.fallback is not None else cfg.fallback,
        cfg.decl_range,
    )


def _merge_enforceable(
    cfg: EnforceableTargetConfig | None, over: EnforceableTargetConfig | None
) -> EnforceableTargetConfig | None:
    if cfg is None:
        return over
    if over is None:
        return cfg
    t = _merge_target(cfg.as_target(), over.as_target())
    assert t is not None
    return EnforceableTargetConfig(
        t.method, t.fallback, cfg.decl_range, cfg.enforced or over.enforced,
        cfg.enforced_range or over.enforced_range,
    )


def _merge_remote(cfg: RemoteConfig | None, over: RemoteConfig | None) -> RemoteConfig | None:
    if cfg is None:
        return over
    if over is None:
        return cfg
    targets = list(cfg.targets)
    for ot in over.targets:
        for i, t in enumerate(targets):
            if t.name == ot.name:
                m = _merge_target(t.as_target(), ot.as_target())
                assert m is not None
                targets[i] = NamedTargetConfig(t.name, m.method, m.fallback, t.decl_range)
                break
        else:
            targets.append(ot)
    return RemoteConfig(_merge_target(cfg.default, over.default), targets)


def merge(cfg: EncryptionConfig | None, over: EncryptionConfig | None) -> EncryptionConfig | None:
    """OpenTofu's MergeConfigs: key providers and methods of the same type and name have
    their bodies merged (the override's arguments win), others are appended; targets take
    the override's method and fallback where it sets them; `enforced` is true if either is."""
    if cfg is None:
        return over
    if over is None:
        return cfg
    kps = list(cfg.key_providers)
    for okp in over.key_providers:
        for i, kp in enumerate(kps):
            if kp.type == okp.type and kp.name == okp.name:
                kps[i] = replace(kp, body=merge_bodies(kp.body, okp.body),
                                 metadata_alias=okp.metadata_alias or kp.metadata_alias)
                break
        else:
            kps.append(okp)
    methods = list(cfg.methods)
    for om in over.methods:
        for i, m in enumerate(methods):
            if m.type == om.type and m.name == om.name:
                methods[i] = replace(m, body=merge_bodies(m.body, om.body))
                break
        else:
            methods.append(om)
    return EncryptionConfig(
        cfg.decl_range, kps, methods,
        _merge_enforceable(cfg.state, over.state),
        _merge_enforceable(cfg.plan, over.plan),
        _merge_remote(cfg.remote, over.remote),
    )
