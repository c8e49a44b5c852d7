"""Test files loaded with the configuration, run blocks' modules installed and validated."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.configs.provider_reqs import provider_requirements
from engine.diags import Diagnostics
from engine.initwd import write_manifest
from engine.testing.loading import install_modules_with_tests, load_config_with_tests
from engine.testing.validate import target_exists, validate_test_files

SETUP = 'resource "null_resource" "s" {}\nmodule "inner" {\n  source = "./inner"\n}\n'


def _tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    _tree(tmp_path, {
        "main.tf": 'resource "terraform_data" "r" {}\n',
        "setup/main.tf": SETUP,
        "setup/inner/main.tf": 'output "x" {\n  value = 1\n}\n',
        "main.tftest.hcl": 'run "setup" {\n  module {\n    source = "./setup"\n  }\n}\n'
                           'run "plain" {}\n',
        "tests/b.tftest.hcl": 'run "again" {\n  module {\n    source = "./setup/"\n  }\n}\n',
    })
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_not_installed_until_init(workdir: Path) -> None:
    config, files, diags = load_config_with_tests(".")
    assert [(d.summary, d.subject.filename if d.subject else None) for d in diags] == [
        ("Module not installed", "main.tftest.hcl"),
        ("Module not installed", "tests/b.tftest.hcl")]
    assert [f.name for f in files] == ["main.tftest.hcl", "tests/b.tftest.hcl"]
    assert not config.test_modules


def test_init_installs_and_loader_finds_them(workdir: Path) -> None:
    lines: list[str] = []
    installed = install_modules_with_tests(".", lines.append)
    assert not installed.diags.has_errors and installed.has_modules
    assert lines == ["- test.main.setup in setup", "- test.main.setup.inner in setup/inner",
                     "- test.tests.b.again in setup", "- test.tests.b.again.inner in setup/inner"]
    assert not write_manifest(".", installed.records).has_errors
    doc = json.loads((workdir / ".terraform/modules/modules.json").read_text())
    assert [(r["Key"], r["Source"], r["Dir"]) for r in doc["Modules"]] == [
        ("", "", "."), ("test.main.setup", "./setup", "setup"),
        ("test.main.setup.inner", "./inner", "setup/inner"),
        ("test.tests.b.again", "./setup", "setup"),
        ("test.tests.b.again.inner", "./inner", "setup/inner")]
    config, files, diags = load_config_with_tests(".")
    assert not diags.has_errors, [d.summary for d in diags]
    run = files[0].runs[0]
    assert run.config is config.test_modules["test.main.setup"]
    assert run.config.path == () and "inner" in run.config.children
    assert files[0].runs[1].config is None
    # the run block's module's providers are the configuration's requirements too (init)
    reqs, _ = provider_requirements(config)
    assert {p.type for p in reqs} == {"terraform", "null"}
    assert {p.type for p in provider_requirements(config, tests=False)[0]} == {"terraform"}
    # a second walk keeps everything that is installed, silently
    lines.clear()
    again = install_modules_with_tests(".", lines.append)
    assert lines == [] and [r.key for r in again.records] == [r.key for r in installed.records]


def test_local_modules_validated_once_by_source(workdir: Path) -> None:
    write_manifest(".", install_modules_with_tests(".", lambda _l: None).records)
    config, files, _ = load_config_with_tests(".")
    seen: list[object] = []

    def validate(cfg: object) -> Diagnostics:
        seen.append(cfg)
        return Diagnostics()

    validate_test_files(config, files, validate)
    # ./setup and ./setup/ are the same source: validated once
    assert seen == [config.test_modules["test.main.setup"]]


def test_changed_source_and_removed_directory(workdir: Path) -> None:
    write_manifest(".", install_modules_with_tests(".", lambda _l: None).records)
    (workdir / "tests/b.tftest.hcl").write_text(
        'run "again" {\n  module {\n    source = "./setup/inner"\n  }\n}\n')
    os.rename("setup/inner", "gone")
    _config, _files, diags = load_config_with_tests(".")
    assert sorted(d.summary for d in diags) == [
        "Module not installed", "Module not installed", "Module source has changed"]


def test_target_exists(workdir: Path) -> None:
    from engine.addrs import parse_target

    write_manifest(".", install_modules_with_tests(".", lambda _l: None).records)
    config, _files, _ = load_config_with_tests(".")
    setup = config.test_modules["test.main.setup"]
    cases = {
        (config, "terraform_data.r"): True, (config, "terraform_data.r[0]"): True,
        (config, "null_resource.s"): False, (setup, "null_resource.s"): True,
        (setup, "module.inner"): True, (setup, 'module.inner["k"]'): True,
        (setup, "module.inner.null_resource.s"): False, (setup, "module.nope"): False,
        (setup, "data.null_resource.s"): False,
    }
    got = {k: target_exists(k[0], parse_target(k[1])) for k in cases}
    assert got == cases
