"""Planner behaviour: expansion, lifecycle rules, orphans, data sources, modes, outputs."""

from __future__ import annotations

from pathlib import Path

from engine.plans.model import Action, PlanMode
from tests.unit.planner.fakes import Harness, actions, messages, reasons


def _h(tmp_path: Path, text: str) -> Harness:
    return Harness(str(tmp_path), {"main.tf": text})


def test_count_and_for_each_expand(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
resource "test_thing" "c" {
  count = 2
  value = "c${count.index}"
}
resource "test_thing" "s" {
  for_each = toset(["x", "y"])
  value    = each.value
}
resource "test_thing" "m" {
  for_each = { k = "v" }
  value    = "${each.key}=${each.value}"
}
''')
    res = h.plan()
    assert not res.diagnostics.has_errors
    got = {str(c.addr): c.after.v["value"].v for c in res.plan.changes}
    assert got == {"test_thing.c[0]": "c0", "test_thing.c[1]": "c1", 'test_thing.s["x"]': "x",
                   'test_thing.s["y"]': "y", 'test_thing.m["k"]': "k=v"}
    assert all(c.action is Action.CREATE for c in res.plan.changes)


def test_unknown_count_and_for_each_are_errors(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
resource "test_thing" "a" {}
resource "test_thing" "b" { count = length(test_thing.a.id) }
resource "test_thing" "c" { for_each = toset([test_thing.a.id]) }
''')
    res = h.plan()
    ms = messages(res.diagnostics)
    assert ms.count("Invalid count argument") == 1
    assert ms.count("Invalid for_each argument") == 1
    detail = next(d.detail for d in res.diagnostics if d.summary == "Invalid for_each argument")
    assert detail.startswith('The "for_each" set includes values derived from resource')
    assert res.plan.errored


def test_references_see_planned_values(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
resource "test_thing" "a" { value = "one" }
resource "test_thing" "b" { value = "${test_thing.a.value}-${test_thing.a.id}" }
''')
    res = h.plan()
    b = next(c for c in res.plan.changes if c.addr.resource.name == "b")
    assert not b.after.v["value"].is_known
    a = next(c for c in res.plan.changes if c.addr.resource.name == "a")
    assert a.after.v["value"].v == "one"


def test_update_noop_and_requires_replace(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
resource "test_thing" "u" { value = "1" }
resource "test_thing" "r" { replace = "1" }
resource "test_thing" "n" { value = "same" }
''')
    h.plan_apply()
    h.write({"main.tf": '''
resource "test_thing" "u" { value = "2" }
resource "test_thing" "r" { replace = "2" }
resource "test_thing" "n" { value = "same" }
'''})
    res = h.plan()
    assert actions(res) == {"test_thing.u": ("update",), "test_thing.r": ("delete", "create"),
                            "test_thing.n": ("no-op",)}
    assert reasons(res)["test_thing.r"] == "replace_because_cannot_update"


def test_create_before_destroy_order(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
resource "test_thing" "r" {
  replace = "1"
  lifecycle { create_before_destroy = true }
}''')
    h.plan_apply()
    h.write({"main.tf": h_text("2")})
    assert actions(h.plan()) == {"test_thing.r": ("create", "delete")}


def h_text(v: str) -> str:
    return f'''
resource "test_thing" "r" {{
  replace = "{v}"
  lifecycle {{ create_before_destroy = true }}
}}'''


def test_force_replace_and_taint(tmp_path: Path) -> None:
    h = _h(tmp_path, 'resource "test_thing" "a" { value = "x" }\n')
    h.plan_apply()
    res = h.plan(force_replace=["test_thing.a"])
    assert actions(res) == {"test_thing.a": ("delete", "create")}
    assert reasons(res) == {"test_thing.a": "replace_by_request"}
    text = (Path(h.dir) / "terraform.tfstate").read_text()
    (Path(h.dir) / "terraform.tfstate").write_text(
        text.replace('"sensitive_attributes"', '"status": "tainted", "sensitive_attributes"'))
    assert reasons(h.plan()) == {"test_thing.a": "replace_because_tainted"}


def test_prevent_destroy(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
resource "test_thing" "p" {
  replace = "1"
  lifecycle { prevent_destroy = true }
}''')
    h.plan_apply()
    h.write({"main.tf": '''
resource "test_thing" "p" {
  replace = "2"
  lifecycle { prevent_destroy = true }
}'''})
    res = h.plan()
    err = next(d for d in res.diagnostics if d.is_error)
    assert err.summary == "Instance cannot be destroyed"
    assert err.detail.startswith("Resource test_thing.p has lifecycle.prevent_destroy set")
    res = h.plan(mode=PlanMode.DESTROY)
    assert "Instance cannot be destroyed" in messages(res.diagnostics)


def test_ignore_changes(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
resource "test_thing" "i" {
  value   = "1"
  replace = "1"
  lifecycle { ignore_changes = [value] }
}
resource "test_thing" "all" {
  value = "1"
  lifecycle { ignore_changes = all }
}''')
    h.plan_apply()
    h.write({"main.tf": '''
resource "test_thing" "i" {
  value   = "2"
  replace = "1"
  lifecycle { ignore_changes = [value] }
}
resource "test_thing" "all" {
  value = "2"
  lifecycle { ignore_changes = all }
}'''})
    assert actions(h.plan()) == {"test_thing.i": ("no-op",), "test_thing.all": ("no-op",)}


def test_replace_triggered_by(tmp_path: Path) -> None:
    text = '''
resource "test_thing" "src" { value = "%s" }
resource "test_thing" "t" {
  lifecycle { replace_triggered_by = [test_thing.src] }
}
resource "test_thing" "attr" {
  lifecycle { replace_triggered_by = [test_thing.src.replace] }
}'''
    h = _h(tmp_path, text % "1")
    h.plan_apply()
    h.write({"main.tf": text % "2"})
    res = h.plan()
    assert actions(res)["test_thing.t"] == ("delete", "create")
    assert reasons(res)["test_thing.t"] == "replace_by_triggers"
    assert actions(res)["test_thing.attr"] == ("no-op",)


def test_orphans_with_reasons(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
resource "test_thing" "c" {
  count = 3
  value = "c"
}
resource "test_thing" "e" {
  for_each = toset(["a", "b"])
}
resource "test_thing" "gone" {}
resource "test_thing" "rep" {}
''')
    h.plan_apply()
    h.write({"main.tf": '''
resource "test_thing" "c" {
  count = 1
  value = "c"
}
resource "test_thing" "e" {
  for_each = toset(["a"])
}
resource "test_thing" "rep" {
  for_each = toset(["k"])
}
'''})
    res = h.plan()
    r = reasons(res)
    assert r["test_thing.c[1]"] == r["test_thing.c[2]"] == "delete_because_count_index"
    assert r['test_thing.e["b"]'] == "delete_because_each_key"
    assert r["test_thing.gone"] == "delete_because_no_resource_config"
    assert r["test_thing.rep"] == "delete_because_wrong_repetition"
    assert actions(res)['test_thing.rep["k"]'] == ("create",)


def test_data_source_read_now_or_planned(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
data "test_data" "known" { input = "k" }
resource "test_thing" "a" {}
data "test_data" "later" { input = test_thing.a.id }
resource "test_thing" "b" { value = data.test_data.known.result }
''')
    res = h.plan()
    assert ("read_data", "k") in h.provider.log
    b = next(c for c in res.plan.changes if c.addr.resource.name == "b")
    assert b.after.v["value"].v == "data:k"
    later = next(c for c in res.plan.changes if c.addr.resource.name == "later")
    assert later.action is Action.READ
    assert later.action_reason is not None
    assert later.action_reason.value == "read_because_config_unknown"
    applied = h.apply(res)
    assert not applied.diagnostics.has_errors, [str(d) for d in applied.diagnostics]
    assert ("read_data", "id-1") in h.provider.log


def test_targets_prune_and_warn(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
resource "test_thing" "a" {}
resource "test_thing" "b" { value = test_thing.a.id }
resource "test_thing" "other" {}
''')
    res = h.plan(targets=["test_thing.b"])
    assert set(actions(res)) == {"test_thing.a", "test_thing.b"}
    assert "Resource targeting is in effect" in messages(res.diagnostics)


def test_destroy_mode_and_refresh_only_drift(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
resource "test_thing" "a" {}
resource "test_thing" "b" { value = test_thing.a.id }
output "o" { value = test_thing.a.id }
''')
    h.plan_apply()
    res = h.plan(mode=PlanMode.DESTROY)
    assert set(actions(res).values()) == {("delete",)}
    assert [(o.name, o.action) for o in res.plan.output_changes] == [("o", Action.DELETE)]
    h.provider.gone.add("id-1")
    res = h.plan(mode=PlanMode.REFRESH_ONLY)
    assert res.plan.changes == []
    assert [(str(d.addr), d.action) for d in res.plan.drift] == [("test_thing.a", Action.DELETE)]


def test_conditions_and_checks(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
variable "v" { default = "bad" }
resource "test_thing" "a" {
  value = var.v
  lifecycle {
    precondition {
      condition     = var.v != "bad"
      error_message = "v is bad"
    }
  }
}
resource "test_thing" "b" {
  value = "x"
  lifecycle {
    postcondition {
      condition     = self.value == "y"
      error_message = "not y"
    }
  }
}
check "c" {
  assert {
    condition     = var.v == "good"
    error_message = "check failed"
  }
}
''')
    res = h.plan()
    by = {d.summary: d for d in res.diagnostics}
    assert by["Resource precondition failed"].detail == "v is bad"
    assert by["Resource postcondition failed"].detail == "not y"
    assert not by["Check block assertion failed"].is_error


def test_output_changes(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
output "same" { value = "s" }
output "changes" { value = "1" }
output "gone" { value = "g" }
output "secret" {
  value     = "x"
  sensitive = true
}''')
    h.plan_apply()
    h.write({"main.tf": '''
output "same" { value = "s" }
output "changes" { value = "2" }
output "new" { value = "n" }
output "secret" {
  value     = "x"
  sensitive = true
}'''})
    res = h.plan()
    got = {o.name: (o.action, o.sensitive) for o in res.plan.output_changes}
    assert got == {"same": (Action.NOOP, False), "changes": (Action.UPDATE, False),
                   "gone": (Action.DELETE, False), "new": (Action.CREATE, False),
                   "secret": (Action.NOOP, True)}


def test_module_count_instances(tmp_path: Path) -> None:
    h = Harness(str(tmp_path), {"main.tf": '''
module "m" {
  source   = "./mod"
  for_each = toset(["a", "b"])
  v        = each.key
}
output "vals" { value = { for k, m in module.m : k => m.out } }
''', "mod/main.tf": '''
variable "v" {}
resource "test_thing" "t" { value = "in-${var.v}" }
output "out" { value = test_thing.t.value }
'''})
    res = h.plan()
    assert set(actions(res)) == {'module.m["a"].test_thing.t', 'module.m["b"].test_thing.t'}
    (o,) = res.plan.output_changes
    assert o.after.v["a"].v == "in-a"


def test_instance_target_plans_only_that_instance(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
resource "test_thing" "c" {
  count = 3
  value = "v${count.index}"
}''')
    res = h.plan(targets=["test_thing.c[1]"])
    assert actions(res) == {"test_thing.c[1]": ("create",)}
    h.apply(res)
    h.write({"main.tf": '''
resource "test_thing" "c" {
  count = 1
  value = "w${count.index}"
}'''})
    res = h.plan(targets=["test_thing.c[0]"])
    assert actions(res) == {"test_thing.c[0]": ("create",)}


def test_provider_block_configures_its_instance(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
locals { region = "eu-1" }
provider "test" { region = local.region }
resource "test_thing" "a" {}
''')
    res = h.plan()
    assert not res.diagnostics.has_errors
    assert [c.v["region"].v for c in h.provider.configured] == ["eu-1"]
    assert str(res.plan.changes[0].provider) == 'provider["registry.terraform.io/hashicorp/test"]'


def test_moved_blocks_rename_prior_objects(tmp_path: Path) -> None:
    h = Harness(str(tmp_path), {"main.tf": '''
resource "test_thing" "one" {
  for_each = toset(["a"])
  value    = "x"
}
module "old" { source = "./mod" }
''', "mod/main.tf": 'resource "test_thing" "t" { value = "m" }\n'})
    h.plan_apply()
    h.write({"main.tf": '''
moved {
  from = test_thing.one["a"]
  to   = test_thing.one["b"]
}
moved {
  from = module.old
  to   = module.new
}
resource "test_thing" "one" {
  for_each = toset(["b"])
  value    = "x"
}
module "new" { source = "./mod" }
'''})
    res = h.plan()
    got = {str(c.addr): (c.action.value, str(c.prev_run_addr)) for c in res.plan.changes}
    assert got == {'test_thing.one["b"]': (("no-op",), 'test_thing.one["a"]'),
                   "module.new.test_thing.t": (("no-op",), "module.old.test_thing.t")}
    assert res.plan.applyable
    applied = h.apply(res)
    assert not applied.diagnostics.has_errors
    assert not h.plan().plan.applyable
