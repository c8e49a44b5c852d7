"""The JSON plan and state formats, compared field by field with terraform 1.11.4's
`show -json` of real terraform_data plans (tests/unit/plans/oracle)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.plans.render_json import plan_to_json
from engine.values.json import dumps, loads
from tests.unit.plans.oracle_plans import SCHEMAS, load_doc, plan_from_doc, state_from_doc

CASES = ["create", "update", "replace", "replace2", "delete", "nochange", "counts", "sens",
         "moved", "destroy", "forcerepl", "modules"]


def _norm(doc: Any) -> Any:
    return loads(dumps(doc))


@pytest.mark.parametrize("case", CASES)
def test_plan_json_matches_terraform(case: str) -> None:
    doc = load_doc(case)
    plan = plan_from_doc(doc)
    rel = [(r["resource"], r["attribute"]) for r in doc.get("relevant_attributes", [])]
    ours = _norm(plan_to_json(plan, state_from_doc(doc), None, SCHEMAS, relevant_attributes=rel))
    expected = {k: v for k, v in doc.items() if k != "configuration"}
    assert set(ours) == set(expected)
    for key in expected:
        assert ours[key] == expected[key], key


@pytest.mark.parametrize("case", CASES)
def test_configuration_matches_terraform(case: str) -> None:
    from engine.configs.loader import load_config
    from engine.plans.render_json_config import config_to_json
    from tests.unit.plans.oracle_plans import ORACLE

    doc = load_doc(case)
    root = ORACLE / case
    config, diags = load_config(str(root))
    assert not diags.has_errors, [d.summary for d in diags]
    assert _norm(config_to_json(config, SCHEMAS)) == doc["configuration"]
