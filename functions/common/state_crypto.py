"""The state encryption of a run: the configuration's own `terraform { encryption }` with the
control plane's default laid over it as `TF_ENCRYPTION` would be (OpenTofu's merge), so state
in the state bucket is always OpenTofu-format ciphertext under the stack's KMS key
(`aws_kms` key provider, `aes_gcm` method). A state written before encryption was turned on
still reads (an `unencrypted` fallback); every write is encrypted.

A terminal user reads the same state with the same blocks in their configuration (or in
TF_ENCRYPTION): `docs/control-plane.md` shows them."""

from __future__ import annotations

import os
from typing import Any

from functions.common.settings import settings

DEFAULT = """
key_provider "aws_kms" "groundplan" {{
  kms_key_id = "{key}"
  key_spec   = "AES_256"
  region     = "{region}"
}}
method "aes_gcm" "groundplan" {{
  keys = key_provider.aws_kms.groundplan
}}
method "unencrypted" "before_encryption" {{}}
state {{
  method = method.aes_gcm.groundplan
  fallback {{
    method = method.unencrypted.before_encryption
  }}
}}
"""


def default_blocks() -> str:
    """The control plane's encryption blocks (TF_ENCRYPTION's syntax)."""
    cfg = settings()
    return DEFAULT.format(key=cfg.kms_key_id, region=cfg.region)


def state_encryption(config_dir: str, var_args: list[tuple[str, str]]) -> Any:
    """The StateEncryption for the configuration in `config_dir` with the run's variables
    (as `-var` arguments, converted as the plan converts them)."""
    from engine.configs import load_config
    from engine.configs.variable_values import collect_root_inputs
    from engine.diags.render import render_diagnostics
    from engine.encryption.static import module_encryption

    config, diags = load_config(config_dir)
    if config is None or diags.has_errors:
        raise ValueError("the configuration cannot be loaded:\n" +
                         render_diagnostics(diags, box=False))
    environ = {**os.environ, "TF_ENCRYPTION": default_blocks()}
    inputs, _ = collect_root_inputs(config.module, var_args, environ, config_dir)
    enc, more = module_encryption(config.module, inputs.values, environ, config_dir)
    if enc is None or more.has_errors:
        raise ValueError("the state encryption is misconfigured:\n" +
                         render_diagnostics(more, box=False))
    return enc.state


_default: Any = None


def default_state_encryption() -> Any:
    """The control plane's own state encryption without a configuration (what every state it
    writes is encrypted with: its blocks are laid over any configuration's). For reading
    state where no configuration is at hand (the state inspector)."""
    global _default
    if _default is None:
        import tempfile

        with tempfile.TemporaryDirectory(prefix="groundplan-empty-") as empty:
            with open(os.path.join(empty, "main.tf"), "w") as fh:
                fh.write("")
            _default = state_encryption(empty, [])
    return _default
