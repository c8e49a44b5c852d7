"""Collection functions. Expected values, types and messages come from the real terraform
v1.11.4 (`terraform console`, `type(...)` for result types)."""

from __future__ import annotations

import pytest

from engine.lang.functions.collections_common import value_equals
from engine.values import NUMBER, STRING, TRUE, ListType, Value, number, string, unknown
from tests.unit.lang.helpers import only_error, show, value

CASES = [
    ('alltrue(["true", true])', "true"),
    ("alltrue([])", "true"),
    ('anytrue([false, "true"])', "true"),
    ('chunklist(["a", "b", "c"], 2)', 'tolist([\n  tolist([\n    "a",\n    "b",\n  ]),\n  tolist([\n    "c",\n  ]),\n])'),
    ("chunklist([1, 2, 3], 0)", "tolist([\n  tolist([\n    1,\n    2,\n    3,\n  ]),\n])"),
    ('coalesce("", "b", "c")', '"b"'),
    ('coalesce(1, "2")', '"1"'),
    ('coalescelist([], ["a", "b"])', '[\n  "a",\n  "b",\n]'),
    ('compact(["a", "", "b", null])', 'tolist([\n  "a",\n  "b",\n])'),
    ('contains(["1"], 1)', "false"),
    ("contains(toset([1, 2]), 2)", "true"),
    ("distinct([1, 2, 1])", "tolist([\n  1,\n  2,\n])"),
    ('element(["a", "b", "c"], 3)', '"a"'),
    ("element(tolist([1, 2, 3]), -1)", "3"),
    ("flatten([[1, [2]], [], 3])", "[\n  1,\n  2,\n  3,\n]"),
    ('index(["a", "b"], "b")', "1"),
    ("keys({a = 1, c = 2})", '[\n  "a",\n  "c",\n]'),
    ("keys({})", "[]"),
    ('length("héllo")', "5"),
    ('length(toset(["a", "a"]))', "1"),
    ('lookup({a = 1, b = "x"}, "a")', "1"),
    ('lookup({a = 1}, "b", "x")', '"x"'),
    ('matchkeys([1, 2, 3], ["a", "b", "c"], ["a", "c"])', "tolist([\n  1,\n  3,\n])"),
    ("merge({a = 1}, null)", '{\n  "a" = 1\n}'),
    ("merge()", "{}"),
    ("one([])", "null"),
    ("range(1, 8, 2)", "tolist([\n  1,\n  3,\n  5,\n  7,\n])"),
    ("range(-3)", "tolist([\n  0,\n  -1,\n  -2,\n])"),
    ("range(0, 1, 0.25)", "tolist([\n  0,\n  0.25,\n  0.5,\n  0.75,\n])"),
    ('reverse([1, "a"])', '[\n  "a",\n  1,\n]'),
    ('setunion([1], ["a"])', 'toset([\n  "1",\n  "a",\n])'),
    ('setintersection(["a", "b"], ["b", "c"])', 'toset([\n  "b",\n])'),
    ('setsubtract(["a", "b", "c"], ["a", "c"])', 'toset([\n  "b",\n])'),
    ('slice([1, "a", true], 1, 3)', '[\n  "a",\n  true,\n]'),
    ("sort([3, 1, 10])", 'tolist([\n  "1",\n  "10",\n  "3",\n])'),
    ("sum([10, 13, 6, 4.5])", "33.5"),
    ('transpose({"a" = ["1", "2"], "b" = ["2"]})',
     'tomap({\n  "1" = tolist([\n    "a",\n  ])\n  "2" = tolist([\n    "a",\n    "b",\n  ])\n})'),
    ('values({a = 1, b = "x"})', '[\n  1,\n  "x",\n]'),
    ('zipmap(["a", "b"], [1, "x"])', '{\n  "a" = 1\n  "b" = "x"\n}'),
]


@pytest.mark.parametrize(("src", "want"), CASES)
def test_collection_values(src: str, want: str) -> None:
    assert show(src) == want


# result types as terraform's `type(...)` reports them (in terraform's JSON type notation)
TYPES = [
    ('concat([1], ["a"])', ["tuple", ["number", "string"]]),
    ('concat(tolist([1]), tolist(["a"]))', ["list", "string"]),
    ('concat(tolist(["a"]), [1])', ["tuple", ["string", "number"]]),
    ('distinct([1, "1"])', ["list", "string"]),
    ("distinct([])", ["list", "dynamic"]),
    ('flatten([[1], ["a"]])', ["tuple", ["number", "string"]]),
    ('reverse([1, "a"])', ["tuple", ["string", "number"]]),
    ('slice([1, "a", true], 1, 3)', ["tuple", ["string", "bool"]]),
    ("keys({a = 1})", ["tuple", ["string"]]),
    ("keys(tomap({}))", ["list", "string"]),
    ('values({a = 1, b = "x"})', ["tuple", ["number", "string"]]),
    ('zipmap(["a"], [1])', ["object", {"a": "number"}]),
    ('zipmap(["a"], tolist([1]))', ["map", "number"]),
    ('merge({a = 1}, {b = "x"})', ["object", {"a": "number", "b": "string"}]),
    ('merge(tomap({a = 1}), tomap({b = "x"}))', ["object", {"a": "number", "b": "string"}]),
    ("merge(tomap({a = 1}), tomap({b = 2}))", ["map", "number"]),
    ('setproduct([1], ["a"])', ["list", ["tuple", ["number", "string"]]]),
    ('setunion([1], ["a"])', ["set", "string"]),
    ("sort([3, 1])", ["list", "string"]),
    ("range(3)", ["list", "number"]),
    ('transpose({a = ["x"]})', ["map", ["list", "string"]]),
    ("chunklist([1, 2, 3], 2)", ["list", ["list", "number"]]),
    ('coalescelist([1], ["a"])', ["tuple", ["number"]]),
    ('matchkeys([1, 2], ["a", "b"], ["a"])', ["list", "number"]),
    ('compact(["a", ""])', ["list", "string"]),
    ("one([1])", "number"),
    ("one([])", "dynamic"),
    ('lookup({a = 1, b = "x"}, "a")', "number"),
    ('lookup({a = 1}, "c", true)', "bool"),
    ('element(["a", 1], 3)', "number"),
    ('coalesce(1, "a")', "string"),
]


@pytest.mark.parametrize(("src", "want"), TYPES)
def test_collection_result_types(src: str, want: object) -> None:
    assert value(src).type.to_json() == want


ERRORS = [
    ('index(["a", "1"], 1)', "Error in function call",
     'Call to function "index" failed: item not found.'),
    ("index([], 1)", "Error in function call",
     'Call to function "index" failed: cannot search an empty list.'),
    ("concat()", "Error in function call",
     'Call to function "concat" failed: at least one argument is required.'),
    ('concat([1], "a")', "Invalid function argument",
     'Invalid value for "seqs" parameter: all arguments must be lists or tuples; got string.'),
    ("flatten({a = 1})", "Error in function call",
     'Call to function "flatten" failed: can only flatten lists, sets and tuples.'),
    ("length(1)", "Error in function call",
     'Call to function "length" failed: argument must be a string, a collection type, or a structural type.'),
    ('lookup({a = 1}, "b")', "Invalid function argument",
     'Invalid value for "inputMap" parameter: the given object has no attribute "b".'),
    ('lookup(tomap({a = 1}), "b", "x")', "Invalid function argument",
     'Invalid value for "default" parameter: the default value must have the same type as the map elements.'),
    ('lookup([1], "a")', "Invalid function argument",
     'Invalid value for "inputMap" parameter: lookup() requires a map as the first argument.'),
    ('lookup(tomap({a = 1}), sensitive("b"))', "Error in function call",
     'Call to function "lookup" failed: lookup failed to find key (sensitive value).'),
    ("merge([1])", "Error in function call",
     'Call to function "merge" failed: arguments must be maps or objects, got "tuple".'),
    ("element([], 0)", "Error in function call",
     'Call to function "element" failed: cannot use element function with an empty list.'),
    ("element([1, 2, 3], 1.5)", "Error in function call",
     'Call to function "element" failed: invalid index: value must be a whole number, between -9223372036854775808 and 9223372036854775807.'),
    ("chunklist([1, 2, 3], -1)", "Error in function call",
     'Call to function "chunklist" failed: the size argument must be positive.'),
    ("list(1)", "Error in function call",
     'Call to function "list" failed: the "list" function was deprecated in Terraform v0.12 and is no longer available; use tolist([ ... ]) syntax to write a literal list.'),
    ('map("a", 1)', "Error in function call",
     'Call to function "map" failed: the "map" function was deprecated in Terraform v0.12 and is no longer available; use tomap({ ... }) syntax to write a literal map.'),
]


@pytest.mark.parametrize(("src", "summary", "detail"), ERRORS)
def test_collection_errors(src: str, summary: str, detail: str) -> None:
    d = only_error(src)
    assert (d.summary, d.detail) == (summary, detail)


def test_sensitive_collections() -> None:
    for src in ("length(sensitive([1, 2]))", 'lookup(sensitive({a = 1}), "a")',
                "element(sensitive([1, 2]), 0)", "concat(sensitive([1]), [2])",
                "merge(sensitive({a = 1}), {b = 2})", "keys(sensitive({a = 1}))"):
        assert show(src) == "(sensitive value)", src


def test_unknowns() -> None:
    # length of a known list with unknown elements is known; of an unknown value is not
    assert show("length([var.un, 1])") == "2"
    assert show("length(var.us)") == "(known after apply)"
    # terraform: the order is unknown but the length is not (a list of unknown strings)
    assert show("sort([var.us])") == "tolist([\n  (known after apply),\n])"
    assert show('contains(["a", var.us], "a")') == "true"
    assert show('contains(["b", var.us], "a")') == "(known after apply)"
    assert show("alltrue([false, var.un == 1])") == "false"
    assert not value('lookup({a = 1}, var.us)').is_known
    assert show("keys({a = var.un})") == '[\n  "a",\n]'


def test_value_equals() -> None:
    assert value_equals(number(1), number(1)) is True
    assert value_equals(number(1), string("1")) is False
    assert value_equals(unknown(NUMBER), number(1)) is None
    lst = Value(ListType(STRING), [string("a")])
    assert value_equals(lst, Value(ListType(STRING), [string("a")])) is True
    assert value_equals(TRUE, TRUE.mark("sensitive")) is True
