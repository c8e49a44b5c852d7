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


def test_missing_local_directory_as_terraform(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text('module "m" {\n  source = "./nope"\n}\n')
    lines: list[str] = []
    got = install_modules(str(tmp_path), lines.append)
    assert lines == ["- m in "]  # as get prints it (init trims the line)
    assert [(d.summary, d.detail, d.subject) for d in got.diags] == [
        ("Unreadable module directory",
         "Unable to evaluate directory symlink: lstat nope: no such file or directory", None),
        ("Unreadable module directory",
         f'The directory  could not be read for module "m" at {tmp_path}/main.tf:1.', None)]
    # recorded all the same, with no directory, as terraform writes it
    assert [(r.key, r.source, r.dir) for r in got.records] == [("", "", "."), ("m", "./nope", "")]


def test_reinstall_on_source_change_drops_descendants(tmp_path: Path) -> None:
    (tmp_path / "a" / "sub").mkdir(parents=True)
    (tmp_path / "b").mkdir()
    (tmp_path / "main.tf").write_text('module "m" {\n  source = "./a"\n}\n')
    (tmp_path / "a" / "main.tf").write_text('module "s" {\n  source = "./sub"\n}\n')
    (tmp_path / "a" / "sub" / "main.tf").write_text("")
    (tmp_path / "b" / "main.tf").write_text("")
    write_manifest(str(tmp_path), install_modules(str(tmp_path), lambda _l: None).records)
    (tmp_path / "main.tf").write_text('module "m" {\n  source = "./b"\n}\nmodule "k" {\n'
                                      '  source = "./a/sub"\n}\n')
    lines: list[str] = []
    got = install_modules(str(tmp_path), lines.append)
    assert lines == ["- k in a/sub", "- m in b"]
    assert [(r.key, r.dir) for r in got.records] == [("", "."), ("k", "a/sub"), ("m", "b")]
    lines.clear()
    install_modules(str(tmp_path), lines.append, upgrade=True)
    assert lines == ["- k in a/sub", "- m in b"]


def test_records_of_removed_calls_stay(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "main.tf").write_text("")
    (tmp_path / "main.tf").write_text('module "m" {\n  source = "./a"\n}\n')
    write_manifest(str(tmp_path), install_modules(str(tmp_path), lambda _l: None).records)
    (tmp_path / "main.tf").write_text('module "n" {\n  source = "./a"\n}\n')
    got = install_modules(str(tmp_path), lambda _l: None)
    assert [r.key for r in got.records] == ["", "m", "n"]
