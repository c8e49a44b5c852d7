"""The encryption of one invocation, as OpenTofu's command/meta_encryption.go: built from the
working directory's root module (its `terraform { encryption { ... } }`), `TF_ENCRYPTION`
and the root input values known before the plan.

`Meta` mixes this in. `load_config` calls `check_encryption` so that every misconfiguration
is reported, with its file and line, by `validate` and by every command before any state is
read; `collect_root_inputs` records the values; `state_encryption()` / `plan_encryption()`
are what storage is built with. When the configuration is broken they return an encryption
that refuses every payload with the configuration's diagnostics, so nothing is read or
written with the wrong keys.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.diags import Diagnostics
from engine.states.encryption import EncryptionError

if TYPE_CHECKING:
    from engine.states.encryption import StateEncryption
    from engine.values import Value


class Refusing:
    """The encryption of a broken configuration: every call fails with its diagnostics."""

    def __init__(self, diags: Diagnostics) -> None:
        self.diags = Diagnostics([d for d in diags if d.is_error])

    def encrypt(self, data: bytes) -> bytes:
        raise EncryptionError(self.diags)

    def decrypt(self, data: bytes) -> bytes:
        raise EncryptionError(self.diags)


class CurrentStateEncryption:
    """The state encryption of the invocation as it is built now: what storage is given, so
    that a backend made before the -var values were collected still uses the encryption
    those values configure (every call asks the Meta for its current build)."""

    def __init__(self, meta: EncryptionMeta) -> None:
        self._meta = meta

    def encrypt(self, data: bytes) -> bytes:
        return self._meta.state_encryption().encrypt(data)

    def decrypt(self, data: bytes) -> bytes:
        return self._meta.state_encryption().decrypt(data)

    def __getattr__(self, name: str) -> Any:  # records(), primary, last_read of the target
        return getattr(self._meta.state_encryption(), name)


class EncryptionMeta:
    """The encryption part of `Meta` (see the module docstring)."""

    environ: dict[str, str]
    _enc_module: Any = None
    _enc_values: Mapping[str, Value] | None = None
    _enc_built: tuple[Any, Diagnostics] | None = None

    def check_encryption(self, config: Any) -> Diagnostics:
        """The encryption problems of `config`'s root module, values not given yet unknown
        (what `validate` can tell); remembers the module for `encryption()`."""
        if self._enc_module is None:  # else already built from this directory's root module
            self._enc_built = None
        self._enc_module = config.module
        if config.module.encryption is None and not self.environ.get("TF_ENCRYPTION", "").strip():
            return Diagnostics()
        from engine.configs.variable_values import collect_root_inputs
        from engine.encryption.static import module_encryption

        inputs, _ = collect_root_inputs(config.module, [], self.environ, os.getcwd(), validate=False)
        _, diags = module_encryption(config.module, inputs.values, self.environ, os.getcwd(),
                                     allow_unknown=True)
        return diags

    def record_encryption_inputs(self, values: Mapping[str, Value]) -> None:
        """The root input values of this invocation (-var, -var-file, files, TF_VAR_)."""
        self._enc_values = dict(values)
        self._enc_built = None

    def encryption(self) -> tuple[Any, Diagnostics]:
        """The built encryption (engine.encryption.build.Encryption) or None, and diagnostics."""
        if self._enc_built is not None:
            return self._enc_built
        from engine.encryption.built import DISABLED

        module = self._enc_module
        if module is None:
            from engine.configs.loader import load_module

            module, diags = load_module(os.getcwd())
            if diags.has_errors:
                # a configuration that does not load has no usable encryption either
                self._enc_built = (None, diags)
                return self._enc_built
            self._enc_module = module
        if module.encryption is None and not self.environ.get("TF_ENCRYPTION", "").strip():
            self._enc_built = (DISABLED, Diagnostics())
            return self._enc_built
        from engine.encryption.static import module_encryption

        values = self._enc_values
        if values is None:
            from engine.configs.variable_values import collect_root_inputs

            inputs, _ = collect_root_inputs(module, [], self.environ, os.getcwd(), validate=False)
            values = inputs.values
        self._enc_built = module_encryption(module, values, self.environ, os.getcwd())
        return self._enc_built

    def state_encryption(self) -> StateEncryption:
        """What the state storage encrypts and decrypts with."""
        enc, diags = self.encryption()
        return enc.state if enc is not None else Refusing(diags)

    def current_state_encryption(self) -> StateEncryption:
        """`state_encryption()` as of each call (for storage built early, see the class)."""
        return CurrentStateEncryption(self)

    def plan_encryption(self) -> StateEncryption:
        """What saved plan files are encrypted and decrypted with."""
        enc, diags = self.encryption()
        return enc.plan if enc is not None else Refusing(diags)

    def remote_state_encryption(self, name: str) -> StateEncryption:
        """What `terraform_remote_state.NAME` decrypts its source state with."""
        enc, diags = self.encryption()
        return enc.remote_state(name) if enc is not None else Refusing(diags)
