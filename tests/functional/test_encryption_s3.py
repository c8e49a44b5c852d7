"""Encrypted state on the S3 backend through the CLI (moto): migration plaintext ->
encrypted -> plaintext with an `unencrypted` fallback, every object in the bucket searched
for the secret while the state is encrypted, and a wrong passphrase refused with the object
unchanged. The encrypted document is what goes to S3."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tests.functional.s3_support import S3Env, backend_block, gp, ok
from tests.functional.s3_support import moto_s3 as moto_s3
from tests.functional.s3_support import s3env as s3env

KEY = "enc/terraform.tfstate"
SECRET = "s3-stored-secret-Pq7Lm3Zx"


def _write(d: Path, env: S3Env, encryption: str, value: str) -> None:
    (d / "backend.tf").write_text(backend_block(env.url, KEY))
    enc = f"terraform {{\n  encryption {{\n{encryption}  }}\n}}\n" if encryption else ""
    (d / "main.tf").write_text(enc + f'resource "terraform_data" "s" {{\n  input = "{value}"\n}}\n')


def _encryption(passphrase: str, primary: str, fallback: str) -> str:
    return (f'    key_provider "pbkdf2" "k" {{\n      passphrase = "{passphrase}"\n'
            "      iterations = 200000\n    }\n"
            '    method "aes_gcm" "m" {\n      keys = key_provider.pbkdf2.k\n    }\n'
            '    method "unencrypted" "u" {}\n'
            f"    state {{\n      method = method.{primary}\n"
            f"      fallback {{ method = method.{fallback} }}\n    }}\n")


def test_s3_migration_and_refusal(tmp_path: Path, s3env: S3Env) -> None:
    d = tmp_path / "w"
    d.mkdir()
    _write(d, s3env, "", "plain-" + SECRET)
    ok(gp(d, "init", "-input=false"))
    ok(gp(d, "apply", "-auto-approve", "-input=false"))
    assert b"plain-" + SECRET.encode() in s3env.body(KEY)
    _write(d, s3env, _encryption("the-s3-state-passphrase", "aes_gcm.m", "unencrypted.u"),
           SECRET)
    ok(gp(d, "apply", "-auto-approve", "-input=false"))
    stored = s3env.body(KEY)
    assert json.loads(stored)["encryption_version"] == "v0"
    for key in s3env.object_keys():
        assert SECRET.encode()[:12] not in s3env.body(key), key
    # a wrong passphrase: refused, the object as it was
    before = hashlib.sha256(stored).hexdigest()
    _write(d, s3env, _encryption("not-the-s3-passphrase", "aes_gcm.m", "unencrypted.u"),
           "changed-" + SECRET)
    r = gp(d, "apply", "-auto-approve", "-input=false")
    assert r.returncode == 1 and "Failed to decrypt state" in r.stdout + r.stderr
    assert "key_provider.pbkdf2.k" in r.stdout + r.stderr
    assert hashlib.sha256(s3env.body(KEY)).hexdigest() == before
    # back to plaintext with the encrypted method as fallback
    _write(d, s3env, _encryption("the-s3-state-passphrase", "unencrypted.u", "aes_gcm.m"),
           "back-" + SECRET)
    ok(gp(d, "apply", "-auto-approve", "-input=false"))
    doc = json.loads(s3env.body(KEY))
    assert "encryption_version" not in doc and doc["serial"] == 3
