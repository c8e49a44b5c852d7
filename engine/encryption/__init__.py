"""State and plan encryption, configured as OpenTofu's `terraform { encryption { ... } }`.

The seam every storage uses, `StateEncryption` / `PlanEncryption` (bytes in, bytes out,
`EncryptionError` on failure, `PASSTHROUGH` without encryption), is engine.states.encryption,
re-exported here; this package implements it.

The package, as OpenTofu's internal/encryption (the blocks themselves, unevaluated, and the
TF_ENCRYPTION merge are engine.configs.encryption_config, decoded from HCL by
engine.configs.encryption_block): `static` (the
root module's encryption with variables and locals known before the plan), `build` (targets
resolved, methods and key providers built and checked), `registry` + `decode` (what each
type's body holds), `keyproviders` (pbkdf2, aws_kms, external), `methods` (aes_gcm,
unencrypted), `targets` (OpenTofu's v0 payload, primary then fallbacks). Storage imports only
engine.states.encryption, never this package.
"""

from engine.states.encryption import (
    PASSTHROUGH,
    EncryptionError,
    OperationEncryption,
    PlanEncryption,
    StateEncryption,
)

__all__ = ["PASSTHROUGH", "EncryptionError", "OperationEncryption", "PlanEncryption",
           "StateEncryption"]
