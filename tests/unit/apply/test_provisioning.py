"""Provisioners during apply: creation-time failures taint, destroy-time ones run first."""

from __future__ import annotations

import json
from pathlib import Path

from engine.plans.model import PlanMode
from tests.unit.planner.fakes import Harness


def _status(h: Harness, name: str) -> str:
    st = json.loads((Path(h.dir) / "terraform.tfstate").read_text())
    res = next(r for r in st["resources"] if r["name"] == name)
    return str(res["instances"][0].get("status", ""))


def test_failed_creation_provisioner_taints(tmp_path: Path) -> None:
    h = Harness(str(tmp_path), {"main.tf": '''
resource "terraform_data" "bad" {
  input = "x"
  provisioner "local-exec" { command = "exit 3" }
}
resource "terraform_data" "tolerated" {
  provisioner "local-exec" {
    command    = "exit 3"
    on_failure = continue
  }
}
resource "terraform_data" "after" { input = terraform_data.bad.id }
'''})
    _plan, applied = h.plan_apply()
    errors = [d for d in applied.diagnostics if d.is_error]
    assert len(errors) == 1
    assert _status(h, "bad") == "tainted"
    assert _status(h, "tolerated") == ""
    st = json.loads((Path(h.dir) / "terraform.tfstate").read_text())
    assert "after" not in {r["name"] for r in st["resources"]}
    res = h.plan()
    reasons = {str(c.addr): c.action_reason for c in res.plan.changes}
    assert reasons["terraform_data.bad"] is not None
    assert reasons["terraform_data.bad"].value == "replace_because_tainted"


def test_destroy_provisioner_sees_self(tmp_path: Path) -> None:
    marker = tmp_path / "destroyed.txt"
    h = Harness(str(tmp_path), {"main.tf": f'''
resource "terraform_data" "d" {{
  input = "bye"
  provisioner "local-exec" {{
    when    = destroy
    command = "echo ${{self.input}} > {marker}"
  }}
}}
'''})
    h.plan_apply()
    assert not marker.exists()
    res = h.plan(mode=PlanMode.DESTROY)
    applied = h.apply(res)
    assert not applied.diagnostics.has_errors, [str(d) for d in applied.diagnostics]
    assert marker.read_text().strip() == "bye"
