"""Package hashes (checked against hashes terraform 1.11.4 recorded) and mirror layouts."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from engine.addrs import Provider
from engine.getproviders.hashing import hash_dir_v1, hash_zip_legacy, hash_zip_v1, package_matches
from engine.getproviders.mirror import FilesystemMirror, search_mirror

# terraform init -plugin-dir wrote this h1: for the package built by _tiny_package
TERRAFORM_TINY_H1 = "h1:mR62CCN+5CjndRSTnFfsq3t+kaksLn4a63CwsXTosP0="
TINY = Provider("registry.terraform.io", "example", "tiny")


def _tiny_package(directory: Path) -> Path:
    directory.mkdir(parents=True)
    exe = directory / "terraform-provider-tiny_v1.2.0"
    exe.write_text("#!/bin/sh\necho hi\n")
    exe.chmod(0o755)
    (directory / "sub").mkdir()
    (directory / "sub" / "README.txt").write_text("notes\n")
    return directory


def _zip(src: Path, archive: Path) -> Path:
    archive.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archive, "w") as zf:
        for root, _, files in os.walk(src):
            for fn in files:
                full = Path(root) / fn
                zf.write(full, full.relative_to(src).as_posix())
    return archive


def test_dir_hash_equals_terraforms(tmp_path: Path) -> None:
    pkg = _tiny_package(tmp_path / "pkg")
    assert hash_dir_v1(str(pkg)) == TERRAFORM_TINY_H1
    (pkg / "sub" / "README.txt").write_text("changed\n")
    assert hash_dir_v1(str(pkg)) != TERRAFORM_TINY_H1


def test_zip_hash_equals_unpacked_hash(tmp_path: Path) -> None:
    pkg = _tiny_package(tmp_path / "pkg")
    archive = _zip(pkg, tmp_path / "tiny.zip")
    assert hash_zip_v1(str(archive)) == TERRAFORM_TINY_H1
    zh = hash_zip_legacy(str(archive))
    assert zh.startswith("zh:") and len(zh) == 3 + 64
    assert package_matches(str(archive), [zh])
    assert package_matches(str(archive), [TERRAFORM_TINY_H1])
    assert not package_matches(str(pkg), [zh])
    assert not package_matches(str(pkg), ["h1:AAAA", "xx:unknown"])


def test_mirror_finds_both_layouts(tmp_path: Path) -> None:
    base = tmp_path / "mirror"
    _tiny_package(base / "registry.terraform.io/example/tiny/1.2.0/linux_amd64")
    _zip(
        _tiny_package(tmp_path / "src"),
        base / "registry.terraform.io/example/tiny/terraform-provider-tiny_1.3.0_linux_amd64.zip",
    )
    (base / "registry.terraform.io/example/tiny/not-a-version").mkdir()
    (base / "registry.terraform.io/example/tiny/terraform-provider-tiny_1.4.0_darwin_arm64.zip").write_text("")
    found = {(str(p.version), p.platform, p.is_archive) for p in search_mirror(str(base))}
    assert found == {("1.2.0", "linux_amd64", False), ("1.3.0", "linux_amd64", True), ("1.4.0", "darwin_arm64", True)}
    mirror = FilesystemMirror(str(base), "linux_amd64")
    assert [str(v) for v in mirror.available_versions(TINY)] == ["1.2.0", "1.3.0"]
    assert mirror.available_versions(Provider("registry.terraform.io", "example", "other")) == []
