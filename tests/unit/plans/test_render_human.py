"""The human plan text, compared with terraform 1.11.4's `show PLANFILE -no-color` output for
real terraform_data plans (tests/unit/plans/oracle), plus cases built directly."""

from __future__ import annotations

import pytest

from engine.plans.model import PlanMode
from engine.plans.render_human import render_plan
from tests.unit.plans.oracle_plans import ORACLE, SCHEMAS, load_doc, plan_from_doc

CASES = {"create": PlanMode.NORMAL, "update": PlanMode.NORMAL, "replace": PlanMode.NORMAL,
         "replace2": PlanMode.NORMAL, "delete": PlanMode.NORMAL, "nochange": PlanMode.NORMAL,
         "counts": PlanMode.NORMAL, "sens": PlanMode.NORMAL, "moved": PlanMode.NORMAL,
         "destroy": PlanMode.DESTROY, "forcerepl": PlanMode.NORMAL, "modules": PlanMode.NORMAL,
         "lists": PlanMode.NORMAL, "misc": PlanMode.NORMAL}


@pytest.mark.parametrize("case", sorted(CASES))
def test_human_plan_matches_terraform(case: str) -> None:
    plan = plan_from_doc(load_doc(case), CASES[case])
    expected = (ORACLE / case / "show.txt").read_text()
    assert render_plan(plan, SCHEMAS) == expected
