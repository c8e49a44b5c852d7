"""Plan → apply → no-change plan → modify → plan/apply → destroy, compared with terraform.

Each scenario is a list of configurations applied in turn (then destroyed) in two working
directories: one by the real `terraform` binary, one by groundplan's engine
(`make_plan` / `apply_plan`). After every plan the `resource_changes` of both (address,
actions, action_reason, before, after, after_unknown; random ids masked), the output change
actions and the relevant attributes must agree. Skipped only where the terraform binary is absent.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from typing import Any

import pytest

from engine.apply.applier import ApplyOptions, apply_plan
from engine.configs.loader import load_config
from engine.plans.model import PlanMode
from engine.plans.planner import PlanOptions, make_plan
from engine.plans.render_json import plan_to_json
from engine.plugin.registry import ProviderRegistry
from engine.states import LocalState
from engine.states.manager import StateManager
from engine.states.state import StateFile
from tests.modules_init import init_modules

TERRAFORM = shutil.which("terraform")
pytestmark = pytest.mark.usefixtures("terraform_required")
_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

SCENARIOS: dict[str, list[str]] = {
    "basic_chain": [
        '''
resource "terraform_data" "a" { input = "x" }
resource "terraform_data" "b" { input = terraform_data.a.output }
output "o" { value = terraform_data.b.output }
''',
        '''
resource "terraform_data" "a" { input = "y" }
resource "terraform_data" "b" { input = terraform_data.a.output }
output "o" { value = terraform_data.b.output }
''',
    ],
    "count_and_for_each": [
        '''
variable "n" { default = 3 }
resource "terraform_data" "c" {
  count = var.n
  input = { i = count.index, s = "v${count.index}" }
}
resource "terraform_data" "f" {
  for_each = toset(["a", "b"])
  input    = each.key
}
locals { ids = [for x in terraform_data.c : x.output.s] }
output "ids" { value = local.ids }
''',
        '''
variable "n" { default = 1 }
resource "terraform_data" "c" {
  count = var.n
  input = { i = count.index, s = "v${count.index}" }
}
resource "terraform_data" "f" {
  for_each = { b = 2, z = 3 }
  input    = each.value
}
locals { ids = [for x in terraform_data.c : x.output.s] }
output "ids" { value = local.ids }
''',
    ],
    "replace_and_cbd": [
        '''
resource "terraform_data" "t" {
  input            = "one"
  triggers_replace = ["a"]
}
resource "terraform_data" "u" {
  triggers_replace = 1
  lifecycle { create_before_destroy = true }
}
resource "terraform_data" "dep" { input = terraform_data.t.id }
''',
        '''
resource "terraform_data" "t" {
  input            = "one"
  triggers_replace = ["b"]
}
resource "terraform_data" "u" {
  triggers_replace = 2
  lifecycle { create_before_destroy = true }
}
resource "terraform_data" "dep" { input = terraform_data.t.id }
''',
    ],
    "lifecycle_rules": [
        '''
resource "terraform_data" "src" { input = "s1" }
resource "terraform_data" "ign" {
  input = "first"
  lifecycle { ignore_changes = [input] }
}
resource "terraform_data" "trig" {
  input = "t"
  lifecycle { replace_triggered_by = [terraform_data.src] }
}
''',
        '''
resource "terraform_data" "src" { input = "s2" }
resource "terraform_data" "ign" {
  input = "second"
  lifecycle { ignore_changes = [input] }
}
resource "terraform_data" "trig" {
  input = "t"
  lifecycle { replace_triggered_by = [terraform_data.src] }
}
''',
    ],
    "modules_and_orphans": [
        '''
module "m" {
  source = "./mod"
  count  = 2
  v      = "m${count.index}"
}
resource "terraform_data" "gone" { input = 1 }
output "mo" { value = module.m[*].out }
''',
        '''
module "m" {
  source = "./mod"
  count  = 1
  v      = "m${count.index}"
}
output "mo" { value = module.m[*].out }
''',
    ],
    "sensitive_values": [
        '''
variable "secret" {
  default   = "s3cr3t"
  sensitive = true
}
resource "terraform_data" "s" {
  input = { user = "u", pass = var.secret }
}
output "pass" {
  value     = terraform_data.s.input.pass
  sensitive = true
}
''',
        '''
variable "secret" {
  default   = "other"
  sensitive = true
}
resource "terraform_data" "s" {
  input = { user = "u", pass = var.secret }
}
output "pass" {
  value     = terraform_data.s.input.pass
  sensitive = true
}
''',
    ],
    "moves": [
        '''
resource "terraform_data" "a" { input = "a" }
resource "terraform_data" "c" { input = "c" }
resource "terraform_data" "k" {
  count = 1
  input = "k"
}
''',
        '''
moved {
  from = terraform_data.a
  to   = terraform_data.b
}
resource "terraform_data" "b" { input = "a" }
resource "terraform_data" "c" {
  count = 1
  input = "c2"
}
resource "terraform_data" "k" { input = "k" }
''',
    ],
    "removed_forget": [
        '''
resource "terraform_data" "keep" { input = 1 }
resource "terraform_data" "drop" { input = 2 }
''',
        '''
removed {
  from = terraform_data.keep
  lifecycle { destroy = false }
}
resource "terraform_data" "drop2" { input = 3 }
''',
    ],
    "data_and_checks": [
        '''
data "terraform_remote_state" "s" {
  backend = "local"
  config  = { path = "other.tfstate" }
}
resource "terraform_data" "r" { input = data.terraform_remote_state.s.outputs.greeting }
check "c" {
  assert {
    condition     = terraform_data.r.input == "hello"
    error_message = "not hello"
  }
}
output "g" { value = data.terraform_remote_state.s.outputs.greeting }
''',
    ],
}

OTHER_STATE = json.dumps({
    "version": 4, "terraform_version": "1.11.4", "serial": 1, "lineage": "other",
    "outputs": {"greeting": {"value": "hello", "type": "string"}}, "resources": [],
    "check_results": None,
})

MODULE = '''
variable "v" { type = string }
resource "terraform_data" "inner" { input = var.v }
output "out" { value = terraform_data.inner.output }
'''


def _mask(data: Any) -> Any:
    if isinstance(data, str):
        return _ID.sub("<id>", data)
    if isinstance(data, list):
        return [_mask(e) for e in data]
    if isinstance(data, dict):
        return {k: _mask(v) for k, v in data.items()}
    return data


def _summary(doc: dict[str, Any]) -> dict[str, Any]:
    changes = {}
    for rc in doc.get("resource_changes", []):
        ch = rc["change"]
        key = rc["address"] + (" deposed" if rc.get("deposed") else "")
        changes[key] = _mask({
            "actions": ch["actions"],
            "reason": rc.get("action_reason"),
            "before": ch.get("before"),
            "after": ch.get("after"),
            "after_unknown": ch.get("after_unknown"),
            "after_sensitive": ch.get("after_sensitive"),
            "before_sensitive": ch.get("before_sensitive"),
            "replace_paths": ch.get("replace_paths"),
            "previous_address": rc.get("previous_address"),
        })
    outputs = {k: v["actions"] for k, v in doc.get("output_changes", {}).items()}
    relevant = sorted(json.dumps(r, sort_keys=True) for r in doc.get("relevant_attributes", []))
    return {"changes": changes, "outputs": outputs, "relevant": relevant}


def _write(d: str, text: str) -> None:
    os.makedirs(os.path.join(d, "mod"), exist_ok=True)
    with open(os.path.join(d, "main.tf"), "w") as f:
        f.write(text)
    with open(os.path.join(d, "mod", "main.tf"), "w") as f:
        f.write(MODULE)
    with open(os.path.join(d, "other.tfstate"), "w") as f:
        f.write(OTHER_STATE)


def _tf(d: str, *args: str) -> str:
    env = dict(os.environ, TF_CLI_CONFIG_FILE="/dev/null", TF_IN_AUTOMATION="1")
    out = subprocess.run([TERRAFORM or "terraform", *args], cwd=d, env=env, check=True,
                         capture_output=True, text=True)
    return out.stdout


def _tf_plan(d: str, destroy: bool) -> dict[str, Any]:
    _tf(d, "init", "-input=false", "-no-color")
    _tf(d, "plan", "-input=false", "-no-color", "-out=p", *(["-destroy"] if destroy else []))
    doc = json.loads(_tf(d, "show", "-json", "p"))
    _tf(d, "apply", "-input=false", "-no-color", "p")
    return doc


def _gp_plan(d: str, destroy: bool) -> dict[str, Any]:
    assert not init_modules(d).has_errors
    cfg, diags = load_config(d)
    assert not diags.has_errors, list(diags)
    storage = LocalState(os.path.join(d, "terraform.tfstate"))
    mgr = StateManager(storage)
    sf, _ = mgr.read()
    reg = ProviderRegistry(d)
    mode = PlanMode.DESTROY if destroy else PlanMode.NORMAL
    res = make_plan(cfg, sf, reg, PlanOptions(mode=mode, working_dir=d))
    assert not res.diagnostics.has_errors, [str(x) for x in res.diagnostics]
    doc = plan_to_json(res.plan, None, None, res.schemas, res.relevant_attributes)
    prior = StateFile(res.prior_state, sf.lineage, sf.serial) if sf else StateFile(
        res.prior_state)
    applied = apply_plan(cfg, res.plan, prior, mgr, reg, ApplyOptions(working_dir=d))
    assert not applied.diagnostics.has_errors, [str(x) for x in applied.diagnostics]
    reg.close()
    return doc


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_matches_terraform(name: str, tmp_path: Any) -> None:
    tf_dir, gp_dir = str(tmp_path / "tf"), str(tmp_path / "gp")
    steps = SCENARIOS[name]
    sequence = [(s, False) for s in steps] + [(steps[-1], False), (steps[-1], True)]
    for i, (text, destroy) in enumerate(sequence):
        _write(tf_dir, text)
        _write(gp_dir, text)
        want = _summary(_tf_plan(tf_dir, destroy))
        got = _summary(_gp_plan(gp_dir, destroy))
        assert json.dumps(got, indent=1, sort_keys=True) == json.dumps(
            want, indent=1, sort_keys=True), f"{name} step {i} (destroy={destroy})"
    with open(os.path.join(gp_dir, "terraform.tfstate")) as f:
        final = json.load(f)
    assert final["resources"] == []
