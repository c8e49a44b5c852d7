"""A `.terraform.lock.hcl` that cannot be used: terraform's diagnostics (as its Go error text
for the CLI), relative file names, and a lock file never half-written."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.addrs import Provider
from engine.depsfile import Locks, ProviderLock, load_locks, save_locks
from engine.depsfile import locks as locks_mod
from engine.operations.prepare import go_error_text

NULL = "registry.terraform.io/hashicorp/null"


def go_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str | bytes) -> str:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / ".terraform.lock.hcl"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    _, diags = load_locks(str(path))
    assert diags.has_errors
    return go_error_text(diags)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f'provider "{NULL}" {{\n  version = "3.2.1"\n  hashes = ["nope", "h1:abc"]\n}}\n',
         'Invalid provider hash string: Cannot interpret "nope" as a provider hash: hash string '
         "must start with a scheme keyword followed by a colon."),
        ('provider "not a/valid/addr/x" {\n  version = "3.2.1"\n}\n',
         "Invalid provider source address: The provider source address for a provider lock must "
         'be a valid, fully-qualified address of the form "hostname/namespace/type".'),
        ('provider "null" {\n  version = "3.2.1"\n}\n',
         "Non-normalized provider source address: The provider source address for this provider "
         f'lock must be written as "{NULL}", the fully-qualified and normalized form.'),
        (f'provider "{NULL}" {{\n  version = "banana"\n}}\n',
         "2 problems:\n\n"
         f"- Invalid provider version number: The selected version number for provider {NULL} is "
         "invalid: invalid specification; required format is three positive integers separated "
         "by periods.\n"
         f"- Invalid provider version number: The selected version number for provider {NULL} "
         'must be written in normalized form: "0.0.0".'),
        (f'provider "{NULL}" {{\n  version = "3.2"\n}}\n',
         f"Invalid provider version number: The selected version number for provider {NULL} "
         'must be written in normalized form: "3.2.0".'),
        (f'provider "{NULL}" {{\n  hashes = ["h1:abc"]\n}}\nprovider "{NULL}" {{\n  version = "3.2.1"\n}}\n',
         "2 problems:\n\n"
         '- Missing required argument: The argument "version" is required, but no definition was '
         "found.\n"
         f"- Duplicate provider lock: This lockfile already declared a lock for provider {NULL} at "
         ".terraform.lock.hcl:1,1-48."),
        (f'provider "{NULL}" {{\n  version = "3.2.1"\n  foo = 1\n}}\nmodule "x" {{}}\n',
         "2 problems:\n\n"
         '- Unsupported argument: An argument named "foo" is not expected here.\n'
         "- Dependency locks for modules are not yet supported: Terraform v1.11.4 only supports "
         "dependency locks for providers, not for modules. This configuration may be intended for "
         "a later version of Terraform that also supports dependency locks for modules."),
    ],
)
def test_invalid_lock_file_messages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, expected: str
) -> None:
    assert go_text(tmp_path, monkeypatch, text) == expected


def test_syntax_error_points_at_the_file_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / ".terraform.lock.hcl"
    path.write_text(f'provider "{NULL}" {{\n  version = "3.2.1"\n  hashes = [\n')
    _, diags = load_locks(str(path))
    [d] = diags.errors
    assert d.summary == "Missing expression"
    assert d.subject is not None and str(d.subject).startswith(".terraform.lock.hcl:4,")


def test_bytes_that_are_not_utf8_are_a_diagnostic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "Invalid character encoding" in go_text(tmp_path, monkeypatch, b"\xff\xfe provider")


def test_failed_save_keeps_the_old_lock_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / ".terraform.lock.hcl"
    path.write_text("# old\n")
    locks = Locks()
    locks.set(ProviderLock(Provider("registry.terraform.io", "hashicorp", "null"), "3.2.3"))

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(locks_mod.os, "fsync", broken_fsync)
    diags = save_locks(locks, str(path))
    assert [d.summary for d in diags.errors] == ["Failed to update dependency lock file"]
    assert path.read_text() == "# old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".terraform.lock.hcl"]
