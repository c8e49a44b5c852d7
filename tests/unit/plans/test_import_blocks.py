"""`import` blocks in plan and apply (engine.plans.planner_imports, engine.apply.imports)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.addrs import AbsResourceInstance, Module
from engine.configs.loader import load_config
from engine.configs.refcheck import check_references
from engine.graph.builder_nodes import RESOURCE, Node
from engine.plans.codec import decode_plan, encode_plan
from engine.plans.hooks import Hooks
from engine.plans.model import Action, Importing, PlanMode
from engine.plans.planner_imports import target_names, target_node
from engine.plugin import protocol as p
from engine.states.manager import StateManager
from engine.states.state import ResourceInstanceObject
from engine.values import STRING, null, object_, string
from tests.unit.planner.fakes import TEST_PROVIDER, Harness, actions, messages
from tests.unit.planner.fakes import TestProvider as BaseProvider


class ImportingProvider(BaseProvider):
    """The test provider, able to import: any id imports as an object with `value` = "v-ID";
    ids in `gone` read back as absent; `import_count` objects per import (default 1)."""

    def __init__(self) -> None:
        super().__init__()
        self.import_count = 1

    def import_resource_state(self, req: Any) -> p.ImportResourceStateResponse:
        self._note("import", req.id)
        obj = object_({"id": string(req.id), "value": string(f"v-{req.id}"),
                       "replace": null(STRING), "stamp": string("s1")})
        return p.ImportResourceStateResponse(imported_resources=[
            p.ImportedResource("test_thing", obj) for _ in range(self.import_count)])


class Recorder(Hooks):
    def __init__(self) -> None:
        self.events: list[tuple[str, str, str | None]] = []

    def pre_plan_import(self, addr: AbsResourceInstance, id: str) -> None:
        self.events.append(("prepare", str(addr), id))

    def pre_refresh(self, addr: AbsResourceInstance, id: str | None) -> None:
        self.events.append(("refresh", str(addr), id))

    def pre_apply_import(self, addr: AbsResourceInstance, id: str) -> None:
        self.events.append(("importing", str(addr), id))

    def post_apply_import(self, addr: AbsResourceInstance, id: str) -> None:
        self.events.append(("imported", str(addr), id))

    def pre_apply(self, addr: AbsResourceInstance, action: Action, id: str | None) -> None:
        self.events.append(("apply", str(addr), id))


def _h(tmp_path: Path, text: str) -> Harness:
    h = Harness(str(tmp_path), {"main.tf": text})
    prov = ImportingProvider()
    h.provider = prov
    h.registry.register(TEST_PROVIDER, lambda: prov)
    return h


def _importing(res: Any) -> dict[str, str | None]:
    return {str(c.addr): c.importing.id if c.importing else None for c in res.plan.changes}


# ------------------------------------------------------------------ static shape
def test_target_node_ignores_index_steps(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
import {
  for_each = toset(["a"])
  to = module.m.test_thing.x[each.key]
  id = each.value
}
import {
  to = test_thing.y[0]
  id = "i"
}
''')
    cfg, _ = load_config(h.dir)
    a, b = cfg.module.imports
    assert target_names(a.to) == ["module", "m", "test_thing", "x"]
    assert target_node(a) == Node(RESOURCE, Module(("m",)), "test_thing.x")
    assert target_node(b) == Node(RESOURCE, Module(()), "test_thing.y")


# ------------------------------------------------------------------ planning
def test_import_then_noop_and_update(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
import {
  to = test_thing.same
  id = "a"
}
import {
  to = test_thing.changed
  id = "b"
}
resource "test_thing" "same" { value = "v-a" }
resource "test_thing" "changed" { value = "new" }
''')
    rec = Recorder()
    res = h.plan(hooks=rec)
    assert not res.diagnostics.has_errors, messages(res.diagnostics)
    assert actions(res) == {"test_thing.changed": ("update",), "test_thing.same": ("no-op",)}
    assert _importing(res) == {"test_thing.changed": "b", "test_thing.same": "a"}
    assert res.plan.counts() == (0, 1, 0, 2, 0)
    assert res.plan.applyable
    changed = next(c for c in res.plan.changes if c.addr.resource.name == "changed")
    assert changed.before.v["value"].v == "v-b"
    # one ImportResourceState and one ReadResource per target: no second refresh
    assert sorted(op for op, _ in h.provider.log) == ["import", "import", "read", "read"]
    assert ("prepare", "test_thing.same", "a") in rec.events
    assert [e for e in rec.events if e[1] == "test_thing.same"] == [
        ("prepare", "test_thing.same", "a"), ("refresh", "test_thing.same", "a")]
    # the imported objects are in the plan's prior state, not in the previous run state
    assert {r.name for r in res.prior_state.resources} == {"same", "changed"}
    assert res.prev_run_state.resources == []


def test_apply_records_imports_and_next_plan_is_empty(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
import {
  to = test_thing.x
  id = "a"
}
resource "test_thing" "x" { value = "new" }
''')
    res = h.plan()
    intents: list[tuple[str, str]] = []
    real = StateManager.record_intent

    def spy(self: StateManager, addr: AbsResourceInstance, action: str,
            deposed: str = "") -> Any:
        intents.append((str(addr), action))
        return real(self, addr, action, deposed)

    rec = Recorder()
    StateManager.record_intent = spy  # type: ignore[method-assign]
    try:
        out = h.apply(res, hooks=rec)
    finally:
        StateManager.record_intent = real  # type: ignore[method-assign]
    assert not out.diagnostics.has_errors, messages(out.diagnostics)
    assert intents[0] == ("test_thing.x", "import")
    assert [e[0] for e in rec.events] == ["importing", "imported", "apply"]
    sf = h.state()
    assert sf is not None
    obj = sf.state.resources[0].instances[0].current
    assert isinstance(obj, ResourceInstanceObject)
    again = h.plan()
    assert actions(again) == {"test_thing.x": ("no-op",)}
    assert _importing(again) == {"test_thing.x": None}
    assert ("import", "a") not in h.provider.log[-1:]


def test_for_each_import_with_each_key_and_value(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
locals {
  ids = { a = "id-a", b = "id-b" }
}
import {
  for_each = local.ids
  to       = test_thing.x[each.key]
  id       = "${each.value}-x"
}
resource "test_thing" "x" {
  for_each = local.ids
  value    = "v-${each.value}-x"
}
''')
    res = h.plan()
    assert not res.diagnostics.has_errors, messages(res.diagnostics)
    assert _importing(res) == {'test_thing.x["a"]': "id-a-x", 'test_thing.x["b"]': "id-b-x"}
    assert set(actions(res).values()) == {("no-op",)}


def test_list_for_each_imports_count_instances(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
import {
  for_each = ["p", "q"]
  to       = test_thing.x[each.key]
  id       = each.value
}
resource "test_thing" "x" { count = 2 }
''')
    res = h.plan()
    assert _importing(res) == {"test_thing.x[0]": "p", "test_thing.x[1]": "q"}


def test_id_from_variable_and_local_waits_for_them(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
variable "v" { default = "x" }
locals { id = "${var.v}-1" }
import {
  to = test_thing.x
  id = local.id
}
resource "test_thing" "x" {}
''')
    res = h.plan(parallelism=1)
    assert _importing(res) == {"test_thing.x": "x-1"}


def test_target_already_in_state_is_ignored(tmp_path: Path) -> None:
    h = _h(tmp_path, 'resource "test_thing" "x" { value = "v" }\n')
    h.plan_apply()
    h.write({"main.tf": '''
import {
  to = test_thing.x
  id = "other"
}
resource "test_thing" "x" { value = "v" }
'''})
    res = h.plan()
    assert not res.diagnostics.has_errors
    assert _importing(res) == {"test_thing.x": None}
    assert all(op != "import" for op, _ in h.provider.log)


@pytest.mark.parametrize("mode", [PlanMode.REFRESH_ONLY, PlanMode.DESTROY])
def test_other_modes_ignore_import_blocks(tmp_path: Path, mode: PlanMode) -> None:
    h = _h(tmp_path, '''
import {
  to = test_thing.missing
  id = "a"
}
import {
  to = test_thing.x
  id = "a"
}
resource "test_thing" "x" {}
''')
    res = h.plan(mode=mode)
    assert not res.diagnostics.has_errors, messages(res.diagnostics)
    assert res.plan.changes == []
    assert all(op != "import" for op, _ in h.provider.log)


# ------------------------------------------------------------------ errors
def test_missing_configuration(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
import {
  to = test_thing.y
  id = "a"
}
resource "test_thing" "x" {}
''')
    res = h.plan()
    d = next(d for d in res.diagnostics if d.is_error)
    assert d.summary == "Configuration for import target does not exist"
    assert d.detail.startswith("The configuration for the given import target test_thing.y "
                               "does not exist. If you wish to automatically generate config")
    assert d.subject is not None and d.subject.start.line == 3
    assert actions(res) == {"test_thing.x": ("create",)}
    assert res.plan.errored


def test_key_outside_expansion_is_sourceless(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
import {
  to = test_thing.x[5]
  id = "a"
}
resource "test_thing" "x" { count = 1 }
''')
    res = h.plan()
    d = next(d for d in res.diagnostics if d.is_error)
    assert (d.summary, d.subject) == ("Configuration for import target does not exist", None)
    assert d.detail == ("The configuration for the given import test_thing.x[5] does not exist. "
                        "All target instances must have an associated configuration to be "
                        "imported.")
    assert res.plan.changes == []


@pytest.mark.parametrize("expr, detail", [
    ("test_thing.a.id", 'The import block "id" argument depends on resource attributes that '
                        "cannot be determined until apply, so groundplan cannot plan to import "
                        "this resource."),
    ("var.empty", "The import ID value evaluates to an empty string, please provide a "
                  "non-empty value."),
    ("var.nothing", "The import ID cannot be null."),
])
def test_invalid_ids(tmp_path: Path, expr: str, detail: str) -> None:
    h = _h(tmp_path, f'''
variable "empty" {{ default = "" }}
variable "nothing" {{
  type    = string
  default = null
}}
resource "test_thing" "a" {{}}
import {{
  to = test_thing.x
  id = {expr}
}}
resource "test_thing" "x" {{}}
''')
    res = h.plan()
    d = next(d for d in res.diagnostics if d.is_error)
    assert (d.summary, d.detail) == ("Invalid import id argument", detail)
    assert d.subject is not None and d.subject.start.line == 10
    assert "test_thing.x" not in actions(res)


def test_non_existent_remote_object(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
import {
  to = test_thing.x
  id = "nope"
}
resource "test_thing" "x" {}
''')
    h.provider.gone.add("nope")
    res = h.plan()
    d = next(d for d in res.diagnostics if d.is_error)
    assert d.summary == "Cannot import non-existent remote object"
    assert d.detail.startswith('While attempting to import an existing object to '
                               '"test_thing.x", the provider detected that no object exists')
    assert res.plan.changes == []


@pytest.mark.parametrize("count, summary", [
    (0, "Import returned no resources"), (2, "Multiple import states not supported")])
def test_provider_import_results(tmp_path: Path, count: int, summary: str) -> None:
    h = _h(tmp_path, '''
import {
  to = test_thing.x
  id = "i"
}
resource "test_thing" "x" {}
''')
    prov = h.provider
    assert isinstance(prov, ImportingProvider)
    prov.import_count = count
    res = h.plan()
    assert messages(res.diagnostics)[0] == summary


def test_static_checks(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
import {
  to = test_thing.c
  id = "a"
}
import {
  to = test_thing.e["k"]
  id = null
}
resource "test_thing" "c" { count = 1 }
resource "test_thing" "e" {}
module "m" { source = "./m" }
''')
    h.write({"m/main.tf": 'import {\n  to = test_thing.z\n  id = "a"\n}\n'
                          'resource "test_thing" "z" {}\n'})
    cfg, diags = load_config(h.dir)
    assert not diags.has_errors
    got = [(d.summary, d.detail, d.subject.start.line if d.subject else None)
           for d in check_references(cfg) if d.is_error]
    assert got == [
        ("Invalid import configuration", 'An import block was detected in "module.m". Import '
         "blocks are only allowed in the root module.", 1),
        ("Invalid import 'to' expression", "The target resource is using count.", 3),
        ("Invalid import 'to' expression", "The target resource does not use for_each.", 7),
        ("Invalid import id argument", "The import ID cannot be null.", 8),
    ]


# ------------------------------------------------------------------ saved plans
def test_saved_plan_keeps_importing(tmp_path: Path) -> None:
    h = _h(tmp_path, '''
import {
  to = test_thing.x
  id = "a"
}
resource "test_thing" "x" {}
''')
    res = h.plan()
    back = decode_plan(encode_plan(res.plan))
    assert [c.importing for c in back.changes] == [Importing("a")]


def test_duplicate_import_points_at_second_to(tmp_path: Path) -> None:
    h = _h(tmp_path, 'resource "test_thing" "x" {}\n')
    h.write({"main.tf": 'import {\n  to = test_thing.x\n  id = "a"\n}\n'
                        'import {\n  to = test_thing.x\n  id = "b"\n}\n'
                        'resource "test_thing" "x" {}\n'})
    _cfg, diags = load_config(h.dir)
    d = next(d for d in diags if d.is_error)
    assert d.summary == 'Duplicate import configuration for "test_thing.x"'
    assert d.subject is not None and (d.subject.start.line, d.subject.start.column) == (6, 8)
