"""The plan codec (lossless Values and Plans) and the saved plan file."""

from __future__ import annotations

import os
import zipfile
from fractions import Fraction
from pathlib import Path

import pytest

from engine.addrs import (
    BUILTIN_TERRAFORM,
    ROOT_MODULE,
    AbsProviderConfig,
    parse_abs_resource_instance,
)
from engine.plans.codec import CodecError, decode_plan, decode_value, encode_plan, encode_value
from engine.plans.model import (
    Action,
    ActionReason,
    Importing,
    OutputChange,
    Plan,
    PlanMode,
    ResourceInstanceChange,
)
from engine.plans.planfile import ConfigSnapshot, read_planfile, snapshot_config, write_planfile
from engine.plugin.paths import AttrStep, IndexStep
from engine.states import Resource, ResourceInstance, ResourceInstanceObject, State, StateFile
from engine.values import (
    DYNAMIC,
    NUMBER,
    STRING,
    ListType,
    MapType,
    ObjectType,
    SetType,
    Value,
    dumps,
    list_,
    map_,
    null,
    number,
    object_,
    set_,
    string,
    tuple_,
    unknown,
)

PROVIDER = AbsProviderConfig(ROOT_MODULE, BUILTIN_TERRAFORM)

VALUES = [
    string("a"),
    number(Fraction(1, 3)),
    number(10**200),
    number(float("inf")),
    number(-0.0),
    null(STRING),
    unknown(ListType(STRING)),
    unknown(DYNAMIC),
    string("secret").mark("sensitive"),
    list_([string("a"), unknown(STRING), null(STRING), string("b").mark("sensitive")]),
    set_([string("z"), string("a")]),
    map_({"k": number(1), "j": unknown(NUMBER)}),
    tuple_([null(DYNAMIC), object_({"x": unknown(DYNAMIC)})]),
    object_({"input": tuple_([string("x"), number(2)]), "output": unknown(DYNAMIC),
             "id": null(STRING)}).mark("sensitive", "other"),
    # a dynamic attribute holding a concrete value: its type differs from the parent's
    Value(ObjectType({"d": DYNAMIC}), {"d": string("s")}),
    Value(ListType(MapType(STRING)), [Value(MapType(STRING), {})]),
    Value(SetType(STRING), []),
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: repr(v)[:40])
def test_value_round_trip(value: Value) -> None:
    back = decode_value(encode_value(value))
    assert back == value
    assert repr(back) == repr(value)


def test_value_encoding_is_readable() -> None:
    enc = encode_value(list_([string("a"), unknown(STRING).mark("sensitive")]))
    assert enc == {
        "type": ["list", "string"],
        "value": ["a", None],
        "unknown": [[1]],
        "marks": [[[1], ["sensitive"]]],
    }


def test_refined_unknowns_survive_the_plan_file() -> None:
    from engine.values.refinement import refine, value_range

    prefixed = refine(unknown(STRING)).not_null().string_prefix("ab-").new_value()
    bounded = refine(unknown(NUMBER)).number_lower_bound(Fraction(1, 2), False).new_value()
    enc = encode_value(object_({"s": prefixed.mark("sensitive"), "n": bounded}))
    assert sorted(enc["refinements"]) == [[["n"], {"lower": "0.5"}],
                                          [["s"], {"not_null": True, "prefix": "ab-"}]]
    back = decode_value(enc).v
    s_rng, n_rng = value_range(back["s"]), value_range(back["n"])
    assert back["s"].is_sensitive and s_rng.definitely_not_null()
    assert s_rng.string_prefix() == "ab-"
    assert n_rng.number_lower_bound() == (Fraction(1, 2), False)
    with pytest.raises(CodecError):
        decode_value({**enc, "refinements": [[["n"], {"nonsense": 1}]]})


def test_bad_encoded_value() -> None:
    with pytest.raises(CodecError):
        decode_value({"value": 1})
    with pytest.raises(CodecError):
        decode_value({"type": "number", "value": "nope"})
    with pytest.raises(CodecError):
        decode_value({"type": ["list", "string"], "value": {"a": 1}})


def _addr(text: str):  # type: ignore[no-untyped-def]
    return parse_abs_resource_instance(text)


def sample_plan() -> Plan:
    obj = object_({"id": unknown(STRING), "input": string("b").mark("sensitive")})
    return Plan(
        mode=PlanMode.NORMAL,
        changes=[
            ResourceInstanceChange(
                addr=_addr('module.m["k"].terraform_data.a[0]'),
                provider=AbsProviderConfig(ROOT_MODULE.child("m"), BUILTIN_TERRAFORM, "x"),
                action=Action.CREATE_THEN_DELETE,
                before=object_({"id": string("1"), "input": string("a")}),
                after=obj,
                prev_run_addr=_addr("terraform_data.old"),
                deposed_key="00000001",
                action_reason=ActionReason.REPLACE_BY_TRIGGERS,
                requires_replace=[("triggers_replace",), (AttrStep("input"), IndexStep(number(0)))],
                importing=Importing("abc"),
                generated_config='resource "terraform_data" "a" {}',
                private=b"\x00\x01private",
            ),
            ResourceInstanceChange(
                addr=_addr("terraform_data.b"),
                provider=PROVIDER,
                action=Action.NOOP,
                before=null(DYNAMIC),
                after=null(DYNAMIC),
            ),
        ],
        output_changes=[
            OutputChange("o", Action.UPDATE, string("x"), unknown(DYNAMIC), sensitive=True)
        ],
        drift=[
            ResourceInstanceChange(
                addr=_addr("terraform_data.d"), provider=PROVIDER, action=Action.DELETE,
                before=object_({"id": string("d")}), after=null(ObjectType({"id": STRING})),
            )
        ],
        variables={"v": number(Fraction(1, 10)), "s": string("p").mark("sensitive")},
        target_addrs=["terraform_data.a"],
        force_replace_addrs=["terraform_data.b"],
        errored=True,
        complete=False,
        timestamp="2026-01-01T00:00:00Z",
    )


def _plan_key(p: Plan) -> str:
    return dumps(encode_plan(p))


def test_plan_round_trip_every_field() -> None:
    plan = sample_plan()
    back = decode_plan(encode_plan(plan))
    assert back.mode is PlanMode.NORMAL
    c = back.changes[0]
    o = plan.changes[0]
    assert (c.addr, c.provider, c.action, c.prev_run_addr, c.deposed_key, c.action_reason) == (
        o.addr, o.provider, o.action, o.prev_run_addr, o.deposed_key, o.action_reason)
    assert c.before == o.before and c.after == o.after
    assert c.requires_replace == o.requires_replace
    assert c.importing == o.importing and c.generated_config == o.generated_config
    assert c.private == o.private
    assert back.output_changes[0].sensitive is True
    assert back.output_changes[0].after == unknown(DYNAMIC)
    assert back.drift[0].action is Action.DELETE
    assert back.variables == plan.variables
    assert (back.target_addrs, back.force_replace_addrs) == (["terraform_data.a"], ["terraform_data.b"])
    assert (back.errored, back.complete, back.timestamp) == (True, False, "2026-01-01T00:00:00Z")
    assert _plan_key(back) == _plan_key(plan)


def test_decode_plan_rejects_garbage() -> None:
    with pytest.raises(CodecError):
        decode_plan([])
    with pytest.raises(CodecError):
        decode_plan({"format_version": 99})
    data = encode_plan(sample_plan())
    data["changes"][0]["action"] = ["explode"]
    with pytest.raises(CodecError):
        decode_plan(data)
    data = encode_plan(sample_plan())
    data["changes"][0]["addr"] = "not an address!"
    with pytest.raises(CodecError):
        decode_plan(data)


# ------------------------------------------------------------------------------ plan file
def sample_state() -> StateFile:
    obj = ResourceInstanceObject(attributes={"id": "x", "input": None})
    res = Resource("managed", "terraform_data", "a",
                   'provider["terraform.io/builtin/terraform"]',
                   instances=[ResourceInstance(current=obj)])
    return StateFile(State(resources=[res]), lineage="L", serial=3)


def make_config(tmp_path: Path) -> ConfigSnapshot:
    root = tmp_path / "cfg"
    (root / "mod").mkdir(parents=True, exist_ok=True)
    (root / "main.tf").write_text('module "child" {\n  source = "./mod"\n}\n')
    (root / "x.auto.tfvars").write_text('a = 1\n')
    (root / "notes.txt").write_text("ignored")
    (root / "mod" / "main.tf").write_text('resource "terraform_data" "m" {}\n')
    (root / "mod" / "more.tf.json").write_text("{}")
    return snapshot_config(str(root), {"child": ("mod", "./mod")})


def test_planfile_round_trip(tmp_path: Path) -> None:
    cfg = make_config(tmp_path)
    assert sorted(cfg.modules[""].files) == ["main.tf"]  # variable files are not config
    assert sorted(cfg.modules["child"].files) == ["main.tf", "more.tf.json"]
    path = str(tmp_path / "p")
    diags = write_planfile(path, sample_plan(), sample_state(), sample_state(), cfg, "# lock\n")
    assert not diags
    names = zipfile.ZipFile(path).namelist()
    assert {"tfplan.json", "tfstate", "tfstate-prev", "tfconfig/modules.json",
            "tfconfig/m-/main.tf", "tfconfig/m-child/main.tf", ".terraform.lock.hcl"} <= set(names)
    pf, diags = read_planfile(path)
    assert not diags.has_errors and pf is not None
    assert _plan_key(pf.plan) == _plan_key(sample_plan())
    assert pf.prior_state is not None and pf.prior_state.serial == 3
    assert pf.prior_state.state.resources[0].instances[0].current is not None
    assert pf.prev_run_state is not None and pf.prev_run_state.lineage == "L"
    assert pf.lock_file == "# lock\n"
    assert pf.config.modules["child"].source_addr == "./mod"
    assert pf.config.modules["child"].dir == "mod"
    assert pf.config.modules["child"].files["main.tf"] == b'resource "terraform_data" "m" {}\n'
    assert pf.config_hash == cfg.hash()


def test_config_hash_changes_with_content(tmp_path: Path) -> None:
    a = make_config(tmp_path)
    b = make_config(tmp_path)
    assert a.hash() == b.hash()
    b.modules["child"].files["main.tf"] += b" "
    assert a.hash() != b.hash()


def test_not_a_plan(tmp_path: Path) -> None:
    bad = tmp_path / "notaplan"
    bad.write_text("hello\n")
    pf, diags = read_planfile(str(bad))
    assert pf is None
    [d] = diags.errors
    assert d.summary == f'Failed to load "{bad}" as a plan file'
    assert d.detail == (
        "Error: couldn't load the provided path as either a local plan file (zip: not a valid "
        "zip file) or a saved cloud plan (invalid character 'h' looking for beginning of value)"
    )


def test_zip_without_plan(tmp_path: Path) -> None:
    path = tmp_path / "z"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("other", "x")
    pf, diags = read_planfile(str(path))
    assert pf is None and diags.has_errors
    assert diags.errors[0].detail == (
        "Error: couldn't load the provided path as either a local plan file (the given file is "
        "not a valid plan file) or a saved cloud plan (invalid character 'P' looking for "
        "beginning of value)"
    )


def test_tampered_config_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "p")
    assert not write_planfile(path, sample_plan(), None, None, make_config(tmp_path), None)
    out = str(tmp_path / "q")
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w") as dst:
        for name in src.namelist():
            data = src.read(name)
            dst.writestr(name, data + b"#" if name == "tfconfig/m-/main.tf" else data)
    pf, diags = read_planfile(out)
    assert pf is None and "does not match" in diags.errors[0].detail


def test_failed_write_leaves_previous_file(tmp_path: Path) -> None:
    path = tmp_path / "p"
    path.write_bytes(b"old plan")

    def boom(_: bytes) -> bytes:
        raise RuntimeError("no key")

    diags = write_planfile(str(path), sample_plan(), None, None, ConfigSnapshot(), None, encrypt=boom)
    assert diags.has_errors
    assert path.read_bytes() == b"old plan"
    assert os.listdir(tmp_path) == ["p"]


def test_encryption_hooks(tmp_path: Path) -> None:
    def flip(data: bytes) -> bytes:
        return bytes(b ^ 0x5A for b in data)

    path = str(tmp_path / "p")
    assert not write_planfile(path, sample_plan(), None, None, ConfigSnapshot(), None, encrypt=flip)
    assert not zipfile.is_zipfile(path)
    pf, diags = read_planfile(path)
    assert pf is None and diags.has_errors
    pf, diags = read_planfile(path, decrypt=flip)
    assert pf is not None and not diags.has_errors
    assert _plan_key(pf.plan) == _plan_key(sample_plan())
