"""The apply walk: order, failures, provider result checks, journaled state, stop, staleness."""

from __future__ import annotations

import json
from pathlib import Path

from engine.apply.stale import check_plan_fresh
from engine.graph.signals import StopController
from engine.plans.model import PlanMode
from engine.states.state import State, StateFile
from tests.unit.planner.fakes import Harness, messages


def _h(tmp_path: Path, text: str) -> Harness:
    return Harness(str(tmp_path), {"main.tf": text})


CHAIN = '''
resource "test_thing" "a" { value = "a" }
resource "test_thing" "b" { value = "b-${test_thing.a.id}" }
resource "test_thing" "c" { value = "c-${test_thing.b.id}" }
output "c" { value = test_thing.c.value }
'''


def _state(h: Harness) -> dict:
    return json.loads((Path(h.dir) / "terraform.tfstate").read_text())


def test_creates_in_dependency_order_with_known_values(tmp_path: Path) -> None:
    h = _h(tmp_path, CHAIN)
    _plan, applied = h.plan_apply()
    assert not applied.diagnostics.has_errors, [str(d) for d in applied.diagnostics]
    applies = [w for op, w in h.provider.log if op == "apply"]
    assert applies == ["a", "b-id-1", "c-id-2"]
    st = _state(h)
    assert st["outputs"]["c"]["value"] == "c-id-2"
    deps = {r["name"]: r["instances"][0].get("dependencies", []) for r in st["resources"]}
    assert deps["c"] == ["test_thing.a", "test_thing.b"]


def test_second_plan_has_no_changes(tmp_path: Path) -> None:
    h = _h(tmp_path, CHAIN)
    h.plan_apply()
    res = h.plan()
    assert not res.plan.applyable


def test_destroy_in_reverse_order(tmp_path: Path) -> None:
    h = _h(tmp_path, CHAIN)
    h.plan_apply()
    h.provider.log.clear()
    res = h.plan(mode=PlanMode.DESTROY)
    applied = h.apply(res)
    assert not applied.diagnostics.has_errors
    deletes = [w for op, w in h.provider.log if op == "delete"]
    assert deletes == ["id-3", "id-2", "id-1"]
    st = _state(h)
    assert st["resources"] == [] and st["outputs"] == {}


def test_create_before_destroy_creates_first(tmp_path: Path) -> None:
    text = '''
resource "test_thing" "r" {
  value   = "v%s"
  replace = "%s"
  lifecycle { create_before_destroy = true }
}
resource "test_thing" "user" { value = test_thing.r.id }
'''
    h = _h(tmp_path, text % ("1", "1"))
    h.plan_apply()
    h.provider.log.clear()
    h.write({"main.tf": text % ("2", "2")})
    _p, applied = h.plan_apply()
    assert not applied.diagnostics.has_errors, [str(d) for d in applied.diagnostics]
    ops = [(op, w) for op, w in h.provider.log if op != "read"]
    assert ops == [("apply", "v2"), ("apply", "id-3"), ("delete", "id-1")]
    st = _state(h)
    r = next(x for x in st["resources"] if x["name"] == "r")
    assert "deposed" not in r["instances"][0]


def test_delete_then_create_destroys_first(tmp_path: Path) -> None:
    h = _h(tmp_path, 'resource "test_thing" "r" { replace = "1" }\n')
    h.plan_apply()
    h.provider.log.clear()
    h.write({"main.tf": 'resource "test_thing" "r" { replace = "2" }\n'})
    h.plan_apply()
    ops = [op for op, _w in h.provider.log if op != "read"]
    assert ops == ["delete", "apply"]


def test_failure_skips_dependents_and_reports_independent_failures(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
resource "test_thing" "bad1" { value = "bad1" }
resource "test_thing" "dep" { value = test_thing.bad1.id }
resource "test_thing" "bad2" { value = "bad2" }
resource "test_thing" "ok" { value = "ok" }
''')
    h.provider.fail_apply |= {"bad1", "bad2"}
    res = h.plan()
    applied = h.apply(res)
    assert messages(applied.diagnostics).count("Boom") == 2
    applies = {w for op, w in h.provider.log if op == "apply"}
    assert applies == {"bad1", "bad2", "ok"}
    names = {r["name"] for r in _state(h)["resources"]}
    assert names == {"ok"}
    assert not (Path(h.dir) / "terraform.tfstate.journal").exists()


def test_inconsistent_result_after_apply(tmp_path: Path) -> None:
    h = _h(tmp_path, 'resource "test_thing" "a" { value = "x" }\n')
    h.provider.corrupt_apply = True
    res = h.plan()
    applied = h.apply(res)
    err = next(d for d in applied.diagnostics if d.is_error)
    assert err.summary == "Provider produced inconsistent result after apply"
    assert ".value: was cty.StringVal(\"x\"), but now cty.StringVal(\"corrupted\")" in err.detail


def test_stop_request_starts_nothing_new_and_persists(tmp_path: Path) -> None:
    h = _h(tmp_path, CHAIN)
    stop = StopController(on_hard_exit=lambda: None)
    res = h.plan()
    original = h.provider.apply_resource_change

    def stopping_apply(req):  # type: ignore[no-untyped-def]
        stop.request_stop()
        return original(req)

    h.provider.apply_resource_change = stopping_apply  # type: ignore[method-assign]
    applied = h.apply(res, stop=stop)
    assert "Operation interrupted" in messages(applied.diagnostics)
    assert [w for op, w in h.provider.log if op == "apply"] == ["a"]
    assert [r["name"] for r in _state(h)["resources"]] == ["a"]


def test_stale_plan_check() -> None:
    current = StateFile(State(), lineage="L", serial=3)
    assert not check_plan_fresh("L", 3, current).has_errors
    (d,) = list(check_plan_fresh("L", 2, current))
    assert d.summary == "Saved plan is stale"
    assert check_plan_fresh("other", 3, current).has_errors
    assert not check_plan_fresh(None, None, None).has_errors


def test_inconsistent_final_plan(tmp_path: Path) -> None:
    h = _h(tmp_path, 'resource "test_thing" "a" {}\n')
    res = h.plan()
    h.provider.stamp = "s2"
    applied = h.apply(res)
    err = next(d for d in applied.diagnostics if d.is_error)
    assert err.summary == "Provider produced inconsistent final plan"
    assert err.detail.startswith("When expanding the plan for test_thing.a to include new values")
    assert '.stamp: was cty.StringVal("s1"), but now cty.StringVal("s2")' in err.detail
    assert [op for op, _w in h.provider.log if op == "apply"] == []


def test_invalid_plan_is_reported(tmp_path: Path) -> None:
    h = _h(tmp_path, 'resource "test_thing" "a" { value = "x" }\n')
    h.provider.plan_override = "y"
    res = h.plan()
    err = next(d for d in res.diagnostics if d.is_error)
    assert err.summary == "Provider produced invalid plan"
    assert 'planned value cty.StringVal("y") does not match config value' in err.detail
