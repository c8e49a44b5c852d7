"""Computed values of mocked objects: unknown while planning, given or generated when applied."""

from __future__ import annotations

from engine.plugin.schema import Attribute, Block, NestedBlock, Nesting
from engine.testing.mock_values import generate_for_type, is_null, is_unknown, populate
from engine.values import NUMBER, STRING, Value, null, object_, string, unknown
from engine.values.types import ListType, MapType, ObjectType

BLOCK = Block(
    attributes={
        "name": Attribute(type=STRING, required=True),
        "arn": Attribute(type=STRING, computed=True),
        "size": Attribute(type=NUMBER, optional=True, computed=True),
        "tags": Attribute(type=MapType(STRING), computed=True),
    },
    block_types={"rule": NestedBlock(Block(attributes={
        "id": Attribute(type=STRING, computed=True)}), Nesting.LIST)},
)


def _obj(**kw: Value) -> Value:
    base = {"name": string("n"), "arn": null(STRING), "size": null(NUMBER),
            "tags": null(MapType(STRING)),
            "rule": Value(ListType(ObjectType({"id": STRING})), [object_({"id": null(STRING)})])}
    base.update(kw)
    return object_(base)


def test_plan_makes_computed_unknown() -> None:
    out, diags = populate(_obj(), BLOCK, None, None, is_null, as_unknown=True)
    assert not diags.has_errors
    assert not out.v["arn"].is_known and not out.v["size"].is_known
    assert out.v["name"] == string("n")
    assert not out.v["rule"].v[0].v["id"].is_known


def test_apply_uses_defaults_then_generates() -> None:
    planned = _obj(arn=unknown(STRING), size=unknown(NUMBER), tags=unknown(MapType(STRING)))
    data = object_({"arn": string("arn:x")})
    out, diags = populate(planned, BLOCK, data, None, is_unknown)
    assert not diags.has_errors
    assert out.v["arn"] == string("arn:x")
    assert out.v["size"] == Value(NUMBER, 0)
    assert out.v["tags"].v == {}


def test_generated_strings_have_eight_characters() -> None:
    s = generate_for_type(STRING)
    assert isinstance(s.v, str) and len(s.v) == 8 and s.v.isalnum() and s.v.lower() == s.v


def test_replacement_must_be_an_object() -> None:
    _out, diags = populate(_obj(), BLOCK, string("x"), None, is_null)
    assert [d.summary for d in diags.errors] == ["Invalid replacement value"]


def test_unconvertible_default_is_reported() -> None:
    planned = _obj(size=unknown(NUMBER))
    _out, diags = populate(planned, BLOCK, object_({"size": string("big")}), None, is_unknown)
    assert [d.summary for d in diags.errors] == ["Failed to compute attribute"]
