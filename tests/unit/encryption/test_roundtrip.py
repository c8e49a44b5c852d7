"""Round trips for every key provider x method, chains included: what one build encrypts, a
second build of the same configuration (a new process: nothing cached in the objects)
decrypts, for the state and for saved plans. KMS runs against moto (mock_aws)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest
from moto import mock_aws

from tests.unit.encryption.support import STATE, aes, build, external_command, pbkdf2

PLAN = b"PK\x03\x04" + bytes(range(256)) * 4


@pytest.fixture
def kms_key() -> Iterator[str]:
    with mock_aws():
        client = boto3.client("kms", region_name="us-east-1", aws_access_key_id="testing",
                              aws_secret_access_key="testing")
        yield client.create_key(Description="state key")["KeyMetadata"]["KeyId"]


def kms(name: str, key_id: str, spec: str = "AES_256", extra: str = "") -> str:
    return (f'key_provider "aws_kms" "{name}" {{\n  kms_key_id = "{key_id}"\n'
            f'  key_spec = "{spec}"\n  region = "us-east-1"\n  access_key = "testing"\n'
            f'  secret_key = "testing"\n{extra}}}\n')


def external(name: str, *args: str) -> str:
    return f'key_provider "external" "{name}" {{\n  command = {external_command(*args)}\n}}\n'


TARGETS = "state { method = method.aes_gcm.m }\nplan { method = method.aes_gcm.m }\n"


def providers(case: str, key_id: str) -> tuple[str, list[str]]:
    """The key provider blocks of `case`, and the metadata keys a payload must carry."""
    if case == "pbkdf2":
        return pbkdf2("k") + aes("m", "key_provider.pbkdf2.k"), ["key_provider.pbkdf2.k"]
    if case == "external":
        return (external("k", "the-secret-of-the-program")
                + aes("m", "key_provider.external.k"), ["key_provider.external.k"])
    if case == "aws_kms":
        return kms("k", key_id) + aes("m", "key_provider.aws_kms.k"), ["key_provider.aws_kms.k"]
    if case == "aws_kms_aes128":
        return (kms("k", key_id, "AES_128") + aes("m", "key_provider.aws_kms.k"),
                ["key_provider.aws_kms.k"])
    upstream = {"pbkdf2->pbkdf2": pbkdf2("up", "another-long-passphrase-here"),
                "external->pbkdf2": external("up", "program-secret-value"),
                "aws_kms->pbkdf2": kms("up", key_id)}[case]
    up_type = case.split("->")[0]
    chained = (f'key_provider "pbkdf2" "k" {{\n  chain = key_provider.{up_type}.up\n'
               "  iterations = 200000\n}\n")
    return (upstream + chained + aes("m", "key_provider.pbkdf2.k"),
            [f"key_provider.{up_type}.up", "key_provider.pbkdf2.k"])


CASES = ["pbkdf2", "external", "aws_kms", "aws_kms_aes128", "pbkdf2->pbkdf2",
         "external->pbkdf2", "aws_kms->pbkdf2"]


@pytest.mark.parametrize("case", CASES)
def test_round_trip(tmp_path: Path, kms_key: str, case: str) -> None:
    blocks, meta_keys = providers(case, kms_key)
    writer, diags = build(tmp_path / "w", blocks + TARGETS)
    assert not diags.has_errors, [(d.summary, d.detail) for d in diags]
    reader, _ = build(tmp_path / "r", blocks + TARGETS)
    stored_state = writer.state.encrypt(STATE)
    stored_plan = writer.plan.encrypt(PLAN)
    assert sorted(json.loads(stored_state)["meta"]) == sorted(meta_keys)
    assert sorted(json.loads(stored_plan)["meta"]) == sorted(meta_keys)
    assert b"hunter2" not in stored_state
    assert reader.state.decrypt(stored_state) == STATE
    assert reader.plan.decrypt(stored_plan) == PLAN
    assert reader.state.last_read.method == "method.aes_gcm.m"
    assert reader.state.last_read.key_providers[0] == "key_provider." + (
        "pbkdf2" if "->" in case else case.split("_aes")[0]) + ".k"
    # the writer reads its own output too, and a second write is a new ciphertext
    assert writer.state.decrypt(stored_state) == STATE
    assert writer.state.encrypt(STATE) != stored_state


def test_unencrypted_method_round_trip(tmp_path: Path) -> None:
    enc, diags = build(tmp_path, 'method "unencrypted" "u" {}\n'
                       "state { method = method.unencrypted.u }\n"
                       "plan { method = method.unencrypted.u }\n")
    assert not diags.has_errors
    assert [d.summary for d in diags.warnings] == ["Unencrypted method configured"]
    assert enc.state.encrypt(STATE) == STATE
    assert enc.state.decrypt(STATE) == STATE
    assert enc.plan.encrypt(PLAN) == PLAN and enc.plan.decrypt(PLAN) == PLAN


def test_encrypted_metadata_alias_names_the_meta_entry(tmp_path: Path) -> None:
    enc, diags = build(tmp_path, pbkdf2("k", extra='  encrypted_metadata_alias = "team-key"\n')
                       + aes("m", "key_provider.pbkdf2.k") + TARGETS)
    assert not diags.has_errors
    stored = enc.state.encrypt(STATE)
    assert list(json.loads(stored)["meta"]) == ["team-key"]
    assert enc.state.decrypt(stored) == STATE


def test_remote_state_targets(tmp_path: Path) -> None:
    enc, diags = build(tmp_path, pbkdf2("k") + pbkdf2("other", "a-different-passphrase")
                       + aes("m", "key_provider.pbkdf2.k")
                       + aes("o", "key_provider.pbkdf2.other")
                       + "remote_state_data_sources {\n  default { method = method.aes_gcm.m }\n"
                       '  remote_state_data_source "net" { method = method.aes_gcm.o }\n}\n')
    assert not diags.has_errors
    stored = enc.remote_state("anything").encrypt(STATE)
    assert enc.remote_state("net").decrypt(enc.remote_state("net").encrypt(STATE)) == STATE
    with pytest.raises(Exception, match=r"remote_state_data_source\.net"):
        enc.remote_state("net").decrypt(stored)
    assert enc.remote_state("other").decrypt(stored) == STATE
    assert enc.state.encrypt(STATE) == STATE  # no state target: plaintext
