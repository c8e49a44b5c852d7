"""The human plan text, compared with terraform 1.11.4's `show PLANFILE -no-color` output for
real terraform_data plans (tests/unit/plans/oracle), plus cases built directly."""

from __future__ import annotations

import pytest

from engine.plans.model import PlanMode
from engine.plans.render_human import render_plan
from tests.product_name import as_groundplan
from tests.unit.plans.oracle_plans import ORACLE, SCHEMAS, load_doc, plan_from_doc

CASES = {"create": PlanMode.NORMAL, "update": PlanMode.NORMAL, "replace": PlanMode.NORMAL,
         "replace2": PlanMode.NORMAL, "delete": PlanMode.NORMAL, "nochange": PlanMode.NORMAL,
         "counts": PlanMode.NORMAL, "sens": PlanMode.NORMAL, "moved": PlanMode.NORMAL,
         "destroy": PlanMode.DESTROY, "forcerepl": PlanMode.NORMAL, "modules": PlanMode.NORMAL,
         "lists": PlanMode.NORMAL, "misc": PlanMode.NORMAL}


@pytest.mark.parametrize("case", sorted(CASES))
def test_human_plan_matches_terraform(case: str) -> None:
    plan = plan_from_doc(load_doc(case), CASES[case])
    expected = as_groundplan((ORACLE / case / "show.txt").read_text())
    assert render_plan(plan, SCHEMAS) == expected


# ------------------------------------------------------------------------------ built directly
from engine.addrs import BUILTIN_TERRAFORM, ROOT_MODULE, AbsProviderConfig, Provider  # noqa: E402
from engine.addrs import parse_abs_resource_instance as _addr  # noqa: E402
from engine.plans.model import Action, Plan, ResourceInstanceChange  # noqa: E402
from engine.plugin.builtin.terraform_data import SCHEMA  # noqa: E402
from engine.plugin.protocol import GetProviderSchemaResponse  # noqa: E402
from engine.plugin.schema import Attribute, Block, NestedBlock, Nesting, Schema  # noqa: E402
from engine.values import (  # noqa: E402
    NUMBER,
    STRING,
    ListType,
    MapType,
    SetType,
    Value,
    list_,
    map_,
    null,
    number,
    set_,
    string,
)

TD = AbsProviderConfig(ROOT_MODULE, BUILTIN_TERRAFORM)


def _td(id_: str, input_: Value) -> Value:
    return SCHEMA.block.with_attributes({"id": string(id_), "input": input_, "output": input_})


def test_refresh_only_drift() -> None:
    before = _td("x", string("a"))
    after = SCHEMA.block.with_attributes({"id": string("x"), "input": string("b"),
                                          "output": string("a")})
    plan = Plan(mode=PlanMode.REFRESH_ONLY, drift=[ResourceInstanceChange(
        _addr("terraform_data.a"), TD, Action.UPDATE, before, after)])
    assert render_plan(plan, SCHEMAS) == as_groundplan(
        "\nNote: Objects have changed outside of Terraform\n\n"
        "Terraform detected the following changes made outside of Terraform since the\n"
        'last "terraform apply" which may have affected this plan:\n'
        "\n"
        "  # terraform_data.a has changed\n"
        '  ~ resource "terraform_data" "a" {\n'
        '        id     = "x"\n'
        '      ~ input  = "a" -> "b"\n'
        "        # (1 unchanged attribute hidden)\n"
        "    }\n"
        "\n\n"
        "This is a refresh-only plan, so Terraform will not take any actions to undo\n"
        "these. If you were expecting these changes then you can apply this plan to\n"
        "record the updated values in the Terraform state without changing any remote\n"
        "objects.\n"
    )


def test_drift_hidden_when_not_relevant_in_normal_mode() -> None:
    before = _td("x", string("a"))
    after = _td("x", string("b"))
    drift = ResourceInstanceChange(_addr("terraform_data.a"), TD, Action.UPDATE, before, after)
    plan = Plan(mode=PlanMode.NORMAL, drift=[drift], changes=[ResourceInstanceChange(
        _addr("terraform_data.b"), TD, Action.CREATE, null(SCHEMA.block.implied_type()),
        _td("y", string("c")))])
    text = render_plan(plan, SCHEMAS)
    assert "Objects have changed outside of groundplan" not in text
    text = render_plan(plan, SCHEMAS, relevant_attributes=[("terraform_data.a", ["input"])])
    assert "  # terraform_data.a has changed\n" in text
    assert "Unless you have made equivalent changes to your configuration" in text
    assert "─" * 78 in text


def test_no_changes_texts() -> None:
    assert render_plan(Plan(mode=PlanMode.DESTROY), SCHEMAS) == as_groundplan(
        "\nNo changes. No objects need to be destroyed.\n\n"
        "Either you have not created any objects yet or the existing objects were\n"
        "already deleted outside of Terraform.\n")
    assert render_plan(Plan(mode=PlanMode.REFRESH_ONLY), SCHEMAS) == as_groundplan(
        "\nNo changes. Your infrastructure still matches the configuration.\n\n"
        "Terraform has checked that the real remote objects still match the result of\n"
        "your most recent changes, and found no differences.\n")


PROV = Provider("registry.terraform.io", "hashicorp", "demo")
RULE = Block(attributes={"port": Attribute(type=NUMBER, optional=True)})
DEMO = Schema(Block(
    attributes={
        "id": Attribute(type=STRING, computed=True),
        "tags": Attribute(type=MapType(STRING), optional=True),
        "ports": Attribute(type=ListType(NUMBER), optional=True),
        "names": Attribute(type=SetType(STRING), optional=True),
        "password": Attribute(type=STRING, optional=True, sensitive=True),
        "size": Attribute(type=NUMBER, optional=True),
    },
    block_types={"rule": NestedBlock(RULE, Nesting.LIST)},
))
DEMO_SCHEMAS = {PROV: GetProviderSchemaResponse(resource_types={"demo_thing": DEMO})}


def _demo(tags: dict[str, str], ports: list[int], names: list[str], pw: str, size: int,
          rules: list[int]) -> Value:
    return DEMO.block.with_attributes({
        "id": string("i-1"),
        "tags": map_({k: string(v) for k, v in tags.items()}, STRING),
        "ports": list_([number(p) for p in ports], NUMBER),
        "names": set_([string(n) for n in names], STRING),
        "password": string(pw),
        "size": number(size),
        "rule": list_([RULE.with_attributes({"port": number(r)}) for r in rules],
                      RULE.implied_type()),
    })


def test_typed_schema_update() -> None:
    before = _demo({"a": "1", "b": "2"}, [80, 443], ["x", "y"], "old", 1, [1, 2])
    after = _demo({"a": "1", "b": "3", "c": "4"}, [80, 8443], ["y", "z"], "new", 1, [1, 3])
    change = ResourceInstanceChange(
        _addr("demo_thing.t"), AbsProviderConfig(ROOT_MODULE, PROV), Action.UPDATE, before, after)
    text = render_plan(Plan(mode=PlanMode.NORMAL, changes=[change]), DEMO_SCHEMAS)
    expected_block = (
        '  # demo_thing.t will be updated in-place\n'
        '  ~ resource "demo_thing" "t" {\n'
        '        id       = "i-1"\n'
        '      ~ names    = [\n'
        '          - "x",\n'
        '          + "z",\n'
        '            # (1 unchanged element hidden)\n'
        '        ]\n'
        '      ~ password = (sensitive value)\n'
        '      ~ ports    = [\n'
        '            80,\n'
        '          - 443,\n'
        '          + 8443,\n'
        '        ]\n'
        '      ~ tags     = {\n'
        '            "a" = "1"\n'
        '          ~ "b" = "2" -> "3"\n'
        '          + "c" = "4"\n'
        '        }\n'
        '        # (1 unchanged attribute hidden)\n'
        '\n'
        '      ~ rule {\n'
        '          ~ port = 2 -> 3\n'
        '        }\n'
        '\n'
        '        # (1 unchanged block hidden)\n'
        '    }\n'
    )
    assert expected_block in text
    assert text.endswith("Plan: 0 to add, 1 to change, 0 to destroy.\n")


def test_forget_and_deposed() -> None:
    obj = _td("x", string("a"))
    plan = Plan(mode=PlanMode.NORMAL, changes=[
        ResourceInstanceChange(_addr("terraform_data.f"), TD, Action.FORGET, obj,
                               null(obj.type)),
        ResourceInstanceChange(_addr("terraform_data.d"), TD, Action.DELETE, obj,
                               null(obj.type), deposed_key="00000001"),
    ])
    text = render_plan(plan, SCHEMAS)
    assert (" # terraform_data.f will no longer be managed by groundplan, but will not be "
            "destroyed\n # (destroy = false is set in the configuration)\n") in text
    assert ("  # terraform_data.d (deposed object 00000001) will be destroyed\n"
            "  # (left over from a partially-failed replacement of this instance)\n") in text
    # terraform 1.11.4 shows the forgotten object unchanged and does not count it
    assert ' . resource "terraform_data" "f" {\n        id     = "x"\n' in text
    assert text.endswith("Plan: 0 to add, 0 to change, 1 to destroy.\n")
