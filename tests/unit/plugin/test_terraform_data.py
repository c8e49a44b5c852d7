"""`terraform_data` through the Provider protocol, checked against terraform 1.11.4's plans.

Expected shapes were taken from `terraform show -json` of real plans and states:
create  -> after_unknown {id: true, output: true} (output null, not unknown, when input null);
update  -> input change keeps id, output unknown, no replace_paths;
replace -> triggers_replace change: replace_paths [["triggers_replace"]], id and output unknown.
"""

from __future__ import annotations

import re

from engine.plugin.builtin import PROVIDER_ADDRESS, TerraformProvider
from engine.plugin.paths import AttributePath
from engine.plugin.protocol import (
    ApplyResourceChangeRequest,
    ImportResourceStateRequest,
    MoveResourceStateRequest,
    PlanResourceChangeRequest,
    PlanResourceChangeResponse,
    Provider,
    ReadResourceRequest,
    UpgradeResourceStateRequest,
    ValidateResourceConfigRequest,
)
from engine.values import (
    DYNAMIC,
    NUMBER,
    STRING,
    ObjectType,
    TupleType,
    Value,
    number,
    object_,
    string,
    tuple_,
    unknown,
)

T = "terraform_data"
# what terraform 1.11.4 stored for `input = {a = "x", n = 1}`, `triggers_replace = ["t1"]`
TF_STATE_ATTRS = (
    b'{"id":"8e591885-8f41-04ad-853d-75c7e3f9e5dc",'
    b'"input":{"value":{"a":"x","n":1},"type":["object",{"a":"string","n":"number"}]},'
    b'"output":{"value":{"a":"x","n":1},"type":["object",{"a":"string","n":"number"}]},'
    b'"triggers_replace":{"value":["t1"],"type":["tuple",["string"]]}}'
)
UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def config(input: Value | None = None, triggers: Value | None = None) -> Value:
    null = Value(DYNAMIC, None)
    return object_(
        {
            "id": Value(STRING, None),
            "input": input if input is not None else null,
            "output": null,
            "triggers_replace": triggers if triggers is not None else null,
        }
    )


def proposed(cfg: Value, prior: Value) -> Value:
    """The core's proposed new state: config, with computed attributes from prior."""
    out = dict(cfg.v)
    if not prior.is_null:
        out["id"] = prior.v["id"]
        out["output"] = prior.v["output"]
    return object_(out)


def plan(p: TerraformProvider, prior: Value, cfg: Value) -> PlanResourceChangeResponse:
    return p.plan_resource_change(PlanResourceChangeRequest(T, prior, proposed(cfg, prior), cfg))


def apply(p: TerraformProvider, prior: Value, planned: Value, cfg: Value) -> Value:
    resp = p.apply_resource_change(ApplyResourceChangeRequest(T, prior, planned, cfg))
    assert not resp.diagnostics
    return resp.new_state


NONE = Value(ObjectType({}), None)
INPUT = object_({"a": string("x"), "n": number(1)})


def ids() -> TerraformProvider:
    counter = iter(range(1000))
    return TerraformProvider(new_id=lambda: f"id-{next(counter)}")


def test_is_a_provider_with_terraform_schema() -> None:
    p = TerraformProvider()
    assert isinstance(p, Provider)
    assert PROVIDER_ADDRESS == "terraform.io/builtin/terraform"
    schema = p.get_provider_schema()
    assert set(schema.resource_types) == {"terraform_data"}
    assert set(schema.data_sources) == {"terraform_remote_state"}
    assert schema.server_capabilities.move_resource_state
    block = schema.resource_types[T].block
    assert block.implied_type() == ObjectType(
        {"id": STRING, "input": DYNAMIC, "output": DYNAMIC, "triggers_replace": DYNAMIC}
    )
    assert block.attributes["output"].computed and not block.attributes["output"].optional
    assert block.attributes["input"].optional and block.attributes["id"].computed


def test_create_plans_unknown_id_and_output_of_input_type() -> None:
    p = ids()
    cfg = config(INPUT, tuple_([string("t1")]))
    resp = plan(p, NONE, cfg)
    assert not resp.diagnostics and resp.requires_replace == []
    ps = resp.planned_state.v
    assert not ps["id"].is_known and ps["id"].type == STRING
    assert not ps["output"].is_known and ps["output"].type == INPUT.type
    assert ps["input"] == INPUT and ps["triggers_replace"] == tuple_([string("t1")])


def test_create_with_null_input_plans_null_output() -> None:
    resp = plan(ids(), NONE, config())
    ps = resp.planned_state.v
    assert ps["output"].is_null and ps["output"].is_known
    assert not ps["id"].is_known


def test_apply_copies_input_to_output_and_makes_an_id() -> None:
    p = TerraformProvider()
    cfg = config(INPUT)
    planned = plan(p, NONE, cfg).planned_state
    state = apply(p, NONE, planned, cfg)
    assert state.v["output"] == INPUT
    assert UUID_RE.match(state.v["id"].v)
    other = apply(p, NONE, planned, cfg)
    assert other.v["id"].v != state.v["id"].v


def test_input_change_updates_in_place() -> None:
    p = ids()
    cfg = config(INPUT, tuple_([string("t1")]))
    prior = apply(p, NONE, plan(p, NONE, cfg).planned_state, cfg)
    assert prior.v["id"] == string("id-0")
    new_input = object_({"a": string("x"), "n": number(2)})
    cfg2 = config(new_input, tuple_([string("t1")]))
    resp = plan(p, prior, cfg2)
    assert resp.requires_replace == []
    ps = resp.planned_state.v
    assert ps["id"] == string("id-0")
    assert not ps["output"].is_known and ps["output"].type == new_input.type
    after = apply(p, prior, resp.planned_state, cfg2)
    assert after.v["output"] == new_input and after.v["id"] == string("id-0")


def test_trigger_change_requires_replacement() -> None:
    p = ids()
    cfg = config(INPUT, tuple_([string("t1")]))
    prior = apply(p, NONE, plan(p, NONE, cfg).planned_state, cfg)
    cfg2 = config(INPUT, tuple_([string("t2")]))
    resp = plan(p, prior, cfg2)
    assert resp.requires_replace == [AttributePath.of("triggers_replace")]
    assert str(resp.requires_replace[0]) == "triggers_replace"
    ps = resp.planned_state.v
    assert not ps["id"].is_known and not ps["output"].is_known


def test_trigger_type_change_alone_requires_replacement() -> None:
    # RawEquals: ["1"] (tuple of string) differs from [1] (tuple of number)
    p = ids()
    cfg = config(None, tuple_([string("1")]))
    prior = apply(p, NONE, plan(p, NONE, cfg).planned_state, cfg)
    resp = plan(p, prior, config(None, tuple_([number(1)])))
    assert resp.requires_replace == [AttributePath.of("triggers_replace")]
    assert resp.planned_state.v["output"].is_null


def test_no_change_plans_prior_state() -> None:
    p = ids()
    cfg = config(INPUT)
    prior = apply(p, NONE, plan(p, NONE, cfg).planned_state, cfg)
    resp = plan(p, prior, cfg)
    assert resp.requires_replace == []
    assert resp.planned_state == prior


def test_destroy_plans_and_applies_null() -> None:
    p = ids()
    cfg = config(INPUT)
    prior = apply(p, NONE, plan(p, NONE, cfg).planned_state, cfg)
    null_obj = Value(prior.type, None)
    resp = p.plan_resource_change(PlanResourceChangeRequest(T, prior, null_obj, null_obj))
    assert resp.planned_state.is_null
    assert apply(p, prior, resp.planned_state, null_obj).is_null


def test_read_returns_prior_state() -> None:
    p = ids()
    cfg = config(INPUT)
    prior = apply(p, NONE, plan(p, NONE, cfg).planned_state, cfg)
    resp = p.read_resource(ReadResourceRequest(T, prior, private=b"x"))
    assert resp.new_state == prior and resp.private == b"x"


def test_id_and_output_are_read_only() -> None:
    p = TerraformProvider()
    cfg = config(INPUT)
    bad = object_({**cfg.v, "id": string("mine"), "output": number(1)})
    diags = p.validate_resource_config(ValidateResourceConfigRequest(T, bad)).diagnostics
    assert [d.summary for d in diags] == [
        '"id" attribute is read-only',
        '"output" attribute is read-only',
    ]
    assert not p.validate_resource_config(ValidateResourceConfigRequest(T, cfg)).diagnostics


def test_upgrade_decodes_terraform_written_state() -> None:
    p = TerraformProvider()
    resp = p.upgrade_resource_state(
        UpgradeResourceStateRequest(T, 0, raw_state_json=TF_STATE_ATTRS)
    )
    assert not resp.diagnostics
    st = resp.upgraded_state.v
    assert st["id"] == string("8e591885-8f41-04ad-853d-75c7e3f9e5dc")
    assert st["input"] == INPUT and st["output"] == INPUT
    assert st["triggers_replace"].type == TupleType([STRING])
    # a plan from that state with the same config is a no-op
    prior = resp.upgraded_state
    again = plan(p, prior, config(INPUT, tuple_([string("t1")])))
    assert again.requires_replace == [] and again.planned_state == prior


def test_upgrade_rejects_unknown_attribute() -> None:
    p = TerraformProvider()
    resp = p.upgrade_resource_state(
        UpgradeResourceStateRequest(T, 0, raw_state_json=b'{"id":"a","nope":1}')
    )
    assert resp.diagnostics.has_errors


def test_import_sets_only_id() -> None:
    resp = TerraformProvider().import_resource_state(ImportResourceStateRequest(T, "abc"))
    (imp,) = resp.imported_resources
    assert imp.type_name == T and imp.state.v["id"] == string("abc")
    assert all(imp.state.v[k].is_null for k in ("input", "output", "triggers_replace"))


def test_move_from_null_resource() -> None:
    p = TerraformProvider()
    req = MoveResourceStateRequest(
        source_provider_address="registry.terraform.io/hashicorp/null",
        source_type_name="null_resource",
        source_schema_version=0,
        source_state_json=b'{"id":"123","triggers":{"k":"v"}}',
        target_type_name=T,
    )
    resp = p.move_resource_state(req)
    assert not resp.diagnostics
    st = resp.target_state.v
    assert st["id"] == string("123")
    assert st["triggers_replace"] == object_({"k": string("v")})
    req.source_state_json = b'{"id":"123","triggers":null}'
    st = p.move_resource_state(req).target_state.v
    assert st["triggers_replace"] == Value(DYNAMIC, None)
    req.source_type_name = "null_data_source"
    assert p.move_resource_state(req).diagnostics.errors[0].summary == (
        "Unsupported source resource type for move operation"
    )
    req.source_provider_address = "registry.terraform.io/hashicorp/aws"
    assert p.move_resource_state(req).diagnostics.errors[0].summary == (
        "Unsupported source provider for move operation"
    )


def test_unknown_types_answer_with_diagnostics() -> None:
    p = TerraformProvider()
    assert p.plan_resource_change(
        PlanResourceChangeRequest("nope", NONE, NONE, NONE)
    ).diagnostics.has_errors
    assert p.import_resource_state(ImportResourceStateRequest("nope", "x")).diagnostics.has_errors
    assert not p.stop_provider() and not p.close()


def test_unknown_input_plans_unknown_output() -> None:
    ps = plan(ids(), NONE, config(unknown(NUMBER))).planned_state.v
    assert not ps["output"].is_known and ps["output"].type == NUMBER
