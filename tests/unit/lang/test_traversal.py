"""References, attribute access, indexing, object/tuple constructors, and the values lines
Terraform shows under a diagnostic.

Expected values and diagnostic texts were verified against terraform v1.11.4 (`terraform
console`, and `terraform plan` over variables for the `│ var.x is ...` lines).
"""

from __future__ import annotations

import pytest

from engine.lang import EvalContext
from engine.values import (
    DYNAMIC,
    NUMBER,
    STRING,
    UNKNOWN,
    ListType,
    MapType,
    ObjectType,
    SetType,
    Value,
    number,
    object_,
    string,
)

from .helpers import ctx, default_vars, only_error, run, show, subject_text, value

SENSITIVE = frozenset({"sensitive"})


def typed_ctx() -> EvalContext:
    variables = default_vars()
    obj_t = ObjectType({"a": NUMBER})
    variables["t"] = object_(
        {
            "list": Value(ListType(NUMBER), [number(1), number(2)]),
            "empty": Value(ListType(NUMBER), []),
            "set": Value(SetType(NUMBER), [number(1)]),
            "map": Value(MapType(NUMBER), {"a": number(1)}),
            "objs": Value(ListType(obj_t), [object_({"a": number(1)})]),
            "sobjs": Value(SetType(obj_t), [object_({"a": number(1)})]),
            "ulist": Value(ListType(NUMBER), UNKNOWN),
            "umap": Value(MapType(STRING), UNKNOWN),
            "uobj": Value(obj_t, UNKNOWN),
            "dyn": Value(DYNAMIC, UNKNOWN),
            "smap": Value(MapType(NUMBER), {"a": number(1)}, SENSITIVE),
            "o": object_({"a": number(1), "b": string("x")}),
        }
    )
    return ctx(variables)


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ('["1","2"]["1"]', '"2"'),
        ("{a={b=[1,2]}}.a.b[1]", "2"),
        ('{"1"=2}[1]', "2"),
        ("t.list[1]", "2"),
        ('t.list["0"]', "1"),
        ("t.map.a", "1"),
        ('t.map["a"]', "1"),
        ("t.o.b", '"x"'),
        ('t.o["a"]', "1"),
        ("{a=1, a=2}", '{\n  "a" = 2\n}'),
        ("{true=1}", '{\n  "true" = 1\n}'),
        ("{(var.s)=1}", '{\n  "a" = 1\n}'),
        ("{1=2}", '{\n  "1" = 2\n}'),
        ("[1, var.s]", '[\n  1,\n  "a",\n]'),
    ],
)
def test_traversal_results(src: str, expected: str) -> None:
    assert show(src, typed_ctx()) == expected


_NO = "The given key does not identify an element in this collection value"


@pytest.mark.parametrize(
    ("src", "summary", "detail", "subject"),
    [
        ("{a=1}.b", "Unsupported attribute", 'This object does not have an attribute named "b".', ".b"),
        ('{a=1}["b"]', "Invalid index", _NO + ".", '["b"]'),
        ("[1,2][5]", "Invalid index", _NO + ".", "[5]"),
        ("t.list[2]", "Invalid index", _NO + ": the given index is greater than or equal to the length of the collection.", "[2]"),
        ("t.list[5]", "Invalid index", _NO + ".", "[5]"),
        ("t.empty[0]", "Invalid index", _NO + ": the collection has no elements.", "[0]"),
        ("t.list[-1]", "Invalid index", _NO + ": a negative number is not a valid index for a sequence.", "[-1]"),
        ("[1][1.5]", "Invalid index", _NO + ": indexing a sequence requires a whole number, but the given index has a fractional part.", "[1.5]"),
        ('[1,2]["x"]', "Invalid index", _NO + ": a number is required.", '["x"]'),
        ("[1][null]", "Invalid index", "Can't use a null value as an indexing key.", "[null]"),
        ("{a=1}[0]", "Invalid index", _NO + ". An object only supports looking up attributes by name, not by numeric index.", "[0]"),
        ('"abc"[0]', "Invalid index", "This value does not have any indices.", "[0]"),
        ("null[0]", "Attempt to index null value", "This value is null, so it does not have any indices.", "[0]"),
        ("null.a", "Attempt to get attribute from null value", "This value is null, so it does not have any attributes.", ".a"),
        ("t.set[0]", "Invalid index", "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.", "[0]"),
        ("t.map.b", "Missing map element", 'This map does not have an element with the key "b".', ".b"),
        ("t.objs.a", "Unsupported attribute", 'Can\'t access attributes on a list of objects. Did you mean to access attribute "a" for a specific element of the list, or across all elements of the list?', ".a"),
        ("t.objs.z", "Unsupported attribute", "Can't access attributes on a list of objects. Did you mean to access an attribute for a specific element of the list, or across all elements of the list?", ".z"),
        ("t.sobjs.a", "Unsupported attribute", "Can't access attributes on a set of objects. Did you mean to access an attribute across all elements of the set?", ".a"),
        ("var.n.a", "Unsupported attribute", "Can't access attributes on a primitive-typed value (number).", ".a"),
        ("[1].a", "Unsupported attribute", "This value does not have any attributes.", ".a"),
        ("zzzzz", "Unknown variable", 'There is no variable named "zzzzz".', "zzzzz"),
        ("{(null)=1}", "Null value as key", "Can't use a null value as a key.", "1"),
        ("{([1])=1}", "Incorrect key type", "Can't use this value as a key: string required.", "([1])"),
    ],
)
def test_traversal_errors(src: str, summary: str, detail: str, subject: str) -> None:
    d = only_error(src, typed_ctx())
    assert (d.summary, d.detail) == (summary, detail)
    assert subject_text(d) == subject


def test_unknown_variable_suggestion() -> None:
    d = only_error("vr.n")
    assert (d.summary, d.detail) == (
        "Unknown variable",
        'There is no variable named "vr". Did you mean "var"?',
    )
    assert subject_text(d) == "vr"


def test_ambiguous_object_key() -> None:
    d = only_error("{a.b=1}")
    assert d.summary == "Ambiguous attribute key"
    assert subject_text(d) == "a.b"


def test_dynamic_index() -> None:
    c = typed_ctx()
    assert value("t.list[var.n]", c) == number(2)
    assert value('{a=1, b=2}[var.s]', c) == number(1)
    d = only_error("t.list[var.n + 5]", c)
    assert subject_text(d) == "[var.n + 5]"


def test_unknowns_in_traversals() -> None:
    c = typed_ctx()
    assert value("t.ulist[0]", c) == Value(NUMBER, UNKNOWN)
    assert value("t.list[var.un]", c) == Value(NUMBER, UNKNOWN)
    assert value("t.umap.k", c) == Value(STRING, UNKNOWN)
    assert value("t.uobj.a", c) == Value(NUMBER, UNKNOWN)
    assert value("t.dyn.a.b[0]", c) == Value(DYNAMIC, UNKNOWN)
    assert value("[1, 2][var.un]", c) == Value(DYNAMIC, UNKNOWN)
    assert value("{(var.us) = 1}", c) == Value(DYNAMIC, UNKNOWN)
    d = only_error("t.uobj.nope", c)
    assert d.summary == "Unsupported attribute"


def test_marks_flow_through_traversals_and_constructors() -> None:
    c = typed_ctx()
    assert value("t.smap.a", c) == Value(NUMBER, 1, SENSITIVE)
    assert value('t.smap["a"]', c) == Value(NUMBER, 1, SENSITIVE)
    assert value("t.list[var.sn - 4]", c) == Value(NUMBER, 2, SENSITIVE)
    assert value("{(var.secret) = 1}", c).marks == SENSITIVE
    inner = value("[var.sn]", c)
    assert inner.marks == frozenset() and inner.v[0].marks == SENSITIVE


def test_out_of_range_on_marked_collection_uses_generic_text() -> None:
    variables = default_vars()
    variables["m"] = Value(ListType(NUMBER), [number(1)], SENSITIVE)
    d = only_error("m[1]", ctx(variables))
    assert d.detail == _NO + "."


def test_values_lines_like_terraform() -> None:
    c = typed_ctx()
    cases = {
        "var.s + 1": [("var.s", 'is "a"')],
        "t.list[5]": [("t.list", "is list of number with 2 elements")],
        "t.o.nope": [("t.o", "is object with 2 attributes")],
        "[for x in t.list : x + var.s]": [("var.s", 'is "a"')],
        "t.o[\"c\"]": [("t.o", "is object with 2 attributes")],
        # only the offending operand's references are described
        "var.un + var.s": [("var.s", 'is "a"')],
        "upper(var.un == 1 ? {} : {})": [("var.un", "is a number")],
        "t.map.b": [("t.map", 'is map of number with 1 element')],
    }
    for src, expected in cases.items():
        errs = run(src, c)[1].errors
        assert errs, src
        got = [(v.traversal, v.statement) for v in errs[0].values if v.traversal != "while calling"]
        assert got == expected, src


def test_values_lines_hide_sensitive_values() -> None:
    d = only_error("var.secret + 1")
    assert d.values == ()


def test_for_expression_errors_repeat_per_element() -> None:
    _, diags = run("[for x in [1, 2] : x + var.s]")
    assert [d.summary for d in diags] == ["Invalid operand", "Invalid operand"]


def test_object_and_tuple_collect_all_errors() -> None:
    val, diags = run("[var.nope, upper({})]")
    assert [d.summary for d in diags] == ["Unsupported attribute", "Invalid function argument"]
    assert val.type.friendly_name() == "tuple"
    val, diags = run("{a = var.nope, (var.nope2) = 1}")
    assert len(diags) == 2
    assert val == Value(DYNAMIC, UNKNOWN)
