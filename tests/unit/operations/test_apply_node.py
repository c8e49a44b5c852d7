"""The per-node apply seam: a saved plan applied one node at a time, results passed as JSON
(as Lambda tasks would), merged by a finalize step, gives the state a local apply gives."""

from __future__ import annotations

import json
from pathlib import Path

from engine.apply.node import NodeResult
from engine.operations import (
    ApplyRequest,
    PlanRequest,
    apply,
    apply_graph,
    apply_node,
    finalize_apply,
    merge_results,
    plan,
)
from engine.plans.planfile import read_planfile
from engine.states.statefile import read_state
from tests.unit.operations.conftest import RecordingView, backend_of

CONFIG = """
resource "terraform_data" "a" {
  input = "one"
}
resource "terraform_data" "b" {
  input = "${terraform_data.a.output}-two"
}
resource "terraform_data" "c" {
  count = 2
  input = "${terraform_data.b.output}-${count.index}"
}
locals {
  joined = join(",", terraform_data.c[*].output)
}
output "joined" {
  value = local.joined
}
"""


def _plan(root: Path, text: str = CONFIG, name: str = "p.tfplan") -> str:
    (root / "main.tf").write_text(text, encoding="utf-8")
    result = plan(PlanRequest(working_dir=str(root), backend=backend_of(root),
                              view=RecordingView(), out=name))
    assert result.success, [d.summary for d in result.diagnostics]
    return str(root / name)


def _wire(result: NodeResult) -> dict:
    """Through JSON text and back, as a Lambda returns it."""
    text = result.to_json_text()
    data = json.loads(text)
    assert data["success"] is result.success
    return data


def test_graph_lists_nodes_and_what_they_wait_for(workdir: Path) -> None:
    path = _plan(workdir)
    graph, diags = apply_graph(path, working_dir=str(workdir))
    assert not diags.has_errors
    assert graph == {
        "terraform_data.a": [],
        "terraform_data.b": ["terraform_data.a"],
        "terraform_data.c[0]": ["terraform_data.a", "terraform_data.b"],
        "terraform_data.c[1]": ["terraform_data.a", "terraform_data.b"],
    }


def test_nodes_applied_one_by_one_give_the_local_apply_state(workdir: Path) -> None:
    path = _plan(workdir)
    pf, _ = read_planfile(path)
    assert pf is not None
    wd = str(workdir)
    done: list[dict] = []
    for node in ["terraform_data.a", "terraform_data.b", "terraform_data.c[1]",
                 "terraform_data.c[0]"]:
        result = apply_node(path, node, done, working_dir=wd)
        assert result.success, [(d.summary, d.detail) for d in result.diagnostics]
        assert result.id == node and result.kind == "apply"
        assert [r.addr for r in result.records] == [node]
        done.append(_wire(result))
    b = NodeResult.from_json(done[1])
    assert b.records[0].object is not None
    assert b.records[0].object.attributes["input"]["value"] == "one-two"
    assert b.records[0].object.dependencies == ["terraform_data.a"]
    state, diags = finalize_apply(path, done, working_dir=wd)
    assert not diags.has_errors, [d.summary for d in diags]
    assert state is not None
    assert state.outputs["joined"].value.v == "one-two-0,one-two-1"
    inputs = {f"{rs.name}{'' if i.index_key is None else [i.index_key]}":
              i.current.attributes["input"]["value"]
              for rs in state.resources for i in rs.instances if i.current is not None}
    assert inputs == {"a": "one", "b": "one-two", "c[0]": "one-two-0", "c[1]": "one-two-1"}

    # the same plan applied locally records the same objects (ids are random; compare
    # everything else)
    local = apply(ApplyRequest(working_dir=wd, backend=backend_of(workdir), view=RecordingView(),
                               plan_file=path, command="apply"))
    assert local.success and local.state is not None
    assert local.state.outputs["joined"].value.v == "one-two-0,one-two-1"
    def shape(s):
        return sorted((rs.address, repr(i.index_key), i.current.attributes["input"]["value"],
                       i.current.dependencies, i.current.status)
                      for rs in s.resources for i in rs.instances if i.current is not None)
    assert shape(local.state) == shape(state)


def test_a_node_without_its_dependencies_fails_cleanly(workdir: Path) -> None:
    path = _plan(workdir)
    wd = str(workdir)
    result = apply_node(path, "terraform_data.c[0]", [], working_dir=wd)
    assert not result.success and result.records == []
    assert [d.detail for d in result.diagnostics] == [
        "terraform_data.c[0] waits for terraform_data.a, terraform_data.b, whose results "
        "were not given."]
    data = _wire(result)
    assert data["diagnostics"][0]["summary"] == "Dependencies not applied"
    # results already merged into the state given count as done when named
    a = apply_node(path, "terraform_data.a", [], working_dir=wd)
    merged = merge_results(None, [a])
    b = apply_node(path, "terraform_data.b", [], working_dir=wd, state=merged,
                   completed=["terraform_data.a"])
    assert b.success, [d.summary for d in b.diagnostics]


def test_unknown_node_and_bad_plan_are_diagnostics(workdir: Path) -> None:
    path = _plan(workdir)
    result = apply_node(path, "terraform_data.zzz", [], working_dir=str(workdir))
    assert [d.summary for d in result.diagnostics] == ["No such node in the plan"]
    (workdir / "junk").write_text("not a plan", encoding="utf-8")
    result = apply_node(str(workdir / "junk"), "terraform_data.a", [], working_dir=str(workdir))
    assert not result.success


def test_destroy_nodes_and_merge(workdir: Path) -> None:
    wd = str(workdir)
    (workdir / "main.tf").write_text(CONFIG, encoding="utf-8")
    assert apply(ApplyRequest(working_dir=wd, backend=backend_of(workdir), view=RecordingView(),
                              command="apply")).success
    sf, _ = read_state((workdir / "terraform.tfstate").read_text(encoding="utf-8"))
    assert sf is not None
    from engine.plans.model import PlanMode

    result = plan(PlanRequest(working_dir=wd, backend=backend_of(workdir), view=RecordingView(),
                              mode=PlanMode.DESTROY, out="d.tfplan"))
    assert result.success
    graph, _ = apply_graph("d.tfplan", working_dir=wd)
    # destroys run in reverse dependency order
    assert graph["terraform_data.a (destroy)"] == [
        "terraform_data.b (destroy)", "terraform_data.c[0] (destroy)",
        "terraform_data.c[1] (destroy)"]
    done = []
    for node in ["terraform_data.c[0] (destroy)", "terraform_data.c[1] (destroy)",
                 "terraform_data.b (destroy)", "terraform_data.a (destroy)"]:
        r = apply_node("d.tfplan", node, done, working_dir=wd)
        assert r.success, [d.summary for d in r.diagnostics]
        assert [rec.object for rec in r.records] == [None]
        done.append(r)
    assert merge_results(sf.state, done).resources == []
    state, diags = finalize_apply("d.tfplan", done, working_dir=wd)
    assert state is not None and not diags.has_errors
    assert state.resources == [] and state.outputs == {}
