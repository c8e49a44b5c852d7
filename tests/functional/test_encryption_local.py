"""Encrypted local state through the CLI: key rotation (A, then B with A as fallback, then B
alone), migration plaintext -> encrypted -> plaintext, refusals that leave the stored bytes
as they were, `state re-encrypt`, workspaces, `state pull`-free reads (`show`, `output`,
`state list`) and `validate` reporting misconfigurations with file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.functional.encryption_support import (
    checksum,
    envelope,
    gp,
    ok,
    pbkdf2_block,
    write_config,
)

A = "passphrase-number-one-AAAA"
B = "passphrase-number-two-BBBB"


def body(value: str) -> str:
    return (f'resource "terraform_data" "d" {{\n  input = "{value}"\n}}\n'
            f'output "v" {{\n  value = terraform_data.d.output\n}}\n')


def state_with(name: str, fallback: str = "") -> str:
    fb = f"      fallback {{ method = method.{fallback} }}\n" if fallback else ""
    return f"    state {{\n      method = method.{name}\n{fb}    }}\n"


def kp_of(path: Path) -> list[str]:
    env = envelope(path)
    assert env is not None, path.read_text()[:200]
    return sorted(env["meta"])


def test_rotation_a_then_b_with_a_fallback_then_b_alone(tmp_path: Path) -> None:
    write_config(tmp_path, pbkdf2_block("a", A) + state_with("aes_gcm.a"), body("one"))
    ok(gp(tmp_path, "apply", "-auto-approve", "-input=false"), "apply with A")
    state = tmp_path / "terraform.tfstate"
    assert kp_of(state) == ["key_provider.pbkdf2.a"]
    # B primary, A fallback: a plan reads the A state, an apply writes it with B
    write_config(tmp_path, pbkdf2_block("a", A) + pbkdf2_block("b", B)
                 + state_with("aes_gcm.b", "aes_gcm.a"), body("two"))
    plan = ok(gp(tmp_path, "plan", "-input=false"), "plan with B, A fallback")
    assert "1 to change" in plan.stdout or "must be replaced" in plan.stdout or "~" in plan.stdout
    ok(gp(tmp_path, "apply", "-auto-approve", "-input=false"), "apply with B")
    assert kp_of(state) == ["key_provider.pbkdf2.b"]
    assert kp_of(tmp_path / "terraform.tfstate.backup") == ["key_provider.pbkdf2.a"]
    # A removed: the state still opens
    write_config(tmp_path, pbkdf2_block("b", B) + state_with("aes_gcm.b"), body("two"))
    again = ok(gp(tmp_path, "plan", "-input=false", "-detailed-exitcode"), "plan with B only")
    assert "No changes" in again.stdout
    assert json.loads(ok(gp(tmp_path, "output", "-json"), "output").stdout)["v"]["value"] == "two"
    # and a state still under A alone does not open with B alone
    before = checksum(tmp_path / "terraform.tfstate.backup")
    r = gp(tmp_path, "show", "terraform.tfstate.backup")
    assert r.code == 1 and "key_provider.pbkdf2.b" in r.text
    assert checksum(tmp_path / "terraform.tfstate.backup") == before


def test_migration_plaintext_encrypted_plaintext(tmp_path: Path) -> None:
    state = tmp_path / "terraform.tfstate"
    write_config(tmp_path, "", body("plain"))
    ok(gp(tmp_path, "apply", "-auto-approve", "-input=false"), "plaintext apply")
    assert envelope(state) is None
    unenc = '    method "unencrypted" "migrate" {}\n'
    write_config(tmp_path, pbkdf2_block("a", A) + unenc
                 + state_with("aes_gcm.a", "unencrypted.migrate"), body("middle-stage-value"))
    r = ok(gp(tmp_path, "apply", "-auto-approve", "-input=false"), "apply: to encrypted")
    assert "Unencrypted method configured" in r.text
    assert kp_of(state) == ["key_provider.pbkdf2.a"]
    assert b"middle-stage-value" not in state.read_bytes()
    write_config(tmp_path, pbkdf2_block("a", A) + unenc
                 + state_with("unencrypted.migrate", "aes_gcm.a"), body("plain-again"))
    ok(gp(tmp_path, "apply", "-auto-approve", "-input=false"), "apply: back to plaintext")
    assert envelope(state) is None
    assert json.loads(state.read_text())["outputs"]["v"]["value"] == "plain-again"
    assert json.loads(state.read_text())["serial"] == 3


REFUSALS = [
    ("wrong passphrase", lambda s: None, pbkdf2_block("a", "not-the-right-passphrase")
     + state_with("aes_gcm.a"), ["Failed to decrypt state", "key_provider.pbkdf2.a",
                                 "message authentication failed"]),
    ("tampered byte", "tamper", pbkdf2_block("a", A) + state_with("aes_gcm.a"),
     ["Failed to decrypt state", "key_provider.pbkdf2.a", "message authentication failed"]),
    ("truncated", "truncate", pbkdf2_block("a", A) + state_with("aes_gcm.a"),
     ["Failed to decrypt state", "invalid data format", "key_provider.pbkdf2.a"]),
]


def _tamper(path: Path, how: object) -> None:
    data = path.read_bytes()
    if how == "truncate":
        path.write_bytes(data[: len(data) - 40])
    elif how == "tamper":
        doc = json.loads(data)
        enc = doc["encrypted_data"]
        i = len(enc) // 2
        doc["encrypted_data"] = enc[:i] + ("A" if enc[i] != "A" else "B") + enc[i + 1:]
        path.write_text(json.dumps(doc))


@pytest.mark.parametrize(("name", "how", "config", "needles"), REFUSALS,
                         ids=[r[0] for r in REFUSALS])
def test_refusals_leave_the_stored_bytes(tmp_path: Path, name: str, how: object, config: str,
                                         needles: list[str]) -> None:
    write_config(tmp_path, pbkdf2_block("a", A) + state_with("aes_gcm.a"), body("x"))
    ok(gp(tmp_path, "apply", "-auto-approve", "-input=false"), "apply")
    state = tmp_path / "terraform.tfstate"
    _tamper(state, how)
    write_config(tmp_path, config, body("y"))
    files = sorted(p.name for p in tmp_path.iterdir())
    before = checksum(state)
    for cmd in (["plan", "-input=false"], ["apply", "-auto-approve", "-input=false"],
                ["state", "list"], ["output"], ["state", "re-encrypt"]):
        r = gp(tmp_path, *cmd)
        assert r.code == 1, (cmd, r.text)
        for n in needles:
            assert n in r.text, (cmd, r.text)
        assert checksum(state) == before, cmd
    assert sorted(p.name for p in tmp_path.iterdir()) == files


def test_enforced_refuses_plaintext(tmp_path: Path) -> None:
    state = tmp_path / "terraform.tfstate"
    write_config(tmp_path, "", body("plain"))
    ok(gp(tmp_path, "apply", "-auto-approve", "-input=false"), "plaintext apply")
    before = checksum(state)
    enforced = pbkdf2_block("a", A) + ("    state {\n      method = method.aes_gcm.a\n"
                                       "      enforced = true\n    }\n")
    write_config(tmp_path, enforced, body("plain"))
    r = gp(tmp_path, "plan", "-input=false")
    assert r.code == 1
    assert "unencrypted payload" in r.text and "(enforced = true)" in r.text
    assert "key_provider.pbkdf2.a" in r.text
    assert checksum(state) == before
    # enforced with an unencrypted fallback is a configuration error, found by validate
    write_config(tmp_path, enforced.replace("enforced = true\n", "enforced = true\n"
                 "      fallback { method = method.unencrypted.u }\n")
                 + '    method "unencrypted" "u" {}\n', body("plain"))
    v = gp(tmp_path, "validate", "-json")
    doc = json.loads(v.stdout)
    assert v.code == 1 and not doc["valid"]
    (d,) = [d for d in doc["diagnostics"] if d["severity"] == "error"]
    assert d["summary"] == "Unencrypted method is forbidden"
    assert d["range"]["filename"] == "main.tf" and d["range"]["start"]["line"] == 13
    assert checksum(state) == before


def test_validate_reports_every_misconfiguration_with_lines(tmp_path: Path) -> None:
    write_config(tmp_path, (
        '    key_provider "pbkdf2" "a" {\n      passphrase = "short"\n    }\n'
        '    key_provider "pbkdf2" "c1" {\n      chain = key_provider.pbkdf2.c2\n    }\n'
        '    key_provider "pbkdf2" "c2" {\n      chain = key_provider.pbkdf2.c1\n    }\n'
        '    method "aes_gcm" "m" {\n      keys = key_provider.nope.x\n    }\n'
        '    method "aes_gcm" "nokeys" {}\n'
        '    state { method = method.aes_gcm.missing }\n'), body("x"))
    r = gp(tmp_path, "validate", "-json")
    doc = json.loads(r.stdout)
    got = sorted((d["summary"], d["range"]["start"]["line"]) for d in doc["diagnostics"])
    assert got == [
        ("Circular reference detected", 10),
        ("Invalid key provider configuration", 4),
        ("Missing required argument", 15),
        ("Reference to undeclared encryption method", 16),
        ("Reference to undeclared key provider", 13),
    ], got
    assert not (tmp_path / "terraform.tfstate").exists()
    plan = gp(tmp_path, "plan", "-input=false")
    assert plan.code == 1 and "Circular reference detected" in plan.text
    assert not (tmp_path / "terraform.tfstate").exists()


def test_reencrypt_all_workspaces_and_json_status(tmp_path: Path) -> None:
    write_config(tmp_path, pbkdf2_block("a", A) + state_with("aes_gcm.a"), body("x"))
    ok(gp(tmp_path, "apply", "-auto-approve", "-input=false"), "apply default")
    ok(gp(tmp_path, "workspace", "new", "dev"), "workspace new")
    ok(gp(tmp_path, "apply", "-auto-approve", "-input=false"), "apply dev")
    dev = tmp_path / "terraform.tfstate.d" / "dev" / "terraform.tfstate"
    assert kp_of(dev) == ["key_provider.pbkdf2.a"]
    serial = json.loads(gp(tmp_path, "state", "re-encrypt", "-json").stdout)["workspaces"][0]
    assert serial["workspace"] == "dev" and serial["written_with"]["method"] == "method.aes_gcm.a"
    write_config(tmp_path, pbkdf2_block("a", A) + pbkdf2_block("b", B)
                 + state_with("aes_gcm.b", "aes_gcm.a"), body("x"))
    r = ok(gp(tmp_path, "state", "re-encrypt", "-all-workspaces", "-json"), "re-encrypt")
    doc = json.loads(r.stdout)
    assert doc["all_primary"] is True
    assert [(w["workspace"], w["read_with"]["key_providers"], w["written_with"]["key_providers"])
            for w in doc["workspaces"]] == [
        ("default", ["key_provider.pbkdf2.a"], ["key_provider.pbkdf2.b"]),
        ("dev", ["key_provider.pbkdf2.a"], ["key_provider.pbkdf2.b"])]
    for p in (tmp_path / "terraform.tfstate", dev):
        assert kp_of(p) == ["key_provider.pbkdf2.b"]
        assert kp_of(Path(str(p) + ".backup")) == ["key_provider.pbkdf2.a"]
    assert doc["workspaces"][1]["serial"] == 1
    # B alone now opens both; a human line names what each was read with
    write_config(tmp_path, pbkdf2_block("b", B) + state_with("aes_gcm.b"), body("x"))
    ok(gp(tmp_path, "plan", "-input=false"), "plan dev with B only")
    human = ok(gp(tmp_path, "state", "re-encrypt", "-all-workspaces"), "re-encrypt human")
    assert ('Workspace "default": read with method.aes_gcm.b (key_provider.pbkdf2.b), written '
            "with method.aes_gcm.b (key_provider.pbkdf2.b)") in human.stdout


def test_saved_plan_encrypted_and_refused_with_the_wrong_key(tmp_path: Path) -> None:
    enc = pbkdf2_block("a", A) + state_with("aes_gcm.a") + "    plan { method = method.aes_gcm.a }\n"
    write_config(tmp_path, enc, body("planned-value-123"))
    ok(gp(tmp_path, "plan", "-out=p.tfplan", "-input=false"), "plan -out")
    plan = tmp_path / "p.tfplan"
    assert kp_of(plan) == ["key_provider.pbkdf2.a"]
    assert b"planned-value-123" not in plan.read_bytes()
    shown = ok(gp(tmp_path, "show", "-json", "p.tfplan"), "show FILE")
    assert "planned-value-123" in shown.stdout
    write_config(tmp_path, enc.replace(A, B), body("planned-value-123"))
    before = checksum(plan)
    r = gp(tmp_path, "apply", "p.tfplan")
    assert r.code == 1 and "Failed to decrypt plan" in r.text and "key_provider.pbkdf2.a" in r.text
    assert checksum(plan) == before and not (tmp_path / "terraform.tfstate").exists()
    write_config(tmp_path, enc, body("planned-value-123"))
    ok(gp(tmp_path, "apply", "p.tfplan"), "apply FILE")
    assert kp_of(tmp_path / "terraform.tfstate") == ["key_provider.pbkdf2.a"]
