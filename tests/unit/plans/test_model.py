from __future__ import annotations

from engine.addrs import (
    BUILTIN_TERRAFORM,
    ROOT_MODULE,
    AbsProviderConfig,
    parse_abs_resource_instance,
)
from engine.plans import Action, OutputChange, Plan, PlanMode, ResourceInstanceChange
from engine.values import NULL_DYNAMIC, string

PROVIDER = AbsProviderConfig(ROOT_MODULE, BUILTIN_TERRAFORM)


def _change(addr: str, action: Action) -> ResourceInstanceChange:
    return ResourceInstanceChange(
        parse_abs_resource_instance(addr), PROVIDER, action, NULL_DYNAMIC, string("x")
    )


def test_counts_follow_terraform_summary() -> None:
    plan = Plan(
        PlanMode.NORMAL,
        changes=[
            _change("a.b[0]", Action.CREATE),
            _change("a.b[1]", Action.DELETE_THEN_CREATE),
            _change("a.c", Action.UPDATE),
            _change("a.d", Action.DELETE),
            _change("a.e", Action.NOOP),
        ],
    )
    assert plan.counts() == (2, 1, 2, 0, 0)
    assert plan.applyable


def test_noop_plan_is_not_applyable_unless_outputs_or_moves_change() -> None:
    plan = Plan(PlanMode.NORMAL, changes=[_change("a.e", Action.NOOP)])
    assert not plan.applyable
    moved = _change("a.f", Action.NOOP)
    moved.prev_run_addr = parse_abs_resource_instance("a.old")
    assert Plan(PlanMode.NORMAL, changes=[moved]).applyable
    out = OutputChange("o", Action.CREATE, NULL_DYNAMIC, string("v"))
    assert Plan(PlanMode.NORMAL, output_changes=[out]).applyable


def test_action_symbols_and_json_spelling() -> None:
    assert Action.CREATE_THEN_DELETE.symbol == "+/-"
    assert list(Action.DELETE_THEN_CREATE.value) == ["delete", "create"]
    assert Action.DELETE_THEN_CREATE.is_replace and not Action.UPDATE.is_replace
