"""The plan graph's steps: nodes, reference edges, module expansion, targets, cycles."""

from __future__ import annotations

from pathlib import Path

from engine.addrs import Module, parse_target
from engine.configs.loader import load_config
from engine.graph.builder import build_graph, plan_steps
from engine.graph.builder_nodes import CALL, LOCAL, OUTPUT, RESOURCE, VAR, Node
from engine.graph.steps import ConfigStep, ModuleExpansionStep, ReferencesStep
from tests.modules_init import init_modules

ROOT = Module()


def _config(tmp_path: Path, text: str, mod: str = "") -> object:
    (tmp_path / "main.tf").write_text(text)
    if mod:
        (tmp_path / "mod").mkdir()
        (tmp_path / "mod" / "main.tf").write_text(mod)
    init_modules(tmp_path)
    cfg, diags = load_config(str(tmp_path))
    assert not diags.has_errors, [str(d) for d in diags]
    return cfg


def test_node_names_follow_terraform() -> None:
    assert str(Node(RESOURCE, ROOT, "terraform_data.a")) == "terraform_data.a"
    assert str(Node(LOCAL, ROOT, "x")) == "local.x (expand)"
    assert str(Node(CALL, Module(("m",)), "n")) == "module.m.module.n (expand)"
    assert str(Node(OUTPUT, Module(("m",)), "o")) == "module.m.output.o (expand)"


def test_references_go_through_locals(tmp_path: Path) -> None:
    cfg = _config(tmp_path, '''
resource "terraform_data" "a" {}
locals { x = terraform_data.a.id }
resource "terraform_data" "b" { input = local.x }
resource "terraform_data" "c" { depends_on = [terraform_data.b] }
''')
    build, diags = build_graph(cfg, [ConfigStep(), ReferencesStep()])
    assert not diags.has_errors
    g = build.graph
    a, b, c = (Node(RESOURCE, ROOT, f"terraform_data.{n}") for n in "abc")
    assert g.has_edge(a, Node(LOCAL, ROOT, "x"))
    assert g.has_edge(Node(LOCAL, ROOT, "x"), b)
    assert g.has_edge(b, c)
    assert not g.has_edge(a, b)


def test_module_expansion_precedes_module_contents(tmp_path: Path) -> None:
    cfg = _config(tmp_path, '''
resource "terraform_data" "n" { input = 2 }
module "m" {
  source = "./mod"
  count  = 2
  v      = terraform_data.n.output
}
output "o" { value = module.m[0].out }
''', '''
variable "v" {}
resource "terraform_data" "inner" { input = var.v }
output "out" { value = terraform_data.inner.output }
''')
    build, _ = build_graph(cfg, [ConfigStep(), ReferencesStep(), ModuleExpansionStep()])
    g = build.graph
    m = Module(("m",))
    call = Node(CALL, ROOT, "m")
    assert g.has_edge(call, Node(RESOURCE, m, "terraform_data.inner"))
    assert g.has_edge(call, Node(VAR, m, "v"))
    assert g.has_edge(Node(RESOURCE, ROOT, "terraform_data.n"), Node(VAR, m, "v"))
    assert g.has_edge(Node(OUTPUT, m, "out"), Node(OUTPUT, ROOT, "o"))


def test_targets_keep_dependencies_and_dependent_outputs(tmp_path: Path) -> None:
    cfg = _config(tmp_path, '''
resource "terraform_data" "a" {}
resource "terraform_data" "b" { input = terraform_data.a.id }
resource "terraform_data" "c" { input = terraform_data.b.id }
output "ob" { value = terraform_data.b.id }
output "oc" { value = terraform_data.c.id }
''')
    build, _ = build_graph(cfg, plan_steps(None, [parse_target("terraform_data.b")]))
    names = sorted(str(n) for n in build.graph.nodes)
    assert names == ["output.ob (expand)", "terraform_data.a", "terraform_data.b"]


def test_cycle_names_every_member(tmp_path: Path) -> None:
    cfg = _config(tmp_path, '''
resource "terraform_data" "a" { input = terraform_data.b.output }
resource "terraform_data" "b" { input = local.x }
locals { x = terraform_data.a.id }
''')
    _build, diags = build_graph(cfg, plan_steps(None))
    assert diags.has_errors
    (d,) = list(diags)
    assert d.summary.startswith("Cycle: ")
    members = set(d.summary[len("Cycle: "):].split(", "))
    assert members == {"terraform_data.a", "terraform_data.b", "local.x (expand)"}


def test_provider_configuration_orders_its_resources(tmp_path: Path) -> None:
    from engine.graph.builder_nodes import PROVIDER

    cfg = _config(tmp_path, '''
variable "r" { default = "eu" }
locals { region = "${var.r}-1" }
provider "test" {
  alias  = "x"
  region = local.region
}
resource "test_thing" "a" { provider = test.x }
resource "test_thing" "b" {}
''')
    build, diags = build_graph(cfg, plan_steps(None))
    assert not diags.has_errors
    g = build.graph
    pnode = Node(PROVIDER, ROOT, 'provider["registry.terraform.io/hashicorp/test"].x')
    assert str(pnode) == 'provider["registry.terraform.io/hashicorp/test"].x'
    assert g.has_edge(Node(LOCAL, ROOT, "region"), pnode)
    assert g.has_edge(pnode, Node(RESOURCE, ROOT, "test_thing.a"))
    assert not g.has_edge(pnode, Node(RESOURCE, ROOT, "test_thing.b"))
