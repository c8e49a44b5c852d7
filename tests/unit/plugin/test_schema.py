"""Schemas: implied types, empty values, sensitive paths, attribute lookup, paths."""

from __future__ import annotations

from engine.plugin.paths import AttributePath
from engine.plugin.schema import (
    Attribute,
    Block,
    NestedBlock,
    NestedObject,
    Nesting,
    mark_sensitive,
    sensitive_paths,
)
from engine.values import (
    BOOL,
    DYNAMIC,
    EMPTY_OBJECT,
    EMPTY_TUPLE,
    NUMBER,
    STRING,
    ListType,
    MapType,
    ObjectType,
    SetType,
    Value,
    list_,
    number,
    object_,
    string,
)

INNER = Block(
    attributes={
        "name": Attribute(type=STRING, required=True),
        "secret": Attribute(type=STRING, optional=True, sensitive=True),
    }
)
PLAIN = Block(attributes={"x": Attribute(type=NUMBER, optional=True)})
SCHEMA = Block(
    attributes={
        "id": Attribute(type=STRING, computed=True),
        "password": Attribute(type=STRING, optional=True, sensitive=True),
        "tags": Attribute(type=MapType(STRING), optional=True),
        "conn": Attribute(
            nested_type=NestedObject(
                {
                    "host": Attribute(type=STRING, required=True),
                    "token": Attribute(type=STRING, optional=True, sensitive=True),
                },
                Nesting.LIST,
            ),
            optional=True,
        ),
    },
    block_types={
        "rule": NestedBlock(INNER, Nesting.LIST),
        "one": NestedBlock(INNER, Nesting.SINGLE),
        "grp": NestedBlock(PLAIN, Nesting.GROUP),
        "bag": NestedBlock(INNER, Nesting.SET),
        "named": NestedBlock(INNER, Nesting.MAP),
    },
)
INNER_T = ObjectType({"name": STRING, "secret": STRING})
CONN_T = ObjectType({"host": STRING, "token": STRING})


def test_implied_type() -> None:
    assert SCHEMA.implied_type() == ObjectType(
        {
            "id": STRING,
            "password": STRING,
            "tags": MapType(STRING),
            "conn": ListType(CONN_T),
            "rule": ListType(INNER_T),
            "one": INNER_T,
            "grp": ObjectType({"x": NUMBER}),
            "bag": SetType(INNER_T),
            "named": MapType(INNER_T),
        }
    )


def test_spec_type_keeps_optional_markers_of_nested_attributes() -> None:
    conn = SCHEMA.spec_type().attrs["conn"]
    assert isinstance(conn, ListType)
    assert conn.element == ObjectType({"host": STRING, "token": STRING}, ["token"])
    assert SCHEMA.implied_type().attrs["conn"] == ListType(CONN_T)


def test_blocks_with_dynamic_attributes_decode_as_dynamic() -> None:
    dyn = Block(attributes={"v": Attribute(type=DYNAMIC, optional=True)})
    b = Block(
        block_types={
            "l": NestedBlock(dyn, Nesting.LIST),
            "m": NestedBlock(dyn, Nesting.MAP),
            "s": NestedBlock(dyn, Nesting.SINGLE),
        }
    )
    t = b.implied_type()
    assert t.attrs["l"] == DYNAMIC and t.attrs["m"] == DYNAMIC
    assert t.attrs["s"] == ObjectType({"v": DYNAMIC})
    empty = b.empty_value().v
    assert empty["l"] == Value(EMPTY_TUPLE, []) and empty["m"] == Value(EMPTY_OBJECT, {})
    assert empty["s"].is_null


def test_empty_value() -> None:
    v = SCHEMA.empty_value()
    assert v.type == SCHEMA.implied_type()
    d = v.v
    assert d["id"] == Value(STRING, None) and d["conn"] == Value(ListType(CONN_T), None)
    assert d["rule"] == Value(ListType(INNER_T), []) and d["bag"] == Value(SetType(INNER_T), [])
    assert d["named"] == Value(MapType(INNER_T), {}) and d["one"].is_null
    assert d["grp"] == object_({"x": Value(NUMBER, None)})
    assert list(d) == sorted(d)


def test_with_attributes_builds_type_from_values() -> None:
    b = Block(attributes={"a": Attribute(type=DYNAMIC, optional=True), "b": Attribute(type=BOOL)})
    v = b.with_attributes({"a": number(1)})
    assert v.type == ObjectType({"a": NUMBER, "b": BOOL})
    assert v.v["b"] == Value(BOOL, None)


def _value() -> Value:
    rule = object_({"name": string("r"), "secret": string("s")})
    conn = object_({"host": string("h"), "token": string("t")})
    return SCHEMA.with_attributes(
        {
            "password": string("pw"),
            "conn": list_([conn, conn], CONN_T),
            "rule": list_([rule, rule], INNER_T),
            "one": rule,
            "named": Value(MapType(INNER_T), {"k": rule}),
            "bag": Value(SetType(INNER_T), [rule]),
        }
    )


def test_sensitive_paths() -> None:
    paths = [str(p) for p in sensitive_paths(SCHEMA, _value())]
    assert sorted(paths) == sorted(
        [
            "password",
            "conn[0].token",
            "conn[1].token",
            "rule[0].secret",
            "rule[1].secret",
            "one.secret",
            'named["k"].secret',
            "bag[Value(object({name=string, secret=string}), "
            "{'name': Value(string, 'r'), 'secret': Value(string, 's')})].secret",
        ]
    )
    assert [str(p) for p in sensitive_paths(SCHEMA, SCHEMA.empty_value())] == ["password"]
    assert sensitive_paths(SCHEMA, Value(SCHEMA.implied_type(), None)) == []
    assert SCHEMA.contains_sensitive() and not PLAIN.contains_sensitive()


def test_mark_sensitive() -> None:
    marked = mark_sensitive(SCHEMA, _value())
    d = marked.v
    assert d["password"].is_sensitive and not d["id"].is_sensitive
    assert d["rule"].v[1].v["secret"].is_sensitive and not d["rule"].v[1].v["name"].is_sensitive
    assert d["conn"].v[0].v["token"].is_sensitive
    assert d["named"].v["k"].v["secret"].is_sensitive
    assert d["bag"].v[0].v["secret"].is_sensitive
    assert not marked.is_sensitive


def test_attribute_at() -> None:
    assert SCHEMA.attribute_at(AttributePath.of("password")) is SCHEMA.attributes["password"]
    assert SCHEMA.attribute_at(AttributePath.of("rule", 0, "secret")) is INNER.attributes["secret"]
    tok = SCHEMA.attribute_at(AttributePath.of("conn", 1, "token"))
    assert tok is not None and tok.sensitive
    assert SCHEMA.attribute_at(AttributePath.of("nope")) is None
    assert SCHEMA.attribute_at(AttributePath.of("password", "x")) is None


def test_paths() -> None:
    p = AttributePath.root().attr("tags").index("a b")
    assert str(p) == 'tags["a b"]' and len(p) == 2
    assert p.has_prefix(AttributePath.of("tags")) and not p.has_prefix(AttributePath.of("x"))
    v = _value()
    assert AttributePath.of("rule", 1, "name").apply(v) == string("r")
    assert AttributePath.of("named").index("k").attr("secret").apply(v) == string("s")
    assert AttributePath.of("rule", 5).apply(v) is None
    assert AttributePath.of("missing").apply(v) is None
    rule = object_({"name": string("r"), "secret": string("s")})
    assert AttributePath.of("bag").index(rule).apply(v) == rule
    assert AttributePath.of("a") < AttributePath.of("b")
    assert {AttributePath.of("a", 0), AttributePath.of("a", 0)} == {AttributePath.of("a", 0)}
