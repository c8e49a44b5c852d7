"""The apply journal: durable records, torn-write tolerance, replay; and SyncState."""

from __future__ import annotations

import threading
from pathlib import Path

from engine.addrs import parse_abs_resource_instance
from engine.gocompat import json as gojson
from engine.states.journal import Journal, journal_path, read_journal, replay
from engine.states.state import (
    OutputValue,
    Resource,
    ResourceInstance,
    ResourceInstanceObject,
    State,
    StateFile,
)
from engine.states.statefile import state_to_json
from engine.states.sync import SyncState
from engine.values import string

P = 'provider["registry.terraform.io/hashicorp/null"]'
A = parse_abs_resource_instance("null_resource.a")
B0 = parse_abs_resource_instance("null_resource.b[0]")
MK = parse_abs_resource_instance('module.m["k"].null_resource.c')


def obj(ident: str, **extra: object) -> ResourceInstanceObject:
    return ResourceInstanceObject(attributes={"id": ident, **extra})


def test_default_path() -> None:
    assert journal_path("dir/terraform.tfstate") == "dir/terraform.tfstate.journal"


def test_records_round_trip_with_exact_numbers(tmp_path: Path) -> None:
    path = str(tmp_path / "j")
    j = Journal(path, "lin", 4)
    assert not j.open()
    big = gojson.RawNumber("123456789012345678901234567890.5")
    o = ResourceInstanceObject(
        schema_version=2, attributes={"id": "x", "n": big}, private="cHJpdg==",
        dependencies=["null_resource.z"], create_before_destroy=True, status="tainted",
        sensitive_attributes=[[{"type": "get_attr", "value": "n"}]],
    )
    assert not j.intent(MK, "create", 1)
    assert not j.result(MK, 1, o, "ok", provider=P)
    j.set_base("lin", 5)
    assert not j.intent(A, "delete", 2, deposed="00000001")
    assert not j.result(A, 2, None, "ok", provider=P, deposed="00000001")
    assert not j.persisting(6)
    j.close()
    records, diags = read_journal(path)
    assert not diags
    assert [(r.kind, r.seq, r.serial, r.lineage) for r in records] == [
        ("intent", 1, 4, "lin"), ("result", 1, 4, "lin"), ("intent", 2, 5, "lin"),
        ("result", 2, 5, "lin"), ("persist", 0, 6, "lin"),
    ]
    assert records[0].action == "create" and records[0].addr == 'module.m["k"].null_resource.c'
    got = records[1].object
    assert got is not None and got.attributes["n"] == big and got.status == "tainted"
    assert got.private == "cHJpdg==" and got.create_before_destroy
    assert got.dependencies == ["null_resource.z"] and got.schema_version == 2
    assert records[3].object is None and records[3].deposed == "00000001"
    assert "123456789012345678901234567890.5" in Path(path).read_text()


def test_torn_last_line_is_dropped_but_a_corrupt_middle_line_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "j"
    j = Journal(str(path))
    j.open()
    j.intent(A, "create", 1)
    j.result(A, 1, obj("a"), provider=P)
    j.close()
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"kind":"intent","seq":2,"ad')
    records, diags = read_journal(str(path))
    assert not diags and len(records) == 2
    path.write_bytes(whole + b"\x00\x00\x00")
    records, diags = read_journal(str(path))
    assert not diags and len(records) == 2
    path.write_bytes(b"garbage\n" + whole)
    records, diags = read_journal(str(path))
    assert diags.has_errors and "Line 1" in diags.errors[0].detail
    records, diags = read_journal(str(tmp_path / "missing"))
    assert records == [] and not diags


def test_replay_applies_results_and_names_begun_without_result(tmp_path: Path) -> None:
    path = str(tmp_path / "j")
    j = Journal(path)
    j.open()
    j.intent(A, "create", 1)
    j.intent(B0, "create", 2)
    j.result(A, 1, obj("a1"), provider=P)
    j.intent(MK, "update", 3)
    j.intent(A, "update", 4)
    j.result(A, 4, obj("a2"), provider=P)
    j.intent(B0, "create", 5)  # a retry of the same instance: named once
    j.close()
    records, _ = read_journal(path)
    state, begun = replay(records, None)
    assert begun == [B0, MK]
    assert len(state.resources) == 1
    assert state.resources[0].instances[0].current == obj("a2")
    # replaying the same records over the result changes nothing (idempotent)
    again, _ = replay(records, state)
    assert state_to_json(StateFile(again, "l", 1)) == state_to_json(StateFile(state, "l", 1))


def test_replay_removes_and_keeps_untouched(tmp_path: Path) -> None:
    base = State(
        outputs={"o": OutputValue(string("v"))},
        resources=[
            Resource("managed", "null_resource", "a", P, instances=[
                ResourceInstance(None, obj("old"), {"dd": obj("deposed")}),
            ]),
            Resource("managed", "null_resource", "keep", P, instances=[
                ResourceInstance(None, obj("k")),
            ]),
        ],
    )
    j = Journal(str(tmp_path / "j"))
    j.open()
    j.intent(A, "delete", 1, deposed="dd")
    j.result(A, 1, None, deposed="dd", provider=P)
    j.intent(A, "delete", 2)
    j.result(A, 2, None, provider=P)
    j.close()
    records, _ = read_journal(str(tmp_path / "j"))
    state, begun = replay(records, base)
    assert begun == []
    assert [r.name for r in state.resources] == ["keep"]
    assert state.outputs["o"].value == string("v")
    # the input state is not modified
    assert base.resources[0].instances[0].current == obj("old")


def test_many_threads_append_whole_lines(tmp_path: Path) -> None:
    path = str(tmp_path / "j")
    j = Journal(path)
    j.open()

    def work(t: int) -> None:
        for i in range(50):
            addr = parse_abs_resource_instance(f"null_resource.t{t}[{i}]")
            assert not j.intent(addr, "create", t * 1000 + i)
            assert not j.result(addr, t * 1000 + i, obj(f"{t}-{i}"), provider=P)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    j.close()
    records, diags = read_journal(path)
    assert not diags and len(records) == 800
    state, begun = replay(records, None)
    assert begun == [] and sum(len(r.instances) for r in state.resources) == 400


# ------------------------------------------------------------------------------ SyncState
def test_sync_state_indexes_and_snapshots_deep_copies() -> None:
    s = SyncState()
    a = obj("a", tags={"x": ["1"]})
    s.set_current(A, a, P)
    s.set_current(B0, obj("b0"), P)
    s.set_deposed(B0, "d1", obj("old"), P)
    s.set_current(MK, obj("c"), P)
    s.set_output("out", OutputValue(string("v"), sensitive=True))
    snap = s.snapshot()
    by_name = {(r.module, r.name): r for r in snap.resources}
    assert set(by_name) == {("", "a"), ("", "b"), ('module.m["k"]', "c")}
    b = by_name[("", "b")].instances[0]
    assert b.index_key == 0 and b.current == obj("b0") and b.deposed == {"d1": obj("old")}
    a.attributes["tags"]["x"].append("2")  # the caller broke the contract ...
    snap.resources[0].instances[0].current.attributes["id"] = "mutated"  # type: ignore[union-attr]
    fresh = s.current(A)
    assert fresh is not None and fresh.attributes["id"] == "a"  # ... snapshots are copies
    s.remove_current(B0)
    s.remove_deposed(B0, "d1")
    s.remove_current(A)
    s.remove_output("out")
    snap2 = s.snapshot()
    assert [r.name for r in snap2.resources] == ["c"] and snap2.outputs == {}
    assert s.current(B0) is None and s.deposed(B0, "d1") is None
    assert s.changes == 9


def test_sync_state_keeps_int_and_string_keys_apart() -> None:
    s = SyncState()
    s.set_current(parse_abs_resource_instance("null_resource.x[0]"), obj("int"), P)
    s.set_current(parse_abs_resource_instance('null_resource.x["0"]'), obj("str"), P)
    keys = sorted(repr(i.index_key) for i in s.snapshot().resources[0].instances)
    assert keys == ["'0'", "0"]


def test_sync_state_from_initial_state_does_not_share_objects() -> None:
    inner = obj("a")
    base = State(resources=[Resource("managed", "null_resource", "a", P, each="list",
                                     instances=[ResourceInstance(None, inner)])])
    s = SyncState(base)
    s.set_current(A, obj("changed"), "")
    assert inner.attributes["id"] == "a"
    snap = s.snapshot()
    assert snap.resources[0].provider == P and snap.resources[0].each == "list"
