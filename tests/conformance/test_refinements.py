"""Refined unknown values at plan time: terraform and groundplan know the same things.

An unknown value may be known not to be null, to start with a prefix, to lie between number
bounds, to have between so many elements (cty's refinements); expressions over it then give
known results (`"${timestamp()}-x" != null` plans as `true`, not "(known after apply)").
Each case of `cases/refinements.txt` becomes an output of one configuration whose preamble
(`PREAMBLE`) provides unknowns; the configuration is planned (`plan -out`, then `show -json`)
by both tools and each output's planned change (value, unknown paths, sensitivity) must be
terraform's. A batch that fails is re-run case by case, so one failing expression names
itself. `show` of the saved plan, as a person reads it, must be terraform's too.

Refinements also cross the plugin protocol (cty's msgpack extension 12) and the saved plan:
`test_refinements_reach_a_provider_and_back` plans a `null_resource` (our Python null
provider, installed for both tools from a mirror) whose triggers hold refined unknowns; the
provider echoes them back in its planned state, so outputs derived from its attributes are
known in the plan, and applying the saved plan gives terraform's outputs.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.plugin.sdk.package import package
from tests.conformance.harness import Run, load_cases, run_groundplan, run_terraform

CASES = load_cases("refinements.txt")
BATCH = 400

PREAMBLE = """\
resource "terraform_data" "u" {
  input = "x"
}

locals {
  ts  = timestamp()
  id  = terraform_data.u.id
  out = terraform_data.u.output
}

"""

Runner = Callable[..., Run]
Outcome = tuple[str, Any]


def _config(exprs: list[str]) -> str:
    return PREAMBLE + "".join(
        f'output "o{i}" {{\n  value = {e}\n}}\n\n' for i, e in enumerate(exprs))


def _plan(runner: Runner, work: Path, exprs: list[str]) -> list[Outcome] | Outcome:
    """Each expression's planned output change, or one error outcome for the whole batch."""
    (work / "main.tf").write_text(_config(exprs), encoding="utf-8")
    planned = runner(work, "plan", "-out=tfplan", "-input=false", "-no-color")
    if planned.code != 0:
        return ("error", (planned.stdout + planned.stderr).strip()[-2000:])
    shown = runner(work, "show", "-json", "tfplan")
    if shown.code != 0:
        return ("error", shown.stderr.strip()[-2000:])
    changes = shown.json().get("output_changes", {})
    results: list[Outcome] = []
    for i in range(len(exprs)):
        c = changes.get(f"o{i}")
        if c is None:
            results.append(("ok", None))
        else:
            results.append(("ok", {k: c.get(k) for k in
                                   ("actions", "after", "after_unknown", "after_sensitive")}))
    return results


def _evaluate_all(runner: Runner) -> dict[str, Outcome]:
    results: dict[str, Outcome] = {}
    for start in range(0, len(CASES), BATCH):
        batch = CASES[start : start + BATCH]
        with tempfile.TemporaryDirectory(prefix="gp-refine-") as tmp:
            outcome = _plan(runner, Path(tmp), [e for _, e in batch])
        if isinstance(outcome, list):
            results.update({cid: o for (cid, _), o in zip(batch, outcome)})
            continue
        for cid, expr in batch:
            with tempfile.TemporaryDirectory(prefix="gp-refine-") as tmp:
                single = _plan(runner, Path(tmp), [expr])
            results[cid] = single[0] if isinstance(single, list) else single
    return results


_cache: dict[str, dict[str, Outcome]] = {}


def _results(which: str) -> dict[str, Outcome]:
    if which not in _cache:
        _cache[which] = _evaluate_all(run_terraform if which == "terraform" else run_groundplan)
    return _cache[which]


def test_enough_cases() -> None:
    assert len(CASES) >= 300, f"only {len(CASES)} refinement cases"


@pytest.mark.parametrize(("case_id", "expr"), CASES, ids=[c for c, _ in CASES])
def test_planned_output_matches_terraform(case_id: str, expr: str) -> None:
    expected = _results("terraform")[case_id]
    assert expected[0] == "ok", f"terraform rejected the case {expr!r}: {expected[1]}"
    actual = _results("groundplan")[case_id]
    assert actual[0] == "ok", f"groundplan failed on {expr!r}: {actual[1]}"
    assert actual[1] == expected[1], f"{expr!r}"


def test_the_plan_reads_as_terraforms(tmp_path: Path) -> None:
    """The saved plan shown to a person: outputs that refinements decide are values, the
    others "(known after apply)", exactly where terraform shows them."""
    exprs = [e for _, e in CASES[:120]]
    shown: dict[str, str] = {}
    for name, runner in (("terraform", run_terraform), ("groundplan", run_groundplan)):
        work = tmp_path / name
        work.mkdir()
        outcome = _plan(runner, work, exprs)
        assert isinstance(outcome, list), f"{name}: {outcome}"
        out = runner(work, "show", "-no-color", "tfplan")
        assert out.code == 0, out.stderr
        shown[name] = out.stdout
    assert shown["groundplan"] == shown["terraform"]


WIRE_CONFIG = """\
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "3.2.3" }
  }
}

resource "null_resource" "n" {
  triggers = {
    prefixed = "ab-${timestamp()}"
    plain    = tostring(length(timestamp()))
  }
}

output "prefixed_not_null" {
  value = null_resource.n.triggers["prefixed"] != null
}

output "prefixed_starts" {
  value = startswith(null_resource.n.triggers["prefixed"], "ab-")
}

output "prefixed_differs" {
  value = null_resource.n.triggers["prefixed"] == "zz"
}

output "plain_not_null" {
  value = null_resource.n.triggers["plain"] != null
}

output "count_of_triggers" {
  value = length(null_resource.n.triggers)
}
"""


def test_refinements_reach_a_provider_and_back(tmp_path: Path) -> None:
    mirror = tmp_path / "mirror"
    package("null", "3.2.3", mirror)
    seen: dict[str, tuple[Any, ...]] = {}
    for name, runner in (("terraform", run_terraform), ("groundplan", run_groundplan)):
        work = tmp_path / name
        work.mkdir()
        (work / "main.tf").write_text(WIRE_CONFIG, encoding="utf-8")
        init = runner(work, "init", f"-plugin-dir={mirror}", "-no-color", "-input=false")
        assert init.code == 0, init.stdout + init.stderr
        planned = runner(work, "plan", "-out=tfplan", "-no-color", "-input=false")
        assert planned.code == 0, planned.stdout + planned.stderr
        doc = runner(work, "show", "-json", "tfplan").json()
        outputs = {k: (c.get("after"), c["after_unknown"])
                   for k, c in doc["output_changes"].items()}
        triggers = [(c["change"]["after"], c["change"]["after_unknown"])
                    for c in doc["resource_changes"]]
        applied = runner(work, "apply", "-no-color", "-input=false", "tfplan")
        assert applied.code == 0, applied.stdout + applied.stderr
        final = runner(work, "output", "-json").json()
        seen[name] = (outputs, triggers, {k: v["value"] for k, v in final.items()})
    assert seen["groundplan"][0]["prefixed_not_null"] == (True, False)  # what refinements buy
    assert seen["groundplan"] == seen["terraform"]


MODULE_ROOT = """\
resource "terraform_data" "u" {
  input = "x"
}

module "m" {
  source = "./m"
  s      = "ab-${timestamp()}"
  n      = length(timestamp())
  l      = terraform_data.u.id == "x" ? tolist(["a"]) : tolist(["b", "c"])
  o      = terraform_data.u.id

  # implicit conversions to the variables' types keep what cty's conversions keep
  set_from_list = terraform_data.u.id == "x" ? tolist(["a"]) : tolist(["b", "c"])
  list_from_set = toset(["a", terraform_data.u.id])
  str_from_num  = length(timestamp())
  num_from_str  = "${timestamp()}"
}

output "converted" {
  value = module.m.converted
}

output "s_not_null" {
  value = module.m.s_not_null
}

output "s_prefix" {
  value = module.m.s_prefix
}

output "n_bounded" {
  value = module.m.n_bounded
}

output "l_bounded" {
  value = module.m.l_bounded
}

output "s_passed_back" {
  value = module.m.s != null
}

output "o_not_null" {
  value = module.m.o_not_null
}

output "o_itself" {
  value = module.m.o
}
"""

MODULE_CHILD = """\
variable "s" {
  type = string
}

variable "n" {
  type = number
}

variable "l" {
  type = list(string)
}

variable "o" {}

variable "set_from_list" {
  type = set(string)
}

variable "list_from_set" {
  type = list(string)
}

variable "str_from_num" {
  type = string
}

variable "num_from_str" {
  type = number
}

output "converted" {
  value = {
    set_not_null   = var.set_from_list != null
    set_not_empty  = length(var.set_from_list) > 0
    set_at_most_2  = length(var.set_from_list) < 3
    str_not_null   = var.str_from_num != null
    num_not_null   = var.num_from_str != null
    list_not_empty = length(var.list_from_set) > 0
  }
}

output "s_not_null" {
  value = var.s != null
}

output "s_prefix" {
  value = startswith(var.s, "ab-")
}

output "n_bounded" {
  value = var.n > -1
}

output "l_bounded" {
  value = length(var.l) < 3
}

output "s" {
  value = var.s
}

output "o_not_null" {
  value = var.o != null
}

output "o" {
  value = var.o
}
"""


def test_refinements_cross_module_boundaries(tmp_path: Path) -> None:
    """Input variables (converted to their types: not null and length bounds survive) and
    module outputs keep refinements."""
    seen: dict[str, Any] = {}
    for name, runner in (("terraform", run_terraform), ("groundplan", run_groundplan)):
        work = tmp_path / name
        (work / "m").mkdir(parents=True)
        (work / "main.tf").write_text(MODULE_ROOT, encoding="utf-8")
        (work / "m" / "main.tf").write_text(MODULE_CHILD, encoding="utf-8")
        init = runner(work, "init", "-no-color", "-input=false")
        assert init.code == 0, init.stdout + init.stderr
        planned = runner(work, "plan", "-out=tfplan", "-no-color", "-input=false")
        assert planned.code == 0, planned.stdout + planned.stderr
        doc = runner(work, "show", "-json", "tfplan").json()
        seen[name] = {k: (c.get("after"), c["after_unknown"])
                      for k, c in doc["output_changes"].items()}
    assert seen["groundplan"]["s_prefix"] == (True, False)
    assert seen["groundplan"] == seen["terraform"]


CONDITIONS_CONFIG = """\
resource "terraform_data" "u" {
  input = "x"
}

resource "terraform_data" "c" {
  # a list of known length is a known list of unknowns: the count is known at plan time
  count = length(terraform_data.u.id == "x" ? tolist(["a"]) : tolist(["b"]))
  input = "${timestamp()}-x"

  lifecycle {
    precondition {
      condition     = terraform_data.u.id != null
      error_message = "The id must be set."
    }
    postcondition {
      condition     = self.input != null
      error_message = "The input must be set."
    }
  }
}

output "instances" {
  value = length(terraform_data.c)
}

output "input_not_null" {
  value = terraform_data.c[0].input != null
}
"""


def test_counts_and_conditions_decided_by_refinements(tmp_path: Path) -> None:
    """A count from a refined length, and conditions that refinements decide at plan time
    (their checks pass in the plan rather than staying unknown)."""
    seen: dict[str, Any] = {}
    for name, runner in (("terraform", run_terraform), ("groundplan", run_groundplan)):
        work = tmp_path / name
        work.mkdir()
        (work / "main.tf").write_text(CONDITIONS_CONFIG, encoding="utf-8")
        planned = runner(work, "plan", "-out=tfplan", "-no-color", "-input=false")
        assert planned.code == 0, planned.stdout + planned.stderr
        doc = runner(work, "show", "-json", "tfplan").json()
        seen[name] = (doc.get("checks"), doc["output_changes"],
                      [c["address"] for c in doc["resource_changes"]])
    assert seen["groundplan"][1]["input_not_null"]["after"] is True
    assert seen["groundplan"] == seen["terraform"]
