"""Check results recorded by plan and apply walks: the plan's `checks` (saved in the plan
file), the state's `check_results` after an apply, refresh-only plans and failed conditions."""

from __future__ import annotations

from pathlib import Path

from engine.plans.codec import decode_plan, encode_plan
from engine.plans.model import PlanMode
from engine.plans.render_json import plan_to_json
from engine.states.state import CheckObjectResult, CheckResult
from engine.values import string
from tests.unit.planner.fakes import Harness, messages

MAIN = """
variable "v" {
  type    = string
  default = "good"
  validation {
    condition     = var.v != ""
    error_message = "empty"
  }
}
resource "terraform_data" "r" {
  input = var.v
  lifecycle {
    precondition {
      condition     = var.v != "never"
      error_message = "pre"
    }
    postcondition {
      condition     = self.output == "good"
      error_message = "The output is ${self.output}."
    }
  }
}
output "o" {
  value = terraform_data.r.output
  precondition {
    condition     = terraform_data.r.output != "never"
    error_message = "out"
  }
}
check "c" {
  assert {
    condition     = terraform_data.r.output == "good"
    error_message = "  not good  "
  }
}
"""


def _statuses(results: list[CheckResult] | None) -> dict[str, tuple[str, list[str]]]:
    out: dict[str, tuple[str, list[str]]] = {}
    for r in results or []:
        for o in r.objects or []:
            out[o.object_addr] = (o.status, o.failure_messages)
    return out


def test_plan_records_statuses_and_keeps_them_in_the_plan_file(tmp_path: Path) -> None:
    h = Harness(str(tmp_path), {"main.tf": MAIN})
    res = h.plan()
    assert not res.diagnostics.has_errors, messages(res.diagnostics)
    # a create: the postcondition, the output and the check wait for the new object
    assert _statuses(res.plan.checks) == {
        "var.v": ("pass", []),
        "terraform_data.r": ("unknown", []),
        "output.o": ("unknown", []),
        "check.c": ("unknown", []),
    }
    assert decode_plan(encode_plan(res.plan)).checks == res.plan.checks
    doc = plan_to_json(res.plan, None, None, {})
    assert [c["address"]["to_display"] for c in doc["checks"]] == [
        "check.c", "output.o", "terraform_data.r", "var.v"]


def test_apply_writes_check_results_and_the_next_plan_starts_afresh(tmp_path: Path) -> None:
    h = Harness(str(tmp_path), {"main.tf": MAIN})
    _res, applied = h.plan_apply()
    assert not applied.diagnostics.has_errors, messages(applied.diagnostics)
    sf = h.state()
    assert sf is not None
    assert [(r.config_addr, r.status) for r in sf.state.check_results or []] == [
        ("check.c", "pass"), ("output.o", "pass"), ("terraform_data.r", "pass"),
        ("var.v", "pass")]
    again = h.plan()
    assert again.prior_state.check_results is None
    # nothing changes: every condition is decided at plan time
    assert {s for s, _ in _statuses(again.plan.checks).values()} == {"pass"}


def test_failures_are_recorded_with_their_messages(tmp_path: Path) -> None:
    h = Harness(str(tmp_path), {"main.tf": MAIN})
    res = h.plan(variables={"v": string("bad")})
    applied = h.apply(res)
    assert "Resource postcondition failed" in messages(applied.diagnostics)
    sf = h.state()
    assert sf is not None
    got = {r.config_addr: r for r in sf.state.check_results or []}
    assert got["terraform_data.r"].status == "fail"
    assert got["terraform_data.r"].objects == [
        CheckObjectResult("terraform_data.r", "fail", ["The output is bad."])]
    # what depends on the failed resource is never evaluated: planned objects stay unknown
    assert got["output.o"].status == "unknown"
    assert got["output.o"].objects == [CheckObjectResult("output.o", "unknown")]


def test_check_block_failure_is_a_warning_with_a_trimmed_message(tmp_path: Path) -> None:
    lenient = MAIN.replace('self.output == "good"', 'self.output != ""')
    h = Harness(str(tmp_path), {"main.tf": lenient})
    h.plan_apply(variables={"v": string("meh")})
    res = h.plan(variables={"v": string("meh")})
    assert not res.diagnostics.has_errors
    assert "Check block assertion failed" in messages(res.diagnostics)
    assert _statuses(res.plan.checks)["check.c"] == ("fail", ["not good"])


def test_refresh_only_plan_checks_postconditions_as_warnings(tmp_path: Path) -> None:
    h = Harness(str(tmp_path), {"main.tf": MAIN})
    h.plan_apply()
    h.write({"main.tf": MAIN.replace('self.output == "good"', 'self.output == "other"')})
    res = h.plan(mode=PlanMode.REFRESH_ONLY)
    assert not res.diagnostics.has_errors
    assert "Resource postcondition failed" in messages(res.diagnostics)
    assert _statuses(res.plan.checks)["terraform_data.r"] == ("fail", ["The output is good."])


CHECK_DATA = """
check "ok" {
  data "terraform_remote_state" "s" {
    backend = "local"
    config  = { path = "other.tfstate" }
  }
  assert {
    condition     = data.terraform_remote_state.s.outputs.x == "hello"
    error_message = "not hello"
  }
}
check "bad" {
  data "terraform_remote_state" "t" {
    backend = "local"
    config  = { path = "missing.tfstate" }
  }
  assert {
    condition     = data.terraform_remote_state.t.outputs.x == "hello"
    error_message = "not hello"
  }
}
"""

OTHER_STATE = (
    '{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"l","outputs":'
    '{"x":{"value":"hello","type":"string"}},"resources":[],"check_results":null}\n'
)


def test_a_check_blocks_data_source_that_cannot_be_read_fails_the_check(tmp_path: Path) -> None:
    h = Harness(str(tmp_path), {"main.tf": CHECK_DATA, "other.tfstate": OTHER_STATE})
    res = h.plan()
    assert not res.diagnostics.has_errors, messages(res.diagnostics)
    assert "Unable to find remote state" in messages(res.diagnostics)  # as a warning
    got = _statuses(res.plan.checks)
    assert got["check.ok"] == ("pass", [])
    status, problems = got["check.bad"]
    assert status == "fail"
    assert problems == ["Unable to find remote state: No stored state was found for the given "
                        "workspace in the given backend."]
