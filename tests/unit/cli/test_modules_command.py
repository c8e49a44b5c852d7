"""The `modules` listing's records and renderings (engine.cli.cmd_modules)."""

from __future__ import annotations

import json
from types import SimpleNamespace

from engine.cli.cmd_modules import ModuleEntry, render_json, render_tree, source_address


def _call(source: str) -> SimpleNamespace:
    return SimpleNamespace(source=source, is_local=source.startswith(("./", "../")))


def test_source_addresses_as_terraform_prints_them() -> None:
    assert source_address(_call("./a/../b/")) == "./b"
    assert source_address(_call("hashicorp/consul/aws")) == \
        "registry.terraform.io/hashicorp/consul/aws"
    assert source_address(_call("example.com/ns/name/aws//sub/dir")) == \
        "example.com/ns/name/aws//sub/dir"
    assert source_address(_call("git::https://example.com/x.git?ref=v1")) == \
        "git::https://example.com/x.git?ref=v1"


def test_labels_show_a_constraint_only_when_it_differs_from_the_version() -> None:
    assert ModuleEntry("a", "./a").label() == '"a"[./a]'
    assert ModuleEntry("v", "h/n/m/s", "1.2.0", "1.2.0").label() == '"v"[h/n/m/s] 1.2.0'
    assert ModuleEntry("v", "h/n/m/s", "1.2.0", "~> 1.0").label() == \
        '"v"[h/n/m/s] 1.2.0 (~> 1.0)'
    assert ModuleEntry("v", "./v", "", "~> 1.0").label() == '"v"[./v]'


def test_tree_and_json() -> None:
    entries = [ModuleEntry("a", "./a", children=[ModuleEntry("b", "../b")]),
               ModuleEntry("c", "./c")]
    assert render_tree(entries) == (
        '\nModules declared by configuration:\n.\n├── "a"[./a]\n'
        '│\u00a0\u00a0 └── "b"[../b]\n└── "c"[./c]\n\n')
    assert render_tree([]) == "No modules found in configuration.\n"
    assert json.loads(render_json(entries))["modules"] == [
        {"key": "a", "source": "./a", "version": ""},
        {"key": "b", "source": "../b", "version": ""},
        {"key": "c", "source": "./c", "version": ""}]
    assert render_json([]) == '{"format_version":"1.0","modules":null}\n'
