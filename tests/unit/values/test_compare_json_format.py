"""Equality, JSON and console rendering; expectations from terraform 1.11.4 (`terraform console`,
`terraform output -json`, `terraform output NAME`)."""

from __future__ import annotations

import pytest

from engine.values import (
    NUMBER,
    STRING,
    ListType,
    MapType,
    ObjectType,
    TupleType,
    Value,
    boolean,
    format_value,
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
from engine.values.compare import equals
from engine.values.json import JSONError, dumps, implied_type, loads, value_from_json, value_to_json
from engine.values.numbers import div


def test_equals() -> None:
    # terraform: [1] == tolist([1]) => false; 1 == "1" => false; null == tostring(null) => true
    assert equals(tuple_([number(1)]), list_([number(1)])).v is False
    assert equals(number(1), string("1")).v is False
    assert equals(null(), null(STRING)).v is True
    assert equals(object_({"a": number(1)}), map_({"a": number(1)})).v is False
    assert equals(set_([number(1), number(2)]), set_([number(2), number(1)])).v is True
    assert equals(tuple_([number(1), null()]), tuple_([number(1), null()])).v is True
    assert equals(Value(NUMBER, -0.0), number(0)).v is True
    marked = equals(number(1).mark("sensitive"), number(1))
    assert marked.v is True and marked.is_sensitive
    assert not equals(unknown(NUMBER), number(1)).is_known
    assert equals(unknown(NUMBER), string("a")).v is False
    assert not equals(unknown(NUMBER), null()).is_known
    assert not equals(tuple_([unknown(NUMBER)]), tuple_([number(1)])).is_known


def test_json_numbers_exact() -> None:
    third = "0." + "3" * 154 + "5"
    v = object_({"a": Value(NUMBER, div(1, 3)), "b": number("1e300"), "c": number("1.5")})
    text = dumps(value_to_json(v), indent=2)
    assert f'"a": {third},' in text
    assert '"b": 1' + "0" * 300 + "," in text
    assert '"c": 1.5\n' in text
    back = value_from_json(loads(text), v.type)
    assert back == v


def test_json_strings_like_go() -> None:
    # terraform output -json: "s\n\"q\"é\u003c\u003e\u0026"; jsonencode("\b\f") => "\b\f"
    assert dumps('s\n"q"é<>&') == '"s\\n\\"q\\"é\\u003c\\u003e\\u0026"'
    assert dumps("\b\f\x01") == '"\\b\\f\\u0001"'
    assert dumps({"b": [1, True, None], "a": {}}) == '{"a":{},"b":[1,true,null]}'


def test_json_infinity_refused() -> None:
    # terraform: jsonencode(1/0) => cannot serialize infinity as JSON
    with pytest.raises(JSONError, match="cannot serialize infinity as JSON"):
        value_to_json(Value(NUMBER, div(1, 0)))


def test_implied_type_and_dynamic() -> None:
    data = loads('[1, "a", null, {"b": true}]')
    t = implied_type(data)
    assert t.to_json() == ["tuple", ["number", "string", "dynamic", ["object", {"b": "bool"}]]]
    dyn = value_from_json({"value": ["x"], "type": ["list", "string"]}, implied_type(None))
    assert dyn == list_([string("x")])


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (tuple_([number(1), string("a"), boolean(True), null()]), '[\n  1,\n  "a",\n  true,\n  null,\n]'),
        (list_([], STRING), "tolist([])"),
        (Value(MapType(STRING), {}), "tomap({})"),
        (object_({}), "{}"),
        (null(ListType(STRING)), "tolist(null) /* of string */"),
        (null(STRING), "tostring(null)"),
        (null(ObjectType({"a": STRING})), "null /* object */"),
        (null(), "null"),
        (unknown(STRING), "(known after apply)"),
        (string("x").mark("sensitive"), "(sensitive value)"),
        (string("a\nb"), "<<EOT\na\nb\nEOT"),
        (tuple_([string("a\nb")]), "[\n  <<-EOT\n  a\n  b\n  EOT,\n]"),
        (string("EOT\nx"), "<<EOT_\nEOT\nx\nEOT_"),
        (object_({"c": string("x"), "a b": number(1)}), '{\n  "a b" = 1\n  "c" = "x"\n}'),
        (set_([list_([number(1)]), list_([number(0)])]),
         "toset([\n  tolist([\n    0,\n  ]),\n  tolist([\n    1,\n  ]),\n])"),
        (string("\b\x01\x7f\u00a0\u200b\u2028 é\t"), '"\\b\\x01\\x7f\\u00a0\\u200b\\u2028 é\\t"'),
        (string("${x} %{y}"), '"${x} %{y}"'),
        (Value(NUMBER, div(1, 0)), "+Inf"),
        (Value(TupleType([]), []), "[]"),
    ],
)
def test_format_value(value: Value, shown: str) -> None:
    assert format_value(value) == shown
