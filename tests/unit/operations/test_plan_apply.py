"""plan / apply / destroy / refresh called as a Lambda handler would: requests in, results
out, no CLI and no terminal."""

from __future__ import annotations

import json
from pathlib import Path

from engine.operations import (
    ApplyRequest,
    PlanRequest,
    apply,
    destroy,
    plan,
    refresh,
)
from engine.plans.model import Action, Plan, PlanMode
from engine.states.statefile import read_state
from tests.unit.operations.conftest import RecordingView, backend_of

CONFIG = """
variable "greeting" {
  type = string
}
resource "terraform_data" "a" {
  input = var.greeting
}
resource "terraform_data" "b" {
  input = "${terraform_data.a.output}!"
}
output "b" {
  value = terraform_data.b.output
}
output "nothing" {
  value = null
}
"""


def _write(root: Path, text: str = CONFIG) -> None:
    (root / "main.tf").write_text(text, encoding="utf-8")


def _state(root: Path) -> dict:
    return json.loads((root / "terraform.tfstate").read_text(encoding="utf-8"))


def _plan_request(root: Path, view: RecordingView, **more: object) -> PlanRequest:
    fields: dict = {"variables": [("var", "greeting=hello")]}
    fields.update(more)
    return PlanRequest(working_dir=str(root), backend=backend_of(root), view=view, **fields)


def _apply_request(root: Path, view: RecordingView, **more: object) -> ApplyRequest:
    fields: dict = {"variables": [("var", "greeting=hello")], "command": "apply"}
    fields.update(more)
    return ApplyRequest(working_dir=str(root), backend=backend_of(root), view=view, **fields)


def test_plan_saves_a_plan_and_changes_no_state(workdir: Path) -> None:
    _write(workdir)
    view = RecordingView()
    result = plan(_plan_request(workdir, view, out="p.tfplan"))
    assert result.success, [d.summary for d in result.diagnostics]
    assert result.saved == "p.tfplan" and (workdir / "p.tfplan").is_file()
    assert result.changed
    assert result.plan is not None
    assert [(str(c.addr), c.action) for c in result.plan.changes] == [
        ("terraform_data.a", Action.CREATE), ("terraform_data.b", Action.CREATE)]
    # a null output is no output: no change is planned for it
    assert {o.name: o.action for o in result.plan.output_changes} == {
        "b": Action.CREATE, "nothing": Action.NOOP}
    assert not (workdir / "terraform.tfstate").exists()
    assert view.kinds() == ["plan"]
    # the view had the state manager while the state was locked, and lost it after
    assert view.managers[-1] is None and view.managers[0] is not None


def test_saved_plan_applies_once_then_is_stale(workdir: Path) -> None:
    _write(workdir)
    assert plan(_plan_request(workdir, RecordingView(), out="p.tfplan")).success
    view = RecordingView()
    result = apply(_apply_request(workdir, view, variables=[], plan_file="p.tfplan"))
    assert result.success, [d.summary for d in result.diagnostics]
    assert (result.counts.added, result.counts.changed, result.counts.removed) == (2, 0, 0)
    assert result.outputs["b"].value.v == "hello!"
    assert "nothing" not in result.outputs
    assert view.kinds()[0] == "saved"
    state = _state(workdir)
    assert [r["name"] for r in state["resources"]] == ["a", "b"]
    again = apply(_apply_request(workdir, RecordingView(), variables=[], plan_file="p.tfplan"))
    assert not again.success and not again.applied
    assert [d.summary for d in again.diagnostics.errors] == ["Saved plan is stale"]
    assert _state(workdir)["serial"] == state["serial"]


def test_saved_plan_refuses_changed_variables(workdir: Path) -> None:
    _write(workdir)
    assert plan(_plan_request(workdir, RecordingView(), out="p.tfplan")).success
    result = apply(_apply_request(workdir, RecordingView(), plan_file="p.tfplan",
                                  variables=[("var", "greeting=bye")]))
    assert [d.summary for d in result.diagnostics.errors] == [
        "Can't change variable when applying a saved plan"]
    assert not result.applied
    # the value the plan recorded, given again, is no change (terraform 1.11)
    result = apply(_apply_request(workdir, RecordingView(), plan_file="p.tfplan"))
    assert result.success and result.applied


def test_plan_and_apply_asks_the_approval_callback(workdir: Path) -> None:
    _write(workdir)
    asked: list[Plan] = []

    def no(p: Plan) -> bool:
        asked.append(p)
        return False

    view = RecordingView()
    result = apply(_apply_request(workdir, view, approve=no))
    assert result.cancelled and not result.applied and not result.success
    assert len(asked) == 1 and asked[0] is result.plan
    assert view.kinds() == ["plan"]  # shown before the question
    assert not (workdir / "terraform.tfstate").exists()

    result = apply(_apply_request(workdir, RecordingView(), approve=lambda p: True))
    assert result.success and result.counts.added == 2
    # nothing left to do: no question is asked for an empty plan
    result = apply(_apply_request(workdir, RecordingView(), approve=no))
    assert result.success and len(asked) == 1
    assert result.planned is not None and not result.planned.changed


def test_destroy_and_refresh(workdir: Path) -> None:
    _write(workdir)
    assert apply(_apply_request(workdir, RecordingView())).success
    refreshed = refresh(_apply_request(workdir, RecordingView(), command="refresh",
                                       approve=lambda p: False))
    assert refreshed.success and refreshed.plan is not None
    assert refreshed.plan.mode is PlanMode.REFRESH_ONLY
    gone = destroy(_apply_request(workdir, RecordingView(), command="destroy"))
    assert gone.success and gone.counts.removed == 2
    assert _state(workdir)["resources"] == [] and _state(workdir)["outputs"] == {}


def test_missing_variable_is_asked_for(workdir: Path) -> None:
    _write(workdir)
    asked: list[str] = []

    def ask(name: str, description: str) -> str:
        asked.append(name)
        return "hi"

    result = plan(_plan_request(workdir, RecordingView(), variables=[], ask_variable=ask))
    assert result.success and asked == ["greeting"]
    result = plan(_plan_request(workdir, RecordingView(), variables=[]))
    assert not result.success and result.plan is None
    assert [d.summary for d in result.diagnostics.errors] == ["No value for required variable"]


def test_bad_configuration_is_diagnosed_before_the_state_is_touched(workdir: Path) -> None:
    _write(workdir, 'resource "terraform_data" "a" {\n  input = var.missing\n}\n')
    view = RecordingView()
    result = plan(_plan_request(workdir, view, variables=[]))
    assert not result.success and result.plan is None
    err = result.diagnostics.errors[0]
    assert err.summary == "Reference to undeclared input variable"
    assert err.subject is not None and err.subject.start.line == 2
    assert view.managers == []  # never got as far as the state
    assert [d.summary for d in view.shown] == [d.summary for d in result.diagnostics]


def test_no_configuration_files(workdir: Path) -> None:
    result = plan(_plan_request(workdir, RecordingView(), variables=[]))
    assert [d.summary for d in result.diagnostics.errors] == ["No configuration files"]


def test_operations_do_not_depend_on_the_current_directory(workdir: Path,
                                                           tmp_path_factory) -> None:
    """A Lambda handler passes absolute paths and runs wherever it is."""
    root = tmp_path_factory.mktemp("config")
    _write(root)
    result = apply(ApplyRequest(working_dir=str(root), config_dir=str(root),
                                backend=backend_of(root), view=RecordingView(),
                                variables=[("var", "greeting=abs")]))
    assert result.success, [d.summary for d in result.diagnostics]
    sf, diags = read_state((root / "terraform.tfstate").read_text(encoding="utf-8"))
    assert sf is not None and not diags.has_errors
    assert [r.name for r in sf.state.resources] == ["a", "b"]
    assert not list(workdir.iterdir())
