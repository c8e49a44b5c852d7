from __future__ import annotations

import datetime as dt
import hashlib
import os
from pathlib import Path

from engine.plugin import protocol as p
from engine.plugin.sdk import UNKNOWN, SDKProvider, to_value
from providers.local import LocalProvider
from providers.null import NullProvider
from providers.time import TimeProvider
from providers.time.clock import add_date, parse_duration
from tests.unit.sdk.helpers import create, native, object_type, plan

NULL = SDKProvider(NullProvider())
LOCAL = SDKProvider(LocalProvider())
TIME = SDKProvider(TimeProvider())


def test_null_resource_triggers_replace() -> None:
    state = create(NULL, "null_resource", {"triggers": {"a": "1"}})
    assert native(state)["id"].isdigit()
    resp = plan(NULL, "null_resource", {"triggers": {"a": "2"}}, prior=state)
    assert [str(x) for x in resp.requires_replace] == ["triggers"]


def test_null_data_source_copies_inputs() -> None:
    t = NULL.get_provider_schema().data_sources["null_data_source"].block.implied_type()
    resp = NULL.read_data_source(p.ReadDataSourceRequest(
        "null_data_source", to_value({"inputs": {"a": "b"}}, t)))
    got = native(resp.state)
    assert got["outputs"] == {"a": "b"} and got["has_computed_default"] == "default"
    assert got["id"] == "static"


def test_local_file_writes_reads_and_deletes(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "f.txt"
    state = create(LOCAL, "local_file", {"filename": str(target), "content": "hi",
                                         "file_permission": "0640"})
    s = native(state)
    assert target.read_text() == "hi" and os.stat(target).st_mode & 0o777 == 0o640
    assert s["id"] == hashlib.sha1(b"hi").hexdigest() and s["directory_permission"] == "0777"
    read = LOCAL.read_resource(p.ReadResourceRequest("local_file", state))
    assert native(read.new_state) == s
    target.write_text("changed")
    gone = LOCAL.read_resource(p.ReadResourceRequest("local_file", state))
    assert gone.new_state.is_null
    LOCAL.apply_resource_change(p.ApplyResourceChangeRequest(
        "local_file", state, to_value(None, object_type(LOCAL, "local_file")), state))
    assert not target.exists()


def test_local_file_needs_exactly_one_content() -> None:
    t = object_type(LOCAL, "local_file")
    for cfg in ({"filename": "x"}, {"filename": "x", "content": "a", "source": "b"}):
        resp = LOCAL.validate_resource_config(
            p.ValidateResourceConfigRequest("local_file", to_value(cfg, t)))
        assert resp.diagnostics.has_errors


def test_local_sensitive_file_and_data_source(tmp_path: Path) -> None:
    target = tmp_path / "s.txt"
    s = native(create(LOCAL, "local_sensitive_file", {"filename": str(target),
                                                      "content_base64": "aGk="}))
    assert target.read_bytes() == b"hi" and s["file_permission"] == "0700"
    schema = LOCAL.get_provider_schema().data_sources["local_sensitive_file"]
    assert schema.block.attributes["content"].sensitive
    resp = LOCAL.read_data_source(p.ReadDataSourceRequest(
        "local_file", to_value({"filename": str(target)},
                               LOCAL.get_provider_schema().data_sources["local_file"]
                               .block.implied_type())))
    assert native(resp.state)["content"] == "hi"


def test_time_static_now_or_given() -> None:
    planned = native(plan(TIME, "time_static", {}).planned_state)
    assert planned["rfc3339"] is UNKNOWN and planned["year"] is UNKNOWN
    s = native(create(TIME, "time_static", {"rfc3339": "2020-02-12T06:36:13Z"}))
    assert (s["year"], s["month"], s["day"], s["unix"]) == (2020, 2, 12, 1581489373)
    now = native(create(TIME, "time_static", {}))
    assert now["id"] == now["rfc3339"] and now["rfc3339"].endswith("Z")


def test_time_offset_and_in_place_update() -> None:
    state = create(TIME, "time_offset", {"base_rfc3339": "2020-01-31T00:00:00Z",
                                         "offset_months": 1})
    assert native(state)["rfc3339"] == "2020-03-02T00:00:00Z"  # Go's AddDate normalising
    resp = plan(TIME, "time_offset", {"base_rfc3339": "2020-01-31T00:00:00Z",
                                      "offset_days": 1}, prior=state)
    assert resp.requires_replace == []
    assert native(resp.planned_state)["rfc3339"] == "2020-02-01T00:00:00Z"


def test_time_rotating_expires() -> None:
    state = create(TIME, "time_rotating", {"rfc3339": "2000-01-01T00:00:00Z",
                                           "rotation_days": 1})
    assert native(state)["rotation_rfc3339"] == "2000-01-02T00:00:00Z"
    read = TIME.read_resource(p.ReadResourceRequest("time_rotating", state))
    assert read.new_state.is_null


def test_time_sleep_import_and_durations() -> None:
    got = TIME.import_resource_state(p.ImportResourceStateRequest("time_sleep", "1s,"))
    assert native(got.imported_resources[0].state)["create_duration"] == "1s"
    assert parse_duration("1h30m") == dt.timedelta(hours=1, minutes=30)
    assert parse_duration("-1.5s") == dt.timedelta(seconds=-1.5)
    assert add_date(dt.datetime(2021, 12, 31), months=2) == dt.datetime(2022, 3, 3)
