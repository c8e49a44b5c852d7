"""The lock file: Terraform's exact text, round trip, and its validation errors."""

from __future__ import annotations

from pathlib import Path

from engine.addrs import Provider
from engine.depsfile import Locks, ProviderLock, load_locks, parse_locks, render_locks, save_locks

AWS = Provider("registry.terraform.io", "hashicorp", "aws")
# written by terraform 1.11.4 (`terraform init -plugin-dir=...` with the aws 3.39.0 package)
TERRAFORM_LOCK = """# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/aws" {
  version     = "3.39.0"
  constraints = ">= 3.0.0, ~> 3.0, < 4.0.0"
  hashes = [
    "h1:goOMfGE4SjLps+hpxJFEM/pZFiNgvi6BMG8/w86+f6k=",
  ]
}
"""
TERRAFORM_LOCK_NO_CONSTRAINTS = """# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/aws" {
  version = "3.39.0"
  hashes = [
    "h1:goOMfGE4SjLps+hpxJFEM/pZFiNgvi6BMG8/w86+f6k=",
  ]
}
"""


def test_round_trip_is_byte_exact() -> None:
    for text in (TERRAFORM_LOCK, TERRAFORM_LOCK_NO_CONSTRAINTS):
        locks, diags = parse_locks(text, ".terraform.lock.hcl")
        assert not diags.has_errors, list(diags)
        assert render_locks(locks) == text


def test_render_sorts_providers_and_hashes(tmp_path: Path) -> None:
    locks = Locks()
    locks.set(ProviderLock(Provider("registry.terraform.io", "hashicorp", "random"), "3.6.0", "", ["zh:bb", "h1:aa", "zh:bb"]))
    locks.set(ProviderLock(AWS, "3.39.0", "~> 3.0", ["h1:x"]))
    path = tmp_path / ".terraform.lock.hcl"
    assert not save_locks(locks, str(path)).has_errors
    text = path.read_text()
    assert text.index("hashicorp/aws") < text.index("hashicorp/random")
    assert '    "h1:aa",\n    "zh:bb",\n  ]' in text
    again, diags = load_locks(str(path))
    assert not diags.has_errors and again.equal(locks)


def test_missing_file_is_no_locks(tmp_path: Path) -> None:
    locks, diags = load_locks(str(tmp_path / "absent.hcl"))
    assert not locks.providers and not diags


def test_invalid_lock_files() -> None:
    cases = {
        'provider "hashicorp/aws" {\n  version = "3.39.0"\n}\n': "Non-normalized provider source address",
        'provider "registry.terraform.io/hashicorp/aws" {\n  version = "3.39"\n}\n': "Invalid provider version number",
        'provider "registry.terraform.io/hashicorp/aws" {\n  version = "3.39.0"\n  constraints = "~>3.0"\n}\n':
            "Invalid provider version constraints",
        'provider "registry.terraform.io/hashicorp/aws" {\n  version = "3.39.0"\n  hashes = []\n}\n': "Invalid provider hash set",
        'provider "registry.terraform.io/hashicorp/aws" {\n  constraints = "3.0.0"\n}\n': "Missing required argument",
        'provider "terraform.io/builtin/terraform" {\n  version = "1.0.0"\n}\n': "Invalid provider source address",
    }
    for text, summary in cases.items():
        _, diags = parse_locks(text, "lock.hcl")
        assert diags.has_errors and summary in [d.summary for d in diags], (text, [d.summary for d in diags])
    dup = 'provider "registry.terraform.io/hashicorp/aws" {\n  version = "3.39.0"\n}\n' * 2
    _, diags = parse_locks(dup, "lock.hcl")
    assert [d.summary for d in diags] == ["Duplicate provider lock"]
