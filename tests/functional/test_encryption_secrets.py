"""The byte-level test: a configuration with known secrets (a `random_password` from our
random provider, a sensitive variable given with -var, a sensitive output derived from it)
applied through a saved plan with state and plan encryption on. Every file under the working
directory (the state, its backup, the saved plan, .terraform, ...) is searched for each
secret and for every 8-byte fragment of it: zero hits. Then the same search against the
plaintext run shows the search finds them when they are there."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from engine.plugin.sdk.package import PROVIDERS, package
from tests.functional.encryption_support import gp, ok, pbkdf2_block, write_config

pytestmark = pytest.mark.slow

VAR_SECRET = "var-secret-Zq8vN2pL5xW7"
BODY = """
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "%s" }
  }
}
variable "token" {
  type      = string
  sensitive = true
}
resource "random_password" "db" {
  length  = 32
  special = false
}
resource "terraform_data" "holder" {
  input = var.token
}
output "password" {
  value     = random_password.db.result
  sensitive = true
}
output "connection" {
  value     = "postgres://admin:${random_password.db.result}@db/${var.token}"
  sensitive = true
}
"""


@pytest.fixture(scope="module")
def mirror(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("encryption-mirror")
    package("random", PROVIDERS["random"], root)
    return root


def fragments(secret: str, width: int = 8) -> set[bytes]:
    data = secret.encode()
    return {data[i:i + width] for i in range(len(data) - width + 1)}


def hits(workdir: Path, secrets: list[str]) -> list[str]:
    found = []
    for f in sorted(workdir.rglob("*")):
        if not f.is_file():
            continue
        data = f.read_bytes()
        for s in secrets:
            for frag in fragments(s):
                if frag in data:
                    found.append(f"{f.relative_to(workdir)}: {frag!r}")
    return found


def _run(workdir: Path, mirror: Path, encryption: str) -> list[str]:
    # write_config puts the encryption block in its own terraform block
    write_config(workdir, encryption, BODY % PROVIDERS["random"])
    ok(gp(workdir, "init", f"-plugin-dir={mirror}", "-input=false"), "init")
    ok(gp(workdir, "plan", "-out=tfplan", "-input=false", f"-var=token={VAR_SECRET}"), "plan")
    ok(gp(workdir, "apply", "-input=false", "tfplan"), "apply")
    outputs = json.loads(ok(gp(workdir, "output", "-json"), "output").stdout)
    password = outputs["password"]["value"]
    assert len(password) == 32
    assert outputs["connection"]["value"].endswith(VAR_SECRET)
    # a second apply writes the state again (backup of the first) and a new plan file
    ok(gp(workdir, "plan", "-out=tfplan2", "-input=false", f"-var=token={VAR_SECRET}"), "plan 2")
    return [password, VAR_SECRET]  # the connection output is made of these and literals


def test_no_secret_byte_anywhere_with_encryption(tmp_path: Path, mirror: Path) -> None:
    enc = (pbkdf2_block("k", "the-passphrase-lives-in-config")
           + "    state { method = method.aes_gcm.k }\n    plan { method = method.aes_gcm.k }\n")
    workdir = tmp_path / "encrypted"
    secrets = _run(workdir, mirror, enc)
    assert (workdir / "tfplan").exists() and (workdir / "terraform.tfstate").exists()
    assert hits(workdir, secrets) == []
    # nothing is a zip whose deflated members could hide a secret from a byte search
    for name in ("tfplan", "tfplan2"):
        assert json.loads((workdir / name).read_bytes())["encryption_version"] == "v0"


def test_the_search_finds_them_without_encryption(tmp_path: Path, mirror: Path) -> None:
    workdir = tmp_path / "plain"
    secrets = _run(workdir, mirror, "")
    found = hits(workdir, secrets)
    assert any(h.startswith("terraform.tfstate:") for h in found), found
    # the plaintext plans deflate their members: the first holds the variable, the second
    # (made after the apply) the password in its prior state
    for name, secret in (("tfplan", VAR_SECRET), ("tfplan2", secrets[0])):
        with zipfile.ZipFile(workdir / name) as zf:
            members = b"".join(zf.read(n) for n in zf.namelist())
        assert secret.encode() in members, name
