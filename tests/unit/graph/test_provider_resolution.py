"""Provider configuration resolution across modules (engine.graph.provider_resolution) and
the graph's use of it (ProviderStep): proxies for `providers` maps, inheritance of default
configurations, empty proxy blocks, aliases that must be passed, orphans from state."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.addrs import ROOT_MODULE, AbsProviderConfig, Module
from engine.addrs import Provider as ProviderAddr
from engine.graph.builder import Step, build_graph
from engine.graph.provider_resolution import ProviderMap, provider_map, resolve_resource
from engine.graph.steps import ConfigStep, ProviderStep, StateStep, provider_addr_for
from engine.states.state import Resource, ResourceInstance, ResourceInstanceObject, State
from tests.unit.configs.helpers import load_here, write

RANDOM = ProviderAddr("registry.terraform.io", "hashicorp", "random")
OTHER = ProviderAddr("example.com", "acme", "other")


def addr(module: tuple[str, ...], alias: str | None = None,
         provider: ProviderAddr = RANDOM) -> AbsProviderConfig:
    return AbsProviderConfig(Module(module) if module else ROOT_MODULE, provider, alias)


def load(tmp_path: Path, files: dict[str, str]) -> Any:
    config, diags = load_here(write(tmp_path, files))
    assert not diags.has_errors, [d.summary for d in diags]
    return config


def used_by(config: Any, path: tuple[str, ...], key: str) -> AbsProviderConfig | None:
    cfg = config.descendant(path)
    return resolve_resource(cfg, cfg.module.resource(key))


RES = 'resource "random_id" "x" {\n  byte_length = 1\n}\n'


def test_children_inherit_the_default_configuration_up_to_the_root(tmp_path: Path) -> None:
    config = load(tmp_path, {
        "main.tf": 'module "a" {\n  source = "./a"\n}\n',
        "a/main.tf": RES + 'module "b" {\n  source = "../b"\n}\n',
        "b/main.tf": RES,
    })
    assert used_by(config, ("a",), "random_id.x") == addr(())
    assert used_by(config, ("a", "b"), "random_id.x") == addr(())


def test_nearest_ancestor_block_wins(tmp_path: Path) -> None:
    config = load(tmp_path, {
        "main.tf": 'provider "random" {}\nmodule "a" {\n  source = "./a"\n}\n',
        "a/main.tf": 'provider "random" {\n  version = ">= 1.0"\n}\n'
                     'module "b" {\n  source = "../b"\n}\n',
        "b/main.tf": RES,
    })
    assert used_by(config, ("a", "b"), "random_id.x") == addr(("a",))


def test_providers_map_proxies_to_the_parent_alias_and_grandchildren_inherit(
        tmp_path: Path) -> None:
    config = load(tmp_path, {
        "main.tf": 'provider "random" {\n  alias = "west"\n}\n'
                   'module "p" {\n  source    = "./a"\n  providers = { random = random.west }\n}\n',
        "a/main.tf": RES + 'module "b" {\n  source = "../b"\n}\n',
        "b/main.tf": RES,
    })
    assert used_by(config, ("p",), "random_id.x") == addr((), "west")
    assert used_by(config, ("p", "b"), "random_id.x") == addr((), "west")


def test_configuration_alias_resolves_through_two_levels(tmp_path: Path) -> None:
    child = ('terraform {\n  required_providers {\n    random = {\n      source = '
             '"hashicorp/random"\n      configuration_aliases = [random.second]\n    }\n  }\n}\n'
             'resource "random_id" "s" {\n  provider    = random.second\n  byte_length = 1\n}\n')
    config = load(tmp_path, {
        "main.tf": 'provider "random" {\n  alias = "east"\n}\n'
                   'module "q" {\n  source    = "./q"\n'
                   '  providers = { random.second = random.east }\n}\n',
        "q/main.tf": child + 'module "r" {\n  source    = "../r"\n'
                             '  providers = { random.second = random.second }\n}\n',
        "r/main.tf": child,
    })
    assert used_by(config, ("q",), "random_id.s") == addr((), "east")
    assert used_by(config, ("q", "r"), "random_id.s") == addr((), "east")


def test_empty_child_block_is_replaced_by_the_passed_configuration(tmp_path: Path) -> None:
    config = load(tmp_path, {
        "main.tf": 'provider "random" {\n  alias = "west"\n}\n'
                   'module "a" {\n  source    = "./a"\n  providers = { random = random.west }\n}\n'
                   'module "b" {\n  source = "./a"\n}\n',
        "a/main.tf": 'provider "random" {}\n' + RES,
    })
    assert used_by(config, ("a",), "random_id.x") == addr((), "west")
    # not passed anything: the empty block is a configuration of its own
    assert used_by(config, ("b",), "random_id.x") == addr(("b",))
    assert provider_map(config).proxied_blocks == {addr(("a",))}


def test_alias_not_passed_is_not_present(tmp_path: Path) -> None:
    config = load(tmp_path, {
        "main.tf": 'provider "random" {\n  alias = "west"\n}\nmodule "a" {\n  source = "./a"\n}\n',
        "a/main.tf": 'resource "random_id" "x" {\n  provider    = random.west\n'
                     '  byte_length = 1\n}\n',
    })
    cfg = config.descendant(("a",))
    res = cfg.module.resource("random_id.x")
    assert resolve_resource(cfg, res) is None
    # the address asked for, which ProviderStep reports as not present
    assert provider_addr_for(cfg, res) == addr(("a",), "west")
    _build, diags = build_graph(config, [ConfigStep(), StateStep(None), ProviderStep()])
    assert [(d.summary, d.detail.split(" its ")[0]) for d in diags] == [
        ("Provider configuration not present", "To work with module.a.random_id.x")]
    assert 'module.a.provider["registry.terraform.io/hashicorp/random"].west is' in \
        diags.errors[0].detail


def test_passing_a_configuration_the_parent_lacks_is_a_missing_provider(tmp_path: Path) -> None:
    config = load(tmp_path, {
        "main.tf": 'module "a" {\n  source    = "./a"\n  providers = { random = random.nope }\n}\n',
        "a/main.tf": RES,
    })
    pm = ProviderMap(config)
    assert [d.summary for d in pm.diagnostics] == [
        'missing provider provider["registry.terraform.io/hashicorp/random"].nope']


def test_required_providers_local_names_map_to_their_source(tmp_path: Path) -> None:
    config = load(tmp_path, {
        "main.tf": 'terraform {\n  required_providers {\n    other = { source = '
                   '"example.com/acme/other" }\n  }\n}\n'
                   'provider "other" {\n  alias = "x"\n}\n'
                   'module "a" {\n  source    = "./a"\n  providers = { mine = other.x }\n}\n',
        "a/main.tf": 'terraform {\n  required_providers {\n    mine = { source = '
                     '"example.com/acme/other" }\n  }\n}\n'
                     'resource "other_thing" "t" {\n  provider = mine\n}\n',
    })
    assert used_by(config, ("a",), "other_thing.t") == addr((), "x", OTHER)


def _state(module: str, provider: str) -> State:
    obj = ResourceInstanceObject(attributes={"id": "x"})
    st = State()
    st.resources.append(Resource("managed", "random_id", "gone", provider, module,
                                 instances=[ResourceInstance(0, obj), ResourceInstance(1, obj)]))
    return st


def test_orphans_need_the_configuration_their_state_records(tmp_path: Path) -> None:
    config = load(tmp_path, {
        "main.tf": 'module "a" {\n  source = "./a"\n}\n',
        "a/main.tf": 'provider "random" {\n  alias = "own"\n}\n',
    })
    steps: list[Step] = [ConfigStep(), StateStep(_state(
        "module.a", 'module.a.provider["registry.terraform.io/hashicorp/random"].own')),
        ProviderStep()]
    build, diags = build_graph(config, steps)
    assert not diags.has_errors
    provider = [n for n in build.graph.nodes if n.kind == "provider"]
    orphan = [n for n in build.graph.nodes if n.kind == "resource"]
    assert build.graph.has_edge(provider[0], orphan[0])

    gone = 'module.b.provider["registry.terraform.io/hashicorp/random"]'
    _b, diags = build_graph(config, [ConfigStep(), StateStep(_state("module.b", gone)),
                                     ProviderStep()])
    assert [d.detail.split(" its ")[0] for d in diags] == [
        "To work with module.b.random_id.gone[0] (orphan)",
        "To work with module.b.random_id.gone[1] (orphan)"]

    # the root's default configuration always exists
    _b, diags = build_graph(config, [ConfigStep(), StateStep(_state(
        "module.b", 'provider["registry.terraform.io/hashicorp/random"]')), ProviderStep()])
    assert not diags
