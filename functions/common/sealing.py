"""Small secrets kept encrypted at rest: run variables and the like.

Envelope encryption with the control plane's KMS key: `GenerateDataKey` gives a data key, the
payload is sealed with AES-256-GCM under it (a fresh 12-byte nonce, the purpose and run id as
associated data, and as KMS encryption context), and only the encrypted data key travels with
the ciphertext. Nothing here logs or returns a plaintext it did not get."""

from __future__ import annotations

import base64
import json
import os
from typing import Any

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from functions.common.aws import client
from functions.common.settings import settings


def seal_bytes(data: bytes, purpose: str, run_id: str) -> bytes:
    """`data` encrypted for (`purpose`, `run_id`): a small JSON envelope."""
    context = {"purpose": purpose, "run": run_id}
    key = client("kms").generate_data_key(KeyId=settings().kms_key_id, KeySpec="AES_256",
                                          EncryptionContext=context)
    nonce = os.urandom(12)
    aad = json.dumps(context, sort_keys=True).encode()
    box = AESGCM(key["Plaintext"]).encrypt(nonce, data, aad)
    doc = {
        "v": 1,
        "key": base64.b64encode(key["CiphertextBlob"]).decode(),
        "nonce": base64.b64encode(nonce).decode(),
        "data": base64.b64encode(box).decode(),
    }
    return json.dumps(doc).encode()


def unseal_bytes(blob: bytes, purpose: str, run_id: str) -> bytes:
    """The bytes `seal_bytes` encrypted; raises if the key, context or ciphertext differ."""
    doc = json.loads(blob)
    context = {"purpose": purpose, "run": run_id}
    key = client("kms").decrypt(CiphertextBlob=base64.b64decode(doc["key"]),
                                EncryptionContext=context)["Plaintext"]
    aad = json.dumps(context, sort_keys=True).encode()
    return AESGCM(key).decrypt(base64.b64decode(doc["nonce"]), base64.b64decode(doc["data"]),
                               aad)


def seal(value: Any, purpose: str, run_id: str) -> bytes:
    """`value` (JSON-able) encrypted for (`purpose`, `run_id`)."""
    return seal_bytes(json.dumps(value).encode(), purpose, run_id)


def unseal(blob: bytes, purpose: str, run_id: str) -> Any:
    """The value `seal` encrypted."""
    return json.loads(unseal_bytes(blob, purpose, run_id))
