"""The JSON plan and state formats, compared field by field with terraform 1.11.4's
`show -json` of real terraform_data plans (tests/unit/plans/oracle)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.configs.loader import load_config
from engine.plans.render_json import plan_to_json
from engine.plans.render_json_config import config_to_json
from engine.plans.render_json_state import state_to_json
from engine.states import read_state
from engine.values.json import dumps, loads
from tests.modules_init import installed_manifest
from tests.unit.plans.oracle_plans import ORACLE, SCHEMAS, load_doc, plan_from_doc, state_from_doc

CASES = ["create", "update", "replace", "replace2", "delete", "nochange", "counts", "sens",
         "moved", "destroy", "forcerepl", "modules", "lists", "misc"]


def _norm(doc: Any) -> Any:
    return loads(dumps(doc))


@pytest.mark.parametrize("case", CASES)
def test_plan_json_matches_terraform(case: str) -> None:
    doc = load_doc(case)
    plan = plan_from_doc(doc)
    rel = [(r["resource"], r["attribute"]) for r in doc.get("relevant_attributes", [])]
    config, diags = load_config(str(ORACLE / case), installed_manifest(ORACLE / case))
    assert not diags.has_errors
    ours = _norm(plan_to_json(plan, state_from_doc(doc), config, SCHEMAS, relevant_attributes=rel))
    expected = doc
    assert set(ours) == set(expected)
    for key in expected:
        assert ours[key] == expected[key], key


@pytest.mark.parametrize("case", CASES)
def test_configuration_matches_terraform(case: str) -> None:
    doc = load_doc(case)
    root = ORACLE / case
    config, diags = load_config(str(root), installed_manifest(root))
    assert not diags.has_errors, [d.summary for d in diags]
    assert _norm(config_to_json(config, SCHEMAS)) == doc["configuration"]


@pytest.mark.parametrize("case", ["counts", "sens"])
def test_state_json_matches_terraform(case: str) -> None:
    sf, diags = read_state((ORACLE / case / "applied_state.json").read_text())
    assert sf is not None and not diags.has_errors
    expected = loads((ORACLE / case / "state_show.json").read_text())
    assert _norm(state_to_json(sf, SCHEMAS)) == expected


def test_empty_state_json() -> None:
    from engine.states import State, StateFile

    assert state_to_json(StateFile(State()), SCHEMAS) == {
        "format_version": "1.0", "terraform_version": "1.11.4"}
    assert state_to_json(None, SCHEMAS) == {"format_version": "1.0"}


def test_unknown_schema_falls_back_to_json_types() -> None:
    sf, _ = read_state((ORACLE / "counts" / "applied_state.json").read_text())
    assert sf is not None
    doc = _norm(state_to_json(sf, {}))
    res = doc["values"]["root_module"]["resources"][0]
    assert res["values"]["input"] == {"value": 0, "type": "number"}


def test_marshal_writes_numbers_unquoted_with_both_writers() -> None:
    from engine.gocompat import json as gojson
    from engine.plans.render_json_values import marshal
    from engine.values import Value
    from engine.values.numbers import div, parse_number
    from engine.values.types import NUMBER, ListType

    third = Value(NUMBER, div(1, 3))
    v = Value(ListType(NUMBER), [Value(NUMBER, parse_number("0.3")), third, Value(NUMBER, 5)])
    data = marshal(v)
    third_text = "0." + "3" * 154 + "5"
    expected = f"[0.3,{third_text},5]"
    assert gojson.dumps(data, indent=None) == expected  # what `show -json` writes
    assert dumps(data) == expected
    assert loads(dumps(data)) == data
