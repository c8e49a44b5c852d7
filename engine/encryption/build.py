"""Building the encryption of a configuration: OpenTofu's `encryption.New`.

`build(cfg, evaluate)` resolves every target's method list (`method.T.N`, then each
`fallback`), builds every declared method and key provider once (chains followed, cycles
reported with the chain), and checks what the configuration alone can tell: unknown types,
undeclared references, short passphrases, low iteration counts, key lengths AES-GCM cannot
use, `unencrypted` under `enforced = true`. Each problem is a diagnostic with the file and
line. No key is produced here: services and programs are asked on first use.
"""

from __future__ import annotations

from typing import Any

from engine.configs.encryption_config import EncryptionConfig, KeyProviderConfig, TargetConfig
from engine.diags import Diagnostics, error, warning
from engine.encryption.built import DISABLED, Encryption
from engine.encryption.decode import Evaluate, method_ref
from engine.encryption.keyproviders import KeyProvider
from engine.encryption.methods import Unencrypted
from engine.encryption.registry import KEY_PROVIDERS, METHODS
from engine.encryption.targets import TargetEncryption
from engine.source import Range


class _Builder:
    def __init__(self, cfg: EncryptionConfig, evaluate: Evaluate, diags: Diagnostics) -> None:
        self.cfg = cfg
        self.evaluate = evaluate
        self.diags = diags
        self.providers: dict[str, KeyProvider | None] = {}
        self.methods: dict[str, Any] = {}
        self.stack: list[KeyProviderConfig] = []

    def key_provider(self, type_: str, name: str, rng: Range | None) -> KeyProvider | None:
        kp_cfg = self.cfg.key_provider(type_, name)
        addr = f"key_provider.{type_}.{name}"
        if kp_cfg is None:
            self.diags.append(error(
                "Reference to undeclared key provider",
                f'There is no key_provider "{type_}" "{name}" block declared in the encryption '
                "block.", rng))
            return None
        if kp_cfg in self.stack:
            chain = " -> ".join(k.addr for k in [*self.stack, kp_cfg])
            self.diags.append(error(
                "Circular reference detected",
                f"Cannot load {addr} due to circular reference between key providers. Stack "
                f"trace {chain}", rng or kp_cfg.decl_range))
            return None
        if addr in self.providers:
            return self.providers[addr]
        builder = KEY_PROVIDERS.get(type_)
        if builder is None:
            self.diags.append(error("Unknown key_provider type", f'Can not find "{type_}" (known: '
                                    f'{", ".join(sorted(KEY_PROVIDERS))}).', kp_cfg.decl_range))
            self.providers[addr] = None
            return None
        self.stack.append(kp_cfg)
        try:
            kp = builder(kp_cfg, self.evaluate, self.key_provider, self.diags)
        finally:
            self.stack.pop()
        self.providers[addr] = kp
        return kp

    def method(self, type_: str, name: str, rng: Range | None) -> Any:
        addr = f"method.{type_}.{name}"
        if addr in self.methods:
            return self.methods[addr]
        m_cfg = self.cfg.method(type_, name)
        if m_cfg is None:
            self.diags.append(error(
                "Reference to undeclared encryption method",
                f'There is no method "{type_}" "{name}" block declared in the encryption block.',
                rng))
            return None
        builder = METHODS.get(type_)
        if builder is None:
            self.diags.append(error("Unknown encryption method type", f'Can not find "{type_}" '
                                    f'(known: {", ".join(sorted(METHODS))}).', m_cfg.decl_range))
            self.methods[addr] = None
            return None
        m = builder(m_cfg, self.evaluate, self.key_provider, self.diags)
        self.methods[addr] = m
        return m

    def target(self, target: TargetConfig, name: str, kind: str, enforced: bool,
               enforced_range: Range | None) -> TargetEncryption | None:
        methods: list[Any] = []
        ok = True
        t: TargetConfig | None = target
        while t is not None:
            if t.method is None:
                self.diags.append(error(
                    "Missing required argument",
                    f'The argument "method" is required in {name}, but no definition was found.',
                    t.decl_range))
                return None
            names = method_ref(t.method)
            if names is None or len(names) != 3 or names[0] != "method":
                self.diags.append(error("Invalid encryption method identifier",
                                        "Expected method of form method.<type>.<name>",
                                        t.method.range))
                ok = False
            else:
                m = self.method(names[1], names[2], t.method.range)
                if m is None:
                    ok = False
                else:
                    methods.append(m)
                    if enforced and isinstance(m, Unencrypted):
                        self.diags.append(error(
                            "Unencrypted method is forbidden",
                            f"Unable to use unencrypted method for {name} since the enforced "
                            "flag is set.", t.method.range, enforced_range))
                        ok = False
            t = t.fallback
        if not ok:
            return None
        return TargetEncryption(name, methods, kind, enforced)


def build(cfg: EncryptionConfig | None, evaluate: Evaluate) -> tuple[Encryption | None, Diagnostics]:
    """The encryption `cfg` describes (DISABLED when there is none); None on errors."""
    diags = Diagnostics()
    if cfg is None:
        return DISABLED, diags
    b = _Builder(cfg, evaluate, diags)
    for m in cfg.methods:
        if m.type == "unencrypted":
            diags.append(warning(
                "Unencrypted method configured",
                "Method unencrypted is present in configuration. This is a security risk and "
                "should only be enabled during migrations.", m.decl_range))
    out = Encryption()
    for kind in ("state", "plan"):
        tc = getattr(cfg, kind)
        if tc is not None:
            te = b.target(tc.as_target(), kind, kind, tc.enforced, tc.enforced_range)
            if te is not None:
                setattr(out, kind, te)
    if cfg.remote is not None:
        if cfg.remote.default is not None:
            te = b.target(cfg.remote.default, "remote_state_data_sources.default", "state",
                          False, None)
            if te is not None:
                out.remote_default = te
        for nt in cfg.remote.targets:
            te = b.target(nt.as_target(), f"remote_state_data_source.{nt.name}", "state",
                          False, None)
            if te is not None:
                out.remotes[nt.name] = te
    # what no target uses is still checked (validate reports every misconfiguration)
    for m in cfg.methods:
        b.method(m.type, m.name, m.decl_range)
    for kp in cfg.key_providers:
        b.key_provider(kp.type, kp.name, kp.decl_range)
    if diags.has_errors:
        return None, diags
    return out, diags
