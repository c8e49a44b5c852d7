"""Refusals: a wrong key, a tampered or truncated payload, plaintext under `enforced`, a
disabled KMS key, a failing key program. Each is an EncryptionError whose diagnostic names
the target and the key provider."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest
from moto import mock_aws

from engine.encryption import EncryptionError
from tests.unit.encryption.support import STATE, aes, build, external_command, pbkdf2

TARGET = "state { method = method.aes_gcm.m }\n"


def _enc(tmp: Path, passphrase: str = "correct-horse-battery-staple", extra: str = "") -> object:
    enc, diags = build(tmp, pbkdf2("k", passphrase) + aes("m", "key_provider.pbkdf2.k")
                       + extra + TARGET)
    assert not diags.has_errors, [(d.summary, d.detail) for d in diags]
    return enc.state


def _refused(state: object, data: bytes, *needles: str) -> str:
    with pytest.raises(EncryptionError) as info:
        state.decrypt(data)  # type: ignore[attr-defined]
    text = str(info.value)
    assert text.startswith("Failed to decrypt state"), text
    for n in needles:
        assert n in text, text
    return text


def test_wrong_passphrase(tmp_path: Path) -> None:
    stored = _enc(tmp_path / "a").encrypt(STATE)  # type: ignore[attr-defined]
    other = _enc(tmp_path / "b", "a-completely-different-one")
    _refused(other, stored, "method.aes_gcm.m with key_provider.pbkdf2.k",
             "cipher: message authentication failed")


def test_tampered_byte(tmp_path: Path) -> None:
    state = _enc(tmp_path)
    doc = json.loads(state.encrypt(STATE))  # type: ignore[attr-defined]
    raw = bytearray(base64.b64decode(doc["encrypted_data"]))
    raw[40] ^= 0x01
    doc["encrypted_data"] = base64.b64encode(bytes(raw)).decode()
    _refused(state, json.dumps(doc).encode(), "key_provider.pbkdf2.k",
             "message authentication failed")


def test_truncated_payload(tmp_path: Path) -> None:
    state = _enc(tmp_path)
    stored = state.encrypt(STATE)  # type: ignore[attr-defined]
    _refused(state, stored[: len(stored) // 2], "invalid data format for decryption",
             "key_provider.pbkdf2.k")
    doc = json.loads(stored)
    doc["encrypted_data"] = base64.b64encode(base64.b64decode(doc["encrypted_data"])[:8]).decode()
    _refused(state, json.dumps(doc).encode(), "too small", "key_provider.pbkdf2.k")


def test_plaintext_refused_without_unencrypted_fallback(tmp_path: Path) -> None:
    enc, diags = build(tmp_path, pbkdf2("k") + aes("m", "key_provider.pbkdf2.k")
                       + "state {\n  method = method.aes_gcm.m\n  enforced = true\n}\n")
    assert not diags.has_errors
    _refused(enc.state, STATE, "unencrypted payload", "(enforced = true)",
             "method.aes_gcm.m with key_provider.pbkdf2.k")


def test_missing_metadata_is_no_key(tmp_path: Path) -> None:
    state = _enc(tmp_path)
    doc = json.loads(state.encrypt(STATE))  # type: ignore[attr-defined]
    doc["meta"] = {}
    _refused(state, json.dumps(doc).encode(), "decryption key is not available",
             "key_provider.pbkdf2.k")


def test_wrong_version(tmp_path: Path) -> None:
    state = _enc(tmp_path)
    doc = json.loads(state.encrypt(STATE))  # type: ignore[attr-defined]
    doc["encryption_version"] = "v9"
    _refused(state, json.dumps(doc).encode(), "invalid encrypted payload version: v9 != v0")


@pytest.fixture
def kms_client(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """moto's KMS, made to refuse a disabled key as AWS does (DisabledException on Encrypt,
    GenerateDataKey and Decrypt): moto records the key state but does not check it."""
    from moto.core.exceptions import JsonRESTError
    from moto.kms.models import KmsBackend

    def guarded(name: str) -> object:
        original = getattr(KmsBackend, name)

        def call(self: KmsBackend, *args: object, **kwargs: object) -> object:
            out = original(self, *args, **kwargs)
            arn = out[-1] if isinstance(out, tuple) else None
            for key in self.keys.values():
                if key.arn == arn and key.key_state == "Disabled":
                    raise JsonRESTError("DisabledException", f"{arn} is disabled.")
            return out
        return call

    for name in ("encrypt", "decrypt"):
        monkeypatch.setattr(KmsBackend, name, guarded(name))
    with mock_aws():
        yield boto3.client("kms", region_name="us-east-1", aws_access_key_id="testing",
                           aws_secret_access_key="testing")


def _kms_enc(tmp: Path, key_id: str) -> object:
    enc, diags = build(tmp, (
        f'key_provider "aws_kms" "main" {{\n  kms_key_id = "{key_id}"\n  key_spec = "AES_256"\n'
        '  region = "us-east-1"\n  access_key = "testing"\n  secret_key = "testing"\n'
        '  encryption_context = { team = "platform" }\n}\n')
        + aes("m", "key_provider.aws_kms.main") + TARGET)
    assert not diags.has_errors, [(d.summary, d.detail) for d in diags]
    return enc.state


def test_kms_key_disabled(tmp_path: Path, kms_client: object) -> None:
    key_id = kms_client.create_key()["KeyMetadata"]["KeyId"]  # type: ignore[attr-defined]
    stored = _kms_enc(tmp_path / "w", key_id).encrypt(STATE)  # type: ignore[attr-defined]
    meta = json.loads(base64.b64decode(json.loads(stored)["meta"]["key_provider.aws_kms.main"]))
    assert meta["encryption_context"] == {"team": "platform"}
    kms_client.disable_key(KeyId=key_id)  # type: ignore[attr-defined]
    _refused(_kms_enc(tmp_path / "r", key_id), stored, "key_provider.aws_kms.main",
             "failed to decrypt the data key", "DisabledException")
    with pytest.raises(EncryptionError) as info:
        _kms_enc(tmp_path / "w2", key_id).encrypt(STATE)  # type: ignore[attr-defined]
    assert "Failed to encrypt state" in str(info.value)
    assert "key_provider.aws_kms.main): failed to generate key: DisabledException" in str(info.value)


def test_kms_unknown_key(tmp_path: Path, kms_client: object) -> None:
    with pytest.raises(EncryptionError, match=r"aws_kms.main.*failed to generate key.*NotFound"):
        _kms_enc(tmp_path, "alias/missing").encrypt(STATE)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("flag", "needle"), [
    ("--fail", "exited with a non-zero exit code (exit status 1)"),
    ("--bad-header", "invalid magic received from external key provider: Not-The-Magic"),
    ("--short", "AES-GCM requires the key length to be one of: [16 24 32], received 8 bytes"),
])
def test_external_program_failures(tmp_path: Path, flag: str, needle: str) -> None:
    enc, diags = build(tmp_path, (
        f'key_provider "external" "prog" {{\n  command = {external_command("s3cr3t", flag)}\n}}\n'
        + aes("m", "key_provider.external.prog") + TARGET))
    assert not diags.has_errors
    with pytest.raises(EncryptionError) as info:
        enc.state.encrypt(STATE)
    text = str(info.value)
    assert "encryption failed for state (method.aes_gcm.m with key_provider.external.prog)" in text
    assert needle in text
    if flag == "--fail":
        assert "the key service refused the request" in text
