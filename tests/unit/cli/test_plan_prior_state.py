"""The prior state a saved plan records when no state exists yet (engine.cli.run_plan.with_base).

terraform's plan file holds the refreshed state the plan was made from, data sources read while
planning included, and the apply starts from it: a first plan that read a data source must
keep it, or the apply evaluates `data.x[0].json` against an empty tuple.
"""

from __future__ import annotations

from engine.operations.planfiles import with_base
from engine.states.state import Resource, State, StateFile

PROVIDER = 'provider["registry.terraform.io/hashicorp/aws"]'


def test_no_state_and_nothing_read_records_no_prior_state() -> None:
    assert with_base(State(), None) is None


def test_first_plan_keeps_the_data_sources_it_read() -> None:
    state = State(resources=[Resource("data", "aws_iam_policy_document", "d", PROVIDER)])
    snap = with_base(state, None)
    assert snap is not None
    assert (snap.lineage, snap.serial) == ("", 0)
    assert [r.address for r in snap.state.resources] == ["data.aws_iam_policy_document.d"]


def test_existing_state_lends_its_lineage_and_serial() -> None:
    base = StateFile(state=State(), lineage="L", serial=7)
    snap = with_base(State(), base)
    assert snap is not None and (snap.lineage, snap.serial) == ("L", 7)
