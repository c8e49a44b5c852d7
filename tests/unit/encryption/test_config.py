"""Configuration problems, each a diagnostic with the file and line, found before any state
is read; TF_ENCRYPTION's merge; static evaluation of variables and locals."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.values import string
from tests.unit.encryption.support import STATE, aes, build, pbkdf2

TARGET = "state { method = method.aes_gcm.m }\n"


def _errors(tmp: Path, body: str, extra: str = "", **kw: object) -> list[tuple[str, str, int]]:
    enc, diags = build(tmp, body, extra, **kw)  # type: ignore[arg-type]
    assert enc is None
    out = []
    for d in diags.errors:
        assert d.subject is not None, (d.summary, d.detail)
        assert d.subject.filename.endswith("main.tf")
        out.append((d.summary, d.detail, d.subject.start.line))
    return out


# line numbers: main.tf starts "terraform {", "  encryption {", then the body from line 3
@pytest.mark.parametrize(("body", "summary", "detail", "line"), [
    ('key_provider "pbkdf2" "k" {\n  passphrase = "short"\n}\n' + aes("m", "key_provider.pbkdf2.k")
     + TARGET, "Invalid key provider configuration", "passphrase is too short (minimum 16", 4),
    (pbkdf2("k", extra="  iterations = 1000\n").replace("  iterations = 200000\n", "")
     + aes("m", "key_provider.pbkdf2.k") + TARGET, "Invalid key provider configuration",
     "dangerously low", 5),
    (pbkdf2("k", extra='  hash_function = "md5"\n') + aes("m", "key_provider.pbkdf2.k") + TARGET,
     "Invalid key provider configuration", "invalid hash function name: md5", 6),
    (pbkdf2("k") + aes("m", "key_provider.pbkdf2.nope") + TARGET,
     "Reference to undeclared key provider", '"pbkdf2" "nope"', 8),
    ('key_provider "vault" "k" {}\n' + aes("m", "key_provider.vault.k") + TARGET,
     "Unknown key_provider type", 'Can not find "vault"', 3),
    (pbkdf2("k") + 'method "rot13" "m" {}\n' + TARGET, "Unknown encryption method type",
     'Can not find "rot13"', 7),
    (pbkdf2("k") + aes("m", "key_provider.pbkdf2.k") + "state { method = method.aes_gcm.x }\n",
     "Reference to undeclared encryption method", '"aes_gcm" "x"', 10),
    (pbkdf2("k") + aes("m", "key_provider.pbkdf2.k") + 'state { method = "aes" }\n',
     "Invalid encryption method identifier", "method.<type>.<name>", 10),
    (pbkdf2("k") + 'method "aes_gcm" "m" {\n}\n' + TARGET, "Missing required argument",
     '"keys" is required', 7),
    (pbkdf2("k", extra="  key_length = 20\n") + aes("m", "key_provider.pbkdf2.k") + TARGET,
     "Invalid method configuration", "received 20 bytes", 9),
    (pbkdf2("k") + aes("m", "key_provider.pbkdf2.k") + 'method "unencrypted" "u" {}\n'
     + "state {\n  method = method.aes_gcm.m\n  enforced = true\n"
     "  fallback { method = method.unencrypted.u }\n}\n",
     "Unencrypted method is forbidden", "enforced flag is set", 14),
    ('key_provider "pbkdf2" "a" {\n  chain = key_provider.pbkdf2.b\n}\n'
     'key_provider "pbkdf2" "b" {\n  chain = key_provider.pbkdf2.a\n}\n'
     + aes("m", "key_provider.pbkdf2.a") + TARGET, "Circular reference detected",
     "key_provider.pbkdf2.a -> key_provider.pbkdf2.b -> key_provider.pbkdf2.a", 7),
    ('key_provider "pbkdf2" "k" {\n  passphrase = "correct-horse-battery-staple"\n'
     '  chain = key_provider.pbkdf2.k\n}\n' + aes("m", "key_provider.pbkdf2.k") + TARGET,
     "Circular reference detected", "", 5),
    (pbkdf2("k") + pbkdf2("k") + aes("m", "key_provider.pbkdf2.k") + TARGET,
     "Duplicate key_provider", "key_provider.pbkdf2.k", 7),
    (pbkdf2("k", extra="  colour = 1\n") + aes("m", "key_provider.pbkdf2.k") + TARGET,
     "Unsupported argument", '"colour"', 6),
    ('key_provider "pbkdf2" "bad name" {}\n', "The provided key provider name is invalid",
     "bad name", 3),
    (pbkdf2("k") + aes("m", "key_provider.pbkdf2.k") + "state {\n  method = method.aes_gcm.m\n"
     '  enforced = "yes please"\n}\n', "Invalid enforced value", "literal true or false", 12),
    ('key_provider "aws_kms" "k" {\n  kms_key_id = "alias/x"\n  key_spec = "AES_512"\n'
     '  region = "eu-west-1"\n}\n' + aes("m", "key_provider.aws_kms.k") + TARGET,
     "Invalid key provider configuration", "invalid key_spec AES_512", 5),
    ('key_provider "external" "k" {\n  command = []\n}\n' + aes("m", "key_provider.external.k")
     + TARGET, "Invalid key provider configuration", "the command option is required", 4),
    (pbkdf2("k") + aes("m", "key_provider.pbkdf2.k") + "state {\n  fallback {}\n}\n",
     "Missing required argument", '"method" is required in state', 10),
])
def test_misconfiguration_is_located(tmp_path: Path, body: str, summary: str, detail: str,
                                     line: int) -> None:
    errs = _errors(tmp_path, body)
    assert any(s == summary and detail in d and ln == line for s, d, ln in errs), errs


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    errs = _errors(tmp_path, 'key_provider "pbkdf2" "a" {\n  passphrase = "short"\n}\n'
                   'key_provider "nope" "b" {}\nmethod "aes_gcm" "m" {\n  keys = '
                   "key_provider.pbkdf2.missing\n}\nstate { method = method.aes_gcm.zzz }\n")
    summaries = {s for s, _, _ in errs}
    assert {"Invalid key provider configuration", "Unknown key_provider type",
            "Reference to undeclared key provider",
            "Reference to undeclared encryption method"} <= summaries


def test_values_from_variables_and_locals(tmp_path: Path) -> None:
    extra = ('variable "pass" {\n  type = string\n  sensitive = true\n}\n'
             'locals {\n  rounds = 100000 * 2\n  kp = "key_provider.pbkdf2.k"\n}\n')
    body = ('key_provider "pbkdf2" "k" {\n  passphrase = var.pass\n  iterations = local.rounds\n'
            '}\nmethod "aes_gcm" "m" {\n  keys = local.kp\n}\n' + TARGET)
    enc, diags = build(tmp_path, body, extra,
                       values={"pass": string("a-passphrase-from-a-variable").mark("sensitive")})
    assert not diags.has_errors, [(d.summary, d.detail) for d in diags]
    assert enc.state.decrypt(enc.state.encrypt(STATE)) == STATE
    assert enc.state.methods[0].keys.iterations == 200000
    # without the value: an error at run time, nothing to check for validate
    errs = _errors(tmp_path / "b", body, extra)
    assert errs[0][0] == "Encryption configuration value not known"
    enc, diags = build(tmp_path / "c", body, extra, allow_unknown=True)
    assert enc is not None and not diags.has_errors
    # a short passphrase given through the variable is found as soon as it is known
    errs = _errors(tmp_path / "d", body, extra, values={"pass": string("too-short")})
    assert errs[0][:2] == ("Invalid key provider configuration",
                           "key_provider.pbkdf2.k: passphrase is too short (minimum 16 "
                           "characters)")


def test_resources_are_not_known_before_the_plan(tmp_path: Path) -> None:
    extra = 'resource "terraform_data" "p" {\n  input = "x"\n}\nlocals { p = terraform_data.p.output }\n'
    errs = _errors(tmp_path, 'key_provider "pbkdf2" "k" {\n  passphrase = local.p\n}\n'
                   + aes("m", "key_provider.pbkdf2.k") + TARGET, extra)
    assert errs[0][0] == "Invalid reference in encryption configuration"
    assert '"terraform_data" is not one' in errs[0][1]


def test_tf_encryption_merges_over_the_configuration(tmp_path: Path) -> None:
    """As OpenTofu's MergeConfigs: same type and name merge bodies (the environment's
    arguments win), new blocks are added, targets take the environment's method."""
    body = pbkdf2("k", "a-passphrase-that-is-overridden") + aes("m", "key_provider.pbkdf2.k") + TARGET
    env = ('key_provider "pbkdf2" "k" { passphrase = "the-passphrase-from-the-environment" }\n'
           'key_provider "pbkdf2" "e" {\n passphrase = "an-environment-only-key"\n'
           " iterations = 200000\n}\n"
           'method "aes_gcm" "e" { keys = key_provider.pbkdf2.e }\n'
           "state {\n  method = method.aes_gcm.e\n  fallback { method = method.aes_gcm.m }\n}\n")
    enc, diags = build(tmp_path, body, env={"TF_ENCRYPTION": env})
    assert not diags.has_errors, [(d.summary, d.detail) for d in diags]
    methods = enc.state.methods
    assert [m.addr for m in methods] == ["method.aes_gcm.e", "method.aes_gcm.m"]
    assert methods[1].keys.passphrase == "the-passphrase-from-the-environment"
    assert methods[1].keys.iterations == 200000  # kept from the configuration's body


def test_tf_encryption_alone_and_in_json(tmp_path: Path) -> None:
    env = ('{"key_provider": {"pbkdf2": {"k": {"passphrase": "a-json-configured-passphrase",'
           ' "iterations": 200000}}}, "method": {"aes_gcm": {"m": {"keys": '
           '"key_provider.pbkdf2.k"}}}, "state": {"method": "method.aes_gcm.m"}}')
    (tmp_path / "main.tf").write_text('output "x" { value = 1 }\n')
    from engine.configs import load_config
    from engine.encryption.static import module_encryption

    config, _ = load_config(str(tmp_path))
    enc, diags = module_encryption(config.module, {}, {"TF_ENCRYPTION": env}, str(tmp_path))
    assert not diags.has_errors, [(d.summary, d.detail) for d in diags]
    assert enc.state.decrypt(enc.state.encrypt(STATE)) == STATE
    enc, diags = module_encryption(config.module, {}, {"TF_ENCRYPTION": "state {"},
                                   str(tmp_path))
    assert enc is None and diags.errors[0].subject.filename == "TF_ENCRYPTION"
