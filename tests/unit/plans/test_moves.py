"""Move statements: endpoint matching, ordering of chains, validation messages, `removed`.

Texts of the diagnostics are terraform 1.11's (internal/refactoring/move_validate.go,
remove_statement.go, context_plan.go), checked here with exact details and source ranges.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.addrs import (
    AbsResourceInstance,
    ModuleInstance,
    parse_abs_resource,
    parse_abs_resource_instance,
    parse_module_instance,
)
from engine.plans.moves_endpoint import (
    ModuleCallRel,
    MoveEndpoint,
    instance_destination,
    module_destination,
    parse_rel,
    unify,
)
from engine.plans.moves_statements import MoveStatement, statement_graph
from engine.plans.moves_validate import cycle_diagnostics
from engine.source import synthetic_range
from tests.unit.planner.fakes import Harness, actions, messages

RNG = synthetic_range("main.tf", "moved {}\n")


def _at(h: Harness, pos: str) -> str:
    """A position in the harness's main.tf as terraform's StartString shows it."""
    return f"{os.path.join(h.dir, 'main.tf')}:{pos}"


def _ep(module: tuple[str, ...], text: str) -> MoveEndpoint:
    return MoveEndpoint(module, parse_rel(text, text.endswith("]")), RNG)


def _stmt(frm: str, to: str, module: tuple[str, ...] = ()) -> MoveStatement:
    pair = unify(_ep(module, frm), _ep(module, to))
    assert pair is not None
    return MoveStatement(pair[0], pair[1], RNG)


# ------------------------------------------------------------------------ endpoints


def test_parse_rel_kinds() -> None:
    assert parse_rel("module.a", False) == ModuleCallRel(ModuleInstance(), "a")
    assert parse_rel("module.a[0]", True) == parse_module_instance("module.a[0]")
    assert parse_rel("module.a[0].module.b", False) == ModuleCallRel(
        parse_module_instance("module.a[0]"), "b")
    assert parse_rel("test_thing.a", False) == parse_abs_resource("test_thing.a")
    assert parse_rel('test_thing.a["k"]', True) == parse_abs_resource_instance(
        'test_thing.a["k"]')


def test_unify_resource_with_instance_uses_the_no_key_instance() -> None:
    s = _stmt("test_thing.a", 'test_thing.a["k"]')
    assert s.frm.rel == parse_abs_resource_instance("test_thing.a")
    assert str(s.frm) == "test_thing.a" and str(s.to) == 'test_thing.a["k"]'
    m = _stmt("module.a", "module.a[0]")
    assert m.frm.rel == parse_module_instance("module.a")
    assert unify(_ep((), "module.a"), _ep((), "test_thing.a")) is None


def test_endpoint_string_uses_wildcards() -> None:
    assert str(_ep(("m",), "test_thing.a")) == "module.m[*].test_thing.a[*]"
    assert str(_ep((), "module.a")) == "module.a[*]"
    assert str(_ep((), "test_thing.a[0]")) == "test_thing.a[0]"


def test_statement_in_child_module_applies_to_every_instance() -> None:
    s = _stmt("test_thing.old", "test_thing.new", module=("m",))
    for key in ("p", "q", 0, None):
        old = AbsResourceInstance(ModuleInstance().child("m", key),
                                  parse_abs_resource("test_thing.old").resource, 1)
        new = instance_destination(old, s.frm, s.to)
        assert new is not None
        assert new == AbsResourceInstance(old.module, parse_abs_resource("test_thing.new")
                                          .resource, 1)
    # nested deeper or in the root: not selected
    deeper = parse_abs_resource_instance("module.m.module.n.test_thing.old")
    root = parse_abs_resource_instance("test_thing.old")
    assert instance_destination(deeper, s.frm, s.to) is None
    assert instance_destination(root, s.frm, s.to) is None


def test_module_call_move_keeps_keys_and_descendants() -> None:
    s = _stmt("module.a", "module.b")
    got = module_destination(parse_module_instance('module.a["x"].module.c'), s.frm, s.to)
    assert got == parse_module_instance('module.b["x"].module.c')
    assert module_destination(parse_module_instance("module.ab"), s.frm, s.to) is None
    inst = _stmt("module.a[0]", 'module.a["x"]')
    assert module_destination(parse_module_instance("module.a[0]"), inst.frm, inst.to) == \
        parse_module_instance('module.a["x"]')
    assert module_destination(parse_module_instance("module.a[1]"), inst.frm, inst.to) is None


def test_resource_moves_into_a_module() -> None:
    s = _stmt("test_thing.a", "module.m.test_thing.a")
    got = instance_destination(parse_abs_resource_instance("test_thing.a[3]"), s.frm, s.to)
    assert got == parse_abs_resource_instance("module.m.test_thing.a[3]")


# ------------------------------------------------------------------------ ordering


def test_chain_runs_the_earlier_link_first() -> None:
    b_to_c = _stmt("test_thing.b", "test_thing.c")
    a_to_b = _stmt("test_thing.a", "test_thing.b")
    g = statement_graph([b_to_c, a_to_b])
    assert g.deps == {0: [1], 1: []}
    assert g.order() == [a_to_b, b_to_c]
    assert g.cycles() == []


def test_nested_move_runs_after_the_module_move() -> None:
    inner = _stmt("module.b.test_thing.x", "module.b.test_thing.y")
    outer = _stmt("module.a", "module.b")
    assert statement_graph([inner, outer]).order() == [outer, inner]


def test_cycle_is_reported_with_every_statement() -> None:
    stmts = [_stmt("test_thing.a", "test_thing.b"), _stmt("test_thing.b", "test_thing.a")]
    assert statement_graph(stmts).cycles() == [[0, 1]]
    d = cycle_diagnostics(stmts).items
    assert [x.summary for x in d] == ["Cyclic dependency in move statements"]
    assert d[0].subject is None
    assert d[0].detail == (
        "The following chained move statements form a cycle, and so there is no final "
        "location to move objects to:\n  - main.tf:1,1: test_thing.a[*] → test_thing.b[*]"
        "\n  - main.tf:1,1: test_thing.b[*] → test_thing.a[*]\n\nA chain of move statements "
        "must end with an address that doesn't appear in any other statements, and which "
        "typically also refers to an object still declared in the configuration.")


# ------------------------------------------------------------------------ planning


@pytest.fixture
def h(tmp_path: Path) -> Harness:
    h = Harness(str(tmp_path), {"main.tf": '''
resource "test_thing" "a" {
  value = "a"
}
resource "test_thing" "b" {
  value = "b"
}
'''})
    h.plan_apply()
    return h


def test_chain_summarises_previous_address(h: Harness) -> None:
    h.write({"main.tf": '''
resource "test_thing" "b" {
  value = "b"
}
resource "test_thing" "z" {
  value = "a"
}
moved {
  from = test_thing.y
  to   = test_thing.z
}
moved {
  from = test_thing.a
  to   = test_thing.y
}
'''})
    res = h.plan()
    assert not res.diagnostics.has_errors
    prev = {str(c.addr): str(c.prev_run_addr) for c in res.plan.changes if c.prev_run_addr}
    assert prev == {"test_thing.z": "test_thing.a"}


def test_blocked_move_warns_and_deletes_the_source(h: Harness) -> None:
    h.write({"main.tf": '''
resource "test_thing" "b" {
  value = "b"
}
moved {
  from = test_thing.a
  to   = test_thing.b
}
'''})
    res = h.plan()
    assert actions(res) == {"test_thing.a": ("delete",), "test_thing.b": ("no-op",)}
    w = [d for d in res.diagnostics if d.summary == "Unresolved resource instance address "
         "changes"]
    assert len(w) == 1 and not w[0].is_error
    assert "\n  - test_thing.a could not move to test_thing.b\n\ngroundplan has planned " \
        "to destroy these objects." in w[0].detail


def test_moved_object_still_exists_points_at_declaration(h: Harness) -> None:
    h.write({"main.tf": '''
resource "test_thing" "a" {
  count = 2
  value = "a"
}
resource "test_thing" "b" {
  value = "b"
}
moved {
  from = test_thing.a[1]
  to   = test_thing.c
}
resource "test_thing" "c" {
  value = "c"
}
'''})
    res = h.plan()
    assert messages(res.diagnostics) == ["Moved object still exists"]
    d = res.diagnostics.items[0]
    assert d.detail == (
        "This statement declares a move from test_thing.a[1], but that resource instance is "
        f"still declared at {_at(h, '3,11')}.\n\nChange your configuration so that this instance "
        "will be declared as test_thing.c instead.")
    assert d.subject is not None and (d.subject.start.line, d.subject.start.column) == (9, 1)
    assert res.plan.errored and res.plan.changes == []


def test_ambiguous_and_redundant_statements(h: Harness) -> None:
    h.write({"main.tf": '''
resource "test_thing" "b" {
  value = "b"
}
resource "test_thing" "c" {
  value = "c"
}
moved {
  from = test_thing.a
  to   = test_thing.b
}
moved {
  from = test_thing.a
  to   = test_thing.c
}
'''})
    res = h.plan()
    assert messages(res.diagnostics) == ["Ambiguous move statements"]
    assert res.diagnostics.items[0].detail == (
        f"A statement at {_at(h, '8,1')} declared that test_thing.a moved to test_thing.b, but this "
        "statement instead declares that it moved to test_thing.c.\n\nEach resource can move "
        "to only one destination resource.")
    h.write({"main.tf": '''
resource "test_thing" "b" {
  value = "b"
}
moved {
  from = test_thing.b
  to   = test_thing.b
}
'''})
    res = h.plan()
    assert messages(res.diagnostics) == ["Redundant move statement"]
    assert res.diagnostics.items[0].detail == (
        "This statement declares a move from test_thing.b to the same address, which is the "
        "same as not declaring this move at all.")


def test_two_sources_for_one_destination(h: Harness) -> None:
    h.write({"main.tf": '''
resource "test_thing" "c" {
  value = "c"
}
moved {
  from = test_thing.a
  to   = test_thing.c
}
moved {
  from = test_thing.b
  to   = test_thing.c
}
'''})
    res = h.plan()
    assert messages(res.diagnostics) == ["Ambiguous move statements"]
    assert res.diagnostics.items[0].detail == (
        f"A statement at {_at(h, '5,1')} declared that test_thing.a moved to test_thing.c, but this "
        "statement instead declares that test_thing.b moved there.\n\nEach resource can have "
        "moved from only one source resource.")


def test_removed_still_declared_and_forget(h: Harness) -> None:
    h.write({"main.tf": '''
resource "test_thing" "a" {
  value = "a"
}
removed {
  from = test_thing.a
}
'''})
    res = h.plan()
    assert messages(res.diagnostics) == ["Removed resource still exists"]
    d = res.diagnostics.items[0]
    assert d.detail == ("This statement declares that test_thing.a was removed, but it is "
                        "still declared in configuration.")
    assert d.subject is not None and d.subject.start.line == 2
    h.write({"main.tf": '''
removed {
  from = test_thing.a
  lifecycle {
    destroy = false
  }
}
'''})
    res = h.plan()
    assert actions(res) == {"test_thing.a": ("forget",), "test_thing.b": ("delete",)}
    w = [d for d in res.diagnostics if not d.is_error]
    assert [x.summary for x in w] == ["Some objects will no longer be managed by groundplan"]
    assert "them:\n - test_thing.a\n\nAfter applying" in w[0].detail
