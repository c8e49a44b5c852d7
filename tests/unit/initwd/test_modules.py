"""Local module installation and modules.json, as terraform writes it."""

from __future__ import annotations

from pathlib import Path

from engine.configs import load_config
from engine.initwd import install_modules, read_manifest, write_manifest


def test_local_tree_and_manifest(tmp_path: Path) -> None:
    (tmp_path / "mod" / "sub").mkdir(parents=True)
    (tmp_path / "main.tf").write_text('module "a" {\n  source = "./mod"\n}\n')
    (tmp_path / "mod" / "main.tf").write_text('module "b" {\n  source = "./sub"\n}\n')
    (tmp_path / "mod" / "sub" / "main.tf").write_text('output "x" {\n  value = 1\n}\n')
    lines: list[str] = []
    got = install_modules(str(tmp_path), lines.append)
    assert not got.diags.has_errors
    assert lines == ["- a in mod", "- a.b in mod/sub"]
    assert not write_manifest(str(tmp_path), got.records).has_errors
    # byte for byte what terraform 1.11.4 wrote for this tree
    assert (tmp_path / ".terraform/modules/modules.json").read_text() == (
        '{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"a","Source":"./mod","Dir":"mod"},'
        '{"Key":"a.b","Source":"./sub","Dir":"mod/sub"}]}'
    )
    assert [r.key for r in read_manifest(str(tmp_path))] == ["", "a", "a.b"]
    config, diags = load_config(str(tmp_path))
    assert not diags.has_errors and "b" in config.children["a"].children


def test_remote_sources_are_errors(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(
        'module "r" {\n  source  = "hashicorp/consul/aws"\n  version = "0.1.0"\n}\n'
        'module "g" {\n  source = "git::https://example.com/x.git"\n}\n'
    )
    lines: list[str] = []
    got = install_modules(str(tmp_path), lines.append)
    assert [d.summary for d in got.diags] == ["Failed to download module", "Error accessing remote module registry"]
    assert lines == ["Downloading git::https://example.com/x.git for g..."]
