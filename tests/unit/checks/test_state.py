"""engine.checks.ChecksState: registration from configuration, reports and terraform's
aggregation (internal/checks state.go)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.checks import (
    ASSERTION,
    OUTPUT_PRECONDITION,
    POSTCONDITION,
    PRECONDITION,
    VALIDATION,
    ChecksState,
)
from engine.checks.state import summarize
from engine.configs.loader import load_config
from engine.states.state import CheckObjectResult, CheckResult
from tests.modules_init import init_modules

MAIN = """
variable "v" {
  type = string
  validation {
    condition     = var.v != ""
    error_message = "empty"
  }
}
variable "plain" {
  type    = string
  default = "x"
}
resource "terraform_data" "r" {
  count = 2
  input = var.v
  lifecycle {
    precondition {
      condition     = var.v != "a"
      error_message = "pre"
    }
    postcondition {
      condition     = self.output != "b"
      error_message = "post one"
    }
    postcondition {
      condition     = self.output != "c"
      error_message = "post two"
    }
  }
}
resource "terraform_data" "unchecked" {
  input = var.plain
}
output "o" {
  value = var.v
  precondition {
    condition     = var.v != "d"
    error_message = "out"
  }
}
output "plain" {
  value = var.plain
}
check "c" {
  assert {
    condition     = var.v != "e"
    error_message = "assert"
  }
}
module "m" {
  source = "./m"
}
"""

CHILD = """
variable "w" {
  type    = number
  default = 1
  validation {
    condition     = var.w > 0
    error_message = "positive"
  }
}
"""


@pytest.fixture
def config(tmp_path: Path) -> Any:
    (tmp_path / "main.tf").write_text(MAIN)
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "main.tf").write_text(CHILD)
    init_modules(str(tmp_path))
    cfg, diags = load_config(str(tmp_path))
    assert not diags.has_errors, [str(d) for d in diags]
    return cfg


def _by_addr(results: list[CheckResult]) -> dict[str, CheckResult]:
    return {r.config_addr: r for r in results}


def test_registers_every_checkable_object_of_the_module_tree(config: Any) -> None:
    results = ChecksState(config).results()
    assert [(r.object_kind, r.config_addr) for r in results] == [
        ("check", "check.c"),
        ("var", "module.m.var.w"),
        ("output", "output.o"),
        ("resource", "terraform_data.r"),
        ("var", "var.v"),
    ]
    # objects never reported: unknown, and no objects at all
    assert all(r.status == "unknown" and r.objects is None for r in results)


def test_reported_objects_start_unknown_and_zero_objects_pass(config: Any) -> None:
    st = ChecksState(config)
    st.report_objects("terraform_data.r", ["terraform_data.r[0]", "terraform_data.r[1]"])
    st.report_objects("check.c", [])
    got = _by_addr(st.results())
    assert got["terraform_data.r"].status == "unknown"
    assert got["terraform_data.r"].objects == [
        CheckObjectResult("terraform_data.r[0]", "unknown"),
        CheckObjectResult("terraform_data.r[1]", "unknown"),
    ]
    assert got["check.c"].status == "pass"
    assert got["check.c"].objects == []


def test_an_object_passes_only_when_every_condition_passed(config: Any) -> None:
    st = ChecksState(config)
    st.report_objects("terraform_data.r", ["terraform_data.r[0]"])
    st.report("terraform_data.r", "terraform_data.r[0]", PRECONDITION, 0, "pass")
    st.report("terraform_data.r", "terraform_data.r[0]", POSTCONDITION, 0, "pass")
    assert st.object_status("terraform_data.r", "terraform_data.r[0]") == "unknown"
    st.report("terraform_data.r", "terraform_data.r[0]", POSTCONDITION, 1, "pass")
    assert st.object_status("terraform_data.r", "terraform_data.r[0]") == "pass"
    assert st.aggregate("terraform_data.r") == "pass"


def test_failures_keep_their_messages_sorted_and_win_over_unknown(config: Any) -> None:
    st = ChecksState(config)
    st.report_objects("terraform_data.r", ["terraform_data.r[0]", "terraform_data.r[1]"])
    st.report("terraform_data.r", "terraform_data.r[1]", POSTCONDITION, 1, "fail", "post two")
    st.report("terraform_data.r", "terraform_data.r[1]", POSTCONDITION, 0, "fail", "post one")
    got = _by_addr(st.results())["terraform_data.r"]
    assert got.status == "fail"
    assert got.objects == [
        CheckObjectResult("terraform_data.r[0]", "unknown"),
        CheckObjectResult("terraform_data.r[1]", "fail", ["post one", "post two"]),
    ]


def test_an_error_wins_over_a_failure(config: Any) -> None:
    st = ChecksState(config)
    st.report("terraform_data.r", "terraform_data.r[0]", PRECONDITION, 0, "error")
    st.report("terraform_data.r", "terraform_data.r[1]", PRECONDITION, 0, "fail", "pre")
    assert st.aggregate("terraform_data.r") == "error"
    assert st.object_status("terraform_data.r", "terraform_data.r[1]") == "fail"


def test_a_later_report_replaces_an_earlier_one(config: Any) -> None:
    st = ChecksState(config)
    st.report("output.o", "output.o", OUTPUT_PRECONDITION, 0, "fail", "out")
    st.report("output.o", "output.o", OUTPUT_PRECONDITION, 0, "pass")
    got = _by_addr(st.results())["output.o"]
    assert got.status == "pass"
    assert got.objects == [CheckObjectResult("output.o", "pass")]


def test_reports_about_what_is_not_checkable_are_ignored(config: Any) -> None:
    st = ChecksState(config)
    assert st.reporter("output.plain", "output.plain", OUTPUT_PRECONDITION) is None
    st.report("terraform_data.unchecked", "terraform_data.unchecked", PRECONDITION, 0, "fail")
    st.report("check.c", "check.c", ASSERTION, 5, "fail", "out of range")
    assert [r.config_addr for r in st.results()] == [
        "check.c", "module.m.var.w", "output.o", "terraform_data.r", "var.v"]
    assert _by_addr(st.results())["check.c"].objects is None


def test_variable_reporter_addresses_module_instances(config: Any) -> None:
    st = ChecksState(config)
    for key in ("0", "1"):
        report = st.variable_reporter("module.m", f"module.m[{key}]")("w")
        assert report is not None
        report(0, "pass" if key == "0" else "fail", "positive")
    got = _by_addr(st.results())["module.m.var.w"]
    assert got.status == "fail"
    assert got.objects == [CheckObjectResult("module.m[0].var.w", "pass"),
                           CheckObjectResult("module.m[1].var.w", "fail", ["positive"])]
    assert st.variable_reporter("", "")("plain") is None


def test_from_plan_reports_the_planned_objects_again_as_unknown(config: Any) -> None:
    planned = [
        CheckResult("resource", "terraform_data.r", "pass",
                    [CheckObjectResult("terraform_data.r[0]", "pass")]),
        CheckResult("var", "var.v", "unknown", None),
    ]
    st = ChecksState.from_plan(config, planned)
    st.report("var.v", "var.v", VALIDATION, 0, "pass")
    got = _by_addr(st.results())
    assert got["terraform_data.r"].status == "unknown"
    assert got["terraform_data.r"].objects == [
        CheckObjectResult("terraform_data.r[0]", "unknown")]
    assert got["var.v"].status == "pass"
    assert got["output.o"].objects is None


@pytest.mark.parametrize(
    ("statuses", "want"),
    [
        ([], "pass"),
        (["pass", "pass"], "pass"),
        (["pass", "unknown"], "unknown"),
        (["unknown", "fail"], "fail"),
        (["fail", "error", "unknown"], "error"),
    ],
)
def test_summarize(statuses: list[str], want: str) -> None:
    assert summarize(statuses) == want


def test_walks_from_one_configuration_share_its_registration_not_their_statuses(
        config: Any) -> None:
    from engine.checks import state as checks_state

    first = ChecksState(config)
    first.report_objects("terraform_data.r", ["terraform_data.r[0]"])
    first.report("terraform_data.r", "terraform_data.r[0]", PRECONDITION, 0, "fail", "no")
    # a later walk (another node task of the same plan) registers from the kept registration
    calls: list[Any] = []
    original = checks_state._collect
    checks_state._collect = lambda cfg, out: calls.append(cfg) or original(cfg, out)
    try:
        second = ChecksState(config)
    finally:
        checks_state._collect = original
    assert calls == [], "the module tree is not walked again"
    got = _by_addr(second.results())
    assert got["terraform_data.r"].status == "unknown" and got["terraform_data.r"].objects is None
    assert _by_addr(first.results())["terraform_data.r"].status == "fail"
    assert [r.config_addr for r in second.results()] == [r.config_addr for r in first.results()]
