"""Multi-step terraform_data scenarios: groundplan must do what terraform does, step by step.

Each scenario in scenarios/*.yaml runs through the real terraform binary in one working
directory and through groundplan in another. Terraform's run is first checked against what the
scenario declares (exit codes, error summaries, some planned actions), so a scenario that no
longer tests what it says fails loudly. Then groundplan runs the same steps, and each step's
observations (exit code, first error summary, plan JSON resource and output changes, outputs
and state after an apply) must equal terraform's from the same test run.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from tests.conformance.harness import require_terraform, run_groundplan
from tests.conformance.scenario_runner import (
    OPS,
    Scenario,
    Step,
    check_well_formed,
    compare_with_groundplan,
    describe_difference,
    document_diff,
    error_summaries,
    load_scenarios,
    normalise_document,
    run_step,
    run_terraform,
    run_terraform_side,
)

SCENARIOS = load_scenarios()

# Behaviours the suite must keep covering; each maps to a predicate over a scenario.
_TF = "main.tf"


def _texts(s: Scenario) -> str:
    return "\n".join(text for step in s.steps for text in step.files.values())


def _ops(s: Scenario) -> set[str]:
    return {step.op for step in s.steps}


def _args(s: Scenario) -> str:
    return " ".join(a for step in s.steps for a in step.args)


def _planned(s: Scenario) -> list[list[str]]:
    return [a for step in s.steps for a in step.actions.values()]


COVERAGE = {
    "create": lambda s: ["create"] in _planned(s),
    "update in place": lambda s: ["update"] in _planned(s),
    "replace via triggers_replace": lambda s: (
        "triggers_replace" in _texts(s) and ["delete", "create"] in _planned(s)
    ),
    "create_before_destroy": lambda s: ["create", "delete"] in _planned(s),
    "count": lambda s: "count.index" in _texts(s),
    "for_each map": lambda s: "for_each = local.items" in _texts(s),
    "for_each set": lambda s: "set(string)" in _texts(s),
    "moved": lambda s: "moved {" in _texts(s),
    "moved module call": lambda s: "moved {" in _texts(s) and "from = module." in _texts(s),
    "removed, forget": lambda s: ["forget"] in _planned(s),
    "invalid moved": lambda s: any(
        (step.error or "").startswith(("Moved object", "Ambiguous move", "Cyclic dependency in move"))
        for step in s.steps
    ),
    "depends_on": lambda s: "depends_on" in _texts(s),
    "replace_triggered_by": lambda s: "replace_triggered_by" in _texts(s),
    "prevent_destroy": lambda s: "prevent_destroy = true" in _texts(s),
    "ignore_changes": lambda s: "ignore_changes" in _texts(s),
    "-destroy": lambda s: "-destroy" in _args(s),
    "-refresh-only": lambda s: "-refresh-only" in _args(s),
    "-target": lambda s: "-target=" in _args(s),
    "-replace": lambda s: "-replace=" in _args(s),
    "-var": lambda s: "-var=" in _args(s),
    "-var-file / tfvars": lambda s: any(
        name.endswith(".tfvars") for step in s.steps for name in step.files
    ),
    "taint": lambda s: "taint" in _ops(s),
    "validate": lambda s: "validate" in _ops(s),
    "saved plan applied": lambda s: "apply" in _ops(s),
    "auto-approve apply": lambda s: "apply_auto" in _ops(s),
    "cycle": lambda s: any(step.error == "Cycle: " for step in s.steps),
    "sensitive": lambda s: "sensitive" in _texts(s),
    "variable validation": lambda s: "validation {" in _texts(s),
    "precondition": lambda s: "precondition {" in _texts(s),
    "postcondition": lambda s: "postcondition {" in _texts(s),
    "module with count": lambda s: 'module "' in _texts(s) and "count  = var.n" in _texts(s),
    "terraform_remote_state": lambda s: "terraform_remote_state" in _texts(s),
    "no-op plan": lambda s: any(st.op == "plan" and st.exit == 0 for st in s.steps),
    "large count": lambda s: "default = 50" in _texts(s),
    "null input": lambda s: "input = null" in _texts(s),
    "unknown nested input": lambda s: (
        "terraform_data.a.output" in _texts(s) and "nested" in _texts(s)
    ),
    "check block": lambda s: 'check "' in _texts(s) and "assert {" in _texts(s),
    "module with count and outputs": lambda s: (
        "count  = var.n" in _texts(s) and "module.m[*]" in _texts(s)
    ),
    "sensitive nested in a list": lambda s: "[var.password" in _texts(s),
    "invalid reference": lambda s: any(
        (step.error or "").startswith("Reference to undeclared") for step in s.steps
    ),
}


def test_enough_scenarios() -> None:
    assert len(SCENARIOS) >= 32
    used_ops = set().union(*(_ops(s) for s in SCENARIOS.values()))
    assert used_ops >= OPS - {"none"}, f"ops never exercised: {sorted(OPS - used_ops)}"
    uncovered = [b for b, covers in COVERAGE.items() if not any(map(covers, SCENARIOS.values()))]
    assert not uncovered, f"no scenario covers: {uncovered}"


def test_well_formedness_check_catches_a_wrong_declaration() -> None:
    """The oracle check is not vacuous: a scenario declaring the wrong outcome is reported."""
    require_terraform()
    wrong = Scenario(
        "wrong",
        "declares no changes and a no-op for a plan that creates",
        [
            Step(
                op="plan",
                files={_TF: 'resource "terraform_data" "a" {\n  input = 1\n}\n'},
                exit=0,
                actions={"terraform_data.a": ["no-op"]},
            )
        ],
        "<test>",
    )
    problems = check_well_formed(wrong, run_terraform_side(wrong))
    assert len(problems) == 2, problems
    assert "exited 2" in problems[0]
    assert "['create']" in problems[1]


def test_error_summaries_are_read_from_terraform_output() -> None:
    """The summaries read from terraform's text output are those `validate -json` gives."""
    require_terraform()
    step = Step(
        op="validate",
        files={
            _TF: 'resource "terraform_data" "a" {\n  input = var.nope\n}\n'
            'resource "terraform_data" "b" {\n  input = local.nope\n}\n'
        },
        exit=1,
        error="undeclared",
    )
    with tempfile.TemporaryDirectory(prefix="gp-scn-err-") as tmp:
        work = Path(tmp)
        facts = run_step(run_terraform, work, step)
        text = run_terraform(work, "validate", "-no-color")
        as_json = run_terraform(work, "validate", "-json").json()
    errors = [d["summary"] for d in as_json["diagnostics"] if d["severity"] == "error"]
    assert len(errors) == 2
    assert sorted(error_summaries(text)) == sorted(errors)
    assert facts["exit"] == 1
    assert facts["error"] == error_summaries(text)[0]
    assert facts["error_count"] == 2
    problems = check_well_formed(Scenario("two", "", [step], "<test>"), [facts])
    assert any("2 errors" in p for p in problems), problems


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_matches_terraform(name: str) -> None:
    require_terraform()
    scenario = SCENARIOS[name]
    expected = run_terraform_side(scenario)
    malformed = check_well_formed(scenario, expected)
    assert not malformed, "SCENARIO MALFORMED (terraform disagrees with it):\n" + "\n".join(
        malformed
    )
    differences = compare_with_groundplan(scenario, expected)
    assert not differences, "\n".join(differences)


# Scenarios whose first configuration records check results (validations, conditions, checks).
CHECKED_STATES = ["check_blocks_pass_and_fail", "resource_conditions", "variables_validated"]


@pytest.mark.parametrize("name", CHECKED_STATES)
def test_show_json_of_terraform_state_matches(name: str) -> None:
    """groundplan renders a state terraform wrote (resources, outputs, recorded `checks`)
    exactly as `terraform show -json` does."""
    require_terraform()
    first = SCENARIOS[name].steps[0]
    step = Step(op="apply_auto", files=first.files, init=True, args=first.args)
    with tempfile.TemporaryDirectory(prefix="gp-scn-state-") as tmp:
        work = Path(tmp)
        facts = run_step(run_terraform, work, step)
        assert facts["exit"] == 0, facts
        want = facts["state"]
        assert want.get("checks"), "the scenario's state records no check results"
        got = normalise_document(run_groundplan(work, "show", "-json").json())
    assert got == want, document_diff(want, got)


def test_difference_report_names_paths_and_shows_a_diff() -> None:
    """A mismatch is reported as the differing JSON paths and a unified diff."""
    want = {"plan": {"a": [1, 2], "b": {"c": True}}, "exit": 0}
    got = {"plan": {"a": [1, 3], "d": 1}, "exit": 0}
    report = describe_difference(want, got)
    assert report.startswith("  plan (normalised JSON")
    assert ".a[1]: differs" in report
    assert ".b: only in terraform" in report
    assert ".d: only in groundplan" in report
    assert "-    3" not in report and "+    3" in report
    assert "exit" not in report
