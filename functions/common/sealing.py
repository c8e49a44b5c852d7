"""Small secrets kept encrypted at rest: run variables and the like.

Envelope encryption with the control plane's KMS key: `GenerateDataKey` gives a data key, the
payload is sealed with AES-256-GCM under it (a fresh 12-byte nonce, the purpose and run id as
associated data, and as KMS encryption context), and only the encrypted data key travels with
the ciphertext. Nothing here logs or returns a plaintext it did not get."""

from __future__ import annotations

import base64
import json
import os
import threading
from collections import OrderedDict
from typing import Any

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from functions.common.aws import client
from functions.common.settings import settings

#: data keys this process holds in the clear, the most recent few: (purpose, run id,
#: encrypted key) -> plaintext key; and per (purpose, run id) the key `reuse_key` seals with,
#: with how many messages it sealed. Random 96-bit nonces keep one key safe for far more
#: messages than _REUSE_MAX (NIST SP 800-38D: 2^32).
_plain: OrderedDict[tuple[str, str, bytes], bytes] = OrderedDict()
_reused: dict[tuple[str, str], list[Any]] = {}
_keys_mu = threading.Lock()
_PLAIN_KEPT = 256
_REUSE_MAX = 100_000


def _keep(purpose: str, run_id: str, blob: bytes, plain: bytes) -> None:
    with _keys_mu:
        _plain[(purpose, run_id, blob)] = plain
        _plain.move_to_end((purpose, run_id, blob))
        while len(_plain) > _PLAIN_KEPT:
            _plain.popitem(last=False)


def _data_key(context: dict[str, str], reuse: bool) -> tuple[bytes, bytes]:
    """(plaintext, encrypted) data key for `context`: a new one, or with `reuse` the one this
    process sealed with last for that context (until _REUSE_MAX messages)."""
    ident = (context["purpose"], context["run"])
    if reuse:
        with _keys_mu:
            found = _reused.get(ident)
            if found is not None and found[2] < _REUSE_MAX:
                found[2] += 1
                return found[0], found[1]
    key = client("kms").generate_data_key(KeyId=settings().kms_key_id, KeySpec="AES_256",
                                          EncryptionContext=context)
    plain, blob = key["Plaintext"], key["CiphertextBlob"]
    if reuse:
        with _keys_mu:
            if len(_reused) > _PLAIN_KEPT:
                _reused.clear()
            _reused[ident] = [plain, blob, 1]
        _keep(ident[0], ident[1], blob, plain)
    return plain, blob


def seal_bytes(data: bytes, purpose: str, run_id: str, reuse_key: bool = False) -> bytes:
    """`data` encrypted for (`purpose`, `run_id`): a small JSON envelope. With `reuse_key`,
    the data key may be one this process sealed other messages of that purpose and run with
    (many small objects, such as node results, then cost one KMS call per process)."""
    context = {"purpose": purpose, "run": run_id}
    plain, blob = _data_key(context, reuse_key)
    nonce = os.urandom(12)
    aad = json.dumps(context, sort_keys=True).encode()
    box = AESGCM(plain).encrypt(nonce, data, aad)
    doc = {
        "v": 1,
        "key": base64.b64encode(blob).decode(),
        "nonce": base64.b64encode(nonce).decode(),
        "data": base64.b64encode(box).decode(),
    }
    return json.dumps(doc).encode()


def unseal_bytes(blob: bytes, purpose: str, run_id: str) -> bytes:
    """The bytes `seal_bytes` encrypted; raises if the key, context or ciphertext differ.
    A data key this process decrypted (or made) for the same purpose and run is not asked of
    KMS again."""
    doc = json.loads(blob)
    context = {"purpose": purpose, "run": run_id}
    wrapped = base64.b64decode(doc["key"])
    with _keys_mu:
        key = _plain.get((purpose, run_id, wrapped))
    if key is None:
        key = client("kms").decrypt(CiphertextBlob=wrapped,
                                    EncryptionContext=context)["Plaintext"]
        _keep(purpose, run_id, wrapped, key)
    aad = json.dumps(context, sort_keys=True).encode()
    return AESGCM(key).decrypt(base64.b64decode(doc["nonce"]), base64.b64decode(doc["data"]),
                               aad)


def seal(value: Any, purpose: str, run_id: str) -> bytes:
    """`value` (JSON-able) encrypted for (`purpose`, `run_id`)."""
    return seal_bytes(json.dumps(value).encode(), purpose, run_id)


def unseal(blob: bytes, purpose: str, run_id: str) -> Any:
    """The value `seal` encrypted."""
    return json.loads(unseal_bytes(blob, purpose, run_id))
