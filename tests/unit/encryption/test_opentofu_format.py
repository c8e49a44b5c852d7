"""OpenTofu's payload format, written independently here from its source
(internal/encryption/base.go, state.go, method/aesgcm, keyprovider/pbkdf2):

- the stored document is JSON: for state `{"serial", "lineage", "meta", "encrypted_data",
  "encryption_version": "v0"}` in that order (Go's embedded statedata then basedata), for plans
  the last three; `meta` maps a key provider's address to base64 of its metadata JSON and
  `encrypted_data` is base64 (Go's []byte encoding);
- pbkdf2 metadata is `{"salt","iterations","hash_function","key_length"}` (salt base64); the
  key is PBKDF2-HMAC(hash, passphrase, salt, iterations, key_length);
- aes_gcm's output is nonce(12) || ciphertext || tag(16), AAD from the method's `aad`.

The test's own implementation uses hashlib's PBKDF2 and the low-level GCM cipher mode, not
the code under test: payloads it builds must decrypt with groundplan, and groundplan's must
decrypt with it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from engine.encryption import EncryptionError
from engine.encryption.keyproviders.pbkdf2 import Pbkdf2KeyProvider
from tests.unit.encryption.support import PASSPHRASE, STATE, build, pbkdf2

KP = "key_provider.pbkdf2.k"


def tofu_seal(key: bytes, plain: bytes, aad: bytes = b"") -> bytes:
    nonce = os.urandom(12)
    enc = Cipher(algorithms.AES(key), modes.GCM(nonce)).encryptor()
    if aad:
        enc.authenticate_additional_data(aad)
    ct = enc.update(plain) + enc.finalize()
    return nonce + ct + enc.tag


def tofu_open(key: bytes, sealed: bytes, aad: bytes = b"") -> bytes:
    nonce, ct, tag = sealed[:12], sealed[12:-16], sealed[-16:]
    dec = Cipher(algorithms.AES(key), modes.GCM(nonce, tag)).decryptor()
    if aad:
        dec.authenticate_additional_data(aad)
    return dec.update(ct) + dec.finalize()


def tofu_pbkdf2_meta(salt: bytes, iterations: int = 200000, hash_name: str = "sha512",
                     length: int = 32) -> str:
    b64 = base64.b64encode(salt).decode()
    text = (f'{{"salt":"{b64}","iterations":{iterations},"hash_function":"{hash_name}",'
            f'"key_length":{length}}}')
    return base64.b64encode(text.encode()).decode()


def tofu_state_payload(plain: bytes, passphrase: str = PASSPHRASE, hash_name: str = "sha512",
                       length: int = 32, aad: bytes = b"") -> bytes:
    salt = os.urandom(32)
    key = hashlib.pbkdf2_hmac(hash_name, passphrase.encode(), salt, 200000, length)
    doc = json.loads(plain)
    meta = tofu_pbkdf2_meta(salt, 200000, hash_name, length)
    data = base64.b64encode(tofu_seal(key, plain, aad)).decode()
    return (f'{{"serial":{doc["serial"]},"lineage":"{doc["lineage"]}","meta":{{"{KP}":"{meta}"}},'
            f'"encrypted_data":"{data}","encryption_version":"v0"}}').encode()


def tofu_decrypt(stored: bytes, passphrase: str = PASSPHRASE, aad: bytes = b"") -> bytes:
    doc = json.loads(stored)
    assert doc["encryption_version"] == "v0"
    meta = json.loads(base64.b64decode(doc["meta"][KP]))
    assert list(meta) == ["salt", "iterations", "hash_function", "key_length"]
    key = hashlib.pbkdf2_hmac(meta["hash_function"], passphrase.encode(),
                              base64.b64decode(meta["salt"]), meta["iterations"],
                              meta["key_length"])
    return tofu_open(key, base64.b64decode(doc["encrypted_data"]), aad)


def _state_enc(tmp: Path, kp_extra: str = "", method_extra: str = "") -> object:
    cfg = pbkdf2(extra=kp_extra) + (
        f'method "aes_gcm" "m" {{\n  keys = key_provider.pbkdf2.k\n{method_extra}}}\n'
        "state { method = method.aes_gcm.m }\nplan { method = method.aes_gcm.m }\n")
    enc, diags = build(tmp, cfg)
    assert not diags.has_errors, list(diags)
    return enc


def test_opentofu_known_answer_pbkdf2_key() -> None:
    """The decryption key of OpenTofu's own example (pbkdf2/example_decrypt_test.go)."""
    salt = bytes([0x10, 0xec, 0x3d, 0x3f, 0xe0, 0x2a, 0xd2, 0xbe, 0xe6, 0xf1, 0xf5, 0x54, 0xf,
                  0x8e, 0x6b, 0xbe, 0x3b, 0x8b, 0x29, 0x44, 0x5c, 0xf5, 0x2, 0xd2, 0x7d, 0x47,
                  0xad, 0x55, 0x4a, 0xa8, 0x97, 0x1f])
    kp = Pbkdf2KeyProvider(KP, KP, passphrase="correct-horse-battery-staple", iterations=600000)
    meta = {KP: base64.b64decode(tofu_pbkdf2_meta(salt, 600000))}
    key = kp.decryption_key(meta)
    assert key is not None
    assert key.hex() == "225872367198760137e0a18580433447bbf578fbe2b87ff36aef3c175fe5709c"


@pytest.mark.parametrize(("hash_name", "length"), [("sha512", 32), ("sha256", 16),
                                                    ("sha256", 24)])
def test_payload_built_from_the_format_decrypts(tmp_path: Path, hash_name: str,
                                                length: int) -> None:
    enc = _state_enc(tmp_path)
    stored = tofu_state_payload(STATE, hash_name=hash_name, length=length)
    assert enc.state.decrypt(stored) == STATE  # type: ignore[attr-defined]


def test_ours_decrypts_under_the_formats_algorithm(tmp_path: Path) -> None:
    enc = _state_enc(tmp_path)
    stored = enc.state.encrypt(STATE)  # type: ignore[attr-defined]
    doc = json.loads(stored)
    assert list(doc) == ["serial", "lineage", "meta", "encrypted_data", "encryption_version"]
    assert doc["serial"] == 7 and doc["lineage"] == "3f2a6c1e-0000-4000-8000-000000000001"
    assert list(doc["meta"]) == [KP]
    assert tofu_decrypt(stored) == STATE
    assert b"hunter2" not in stored


def test_plan_envelope_has_no_state_fields(tmp_path: Path) -> None:
    enc = _state_enc(tmp_path)
    plan = b"PK\x03\x04 a zip archive"
    stored = enc.plan.encrypt(plan)  # type: ignore[attr-defined]
    assert list(json.loads(stored)) == ["meta", "encrypted_data", "encryption_version"]
    assert tofu_decrypt(stored) == plan
    assert enc.plan.decrypt(stored) == plan  # type: ignore[attr-defined]


def test_aad_both_ways(tmp_path: Path) -> None:
    enc = _state_enc(tmp_path, method_extra="  aad = [1, 2, 3, 250]\n")
    aad = bytes([1, 2, 3, 250])
    stored = enc.state.encrypt(STATE)  # type: ignore[attr-defined]
    assert tofu_decrypt(stored, aad=aad) == STATE
    with pytest.raises(Exception):  # noqa: B017 - the GCM tag check of the test's own code
        tofu_decrypt(stored)
    assert enc.state.decrypt(tofu_state_payload(STATE, aad=aad)) == STATE  # type: ignore[attr-defined]
    with pytest.raises(EncryptionError, match="message authentication failed"):
        enc.state.decrypt(tofu_state_payload(STATE))  # type: ignore[attr-defined]


def test_fresh_nonce_every_write_one_salt_per_process(tmp_path: Path) -> None:
    """As OpenTofu (the method is set up once per run): the salt is drawn once, the nonce on
    every encryption."""
    enc = _state_enc(tmp_path)
    a = json.loads(enc.state.encrypt(STATE))  # type: ignore[attr-defined]
    b = json.loads(enc.state.encrypt(STATE))  # type: ignore[attr-defined]
    assert a["meta"] == b["meta"]
    na = base64.b64decode(a["encrypted_data"])[:12]
    nb = base64.b64decode(b["encrypted_data"])[:12]
    assert na != nb


def test_serial_mismatch_between_envelope_and_state_is_refused(tmp_path: Path) -> None:
    enc = _state_enc(tmp_path)
    doc = json.loads(tofu_state_payload(STATE))
    doc["serial"] = 8
    with pytest.raises(EncryptionError, match="serial field mismatch 8 vs 7"):
        enc.state.decrypt(json.dumps(doc).encode())  # type: ignore[attr-defined]
