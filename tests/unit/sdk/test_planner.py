from __future__ import annotations

from typing import Any

from engine.plugin.sdk import UNKNOWN, Attr, Obj, Provider, Resource, SDKProvider
from engine.values import NUMBER, STRING, MapType
from tests.unit.sdk.helpers import create, native, plan


class Thing(Resource):
    type_name = "x_thing"
    fields = {
        "name": Attr(STRING, required=True),
        "size": Attr(NUMBER, optional=True, computed=True, default=3, requires_replace=True),
        "keep": Attr(MapType(STRING), optional=True, requires_replace=True),
        "stable": Attr(STRING, computed=True, use_state_for_unknown=True),
        "volatile": Attr(STRING, computed=True),
    }

    def create(self, planned: Obj) -> dict[str, Any]:
        return {"stable": "s-" + planned["name"], "volatile": "v"}

    def update(self, prior: Obj, planned: Obj) -> dict[str, Any]:
        return {"volatile": "v2"}


class P(Provider):
    name = "x"
    resources = (Thing,)


def test_create_plans_defaults_and_unknown_computed() -> None:
    prov = SDKProvider(P())
    resp = plan(prov, "x_thing", {"name": "a"})
    got = native(resp.planned_state)
    assert got["size"] == 3
    assert got["stable"] is UNKNOWN and got["volatile"] is UNKNOWN
    assert resp.requires_replace == []


def test_no_change_plans_prior_state() -> None:
    prov = SDKProvider(P())
    state = create(prov, "x_thing", {"name": "a"})
    resp = plan(prov, "x_thing", {"name": "a"}, prior=state)
    assert native(resp.planned_state) == native(state)


def test_update_keeps_use_state_for_unknown_and_reapplies_others() -> None:
    prov = SDKProvider(P())
    state = create(prov, "x_thing", {"name": "a"})
    resp = plan(prov, "x_thing", {"name": "b"}, prior=state)
    got = native(resp.planned_state)
    assert got["stable"] == "s-a"
    assert got["volatile"] is UNKNOWN
    assert resp.requires_replace == []


def test_requires_replace_names_changed_attributes() -> None:
    prov = SDKProvider(P())
    state = create(prov, "x_thing", {"name": "a", "keep": {"k": "1"}})
    resp = plan(prov, "x_thing", {"name": "a", "size": 4, "keep": {"k": "2"}}, prior=state)
    assert sorted(str(p) for p in resp.requires_replace) == ["keep", "size"]


def test_apply_results_leave_no_unknowns() -> None:
    prov = SDKProvider(P())
    state = create(prov, "x_thing", {"name": "a"})
    assert native(state) == {"name": "a", "size": 3, "keep": None, "stable": "s-a",
                             "volatile": "v"}
