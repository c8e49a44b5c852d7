"""Type constraints from syntax; diagnostics (summary, detail, columns) verified with
terraform 1.11.4 `terraform validate -json` on variable type constraints."""

from __future__ import annotations

import pytest

from engine.configs.typeexpr import type_constraint_from_expr, type_from_expr, type_string
from engine.hcl.ast import Expr
from engine.hcl.parser import parse_expression
from engine.values import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    ListType,
    MapType,
    ObjectType,
    TupleType,
    Value,
    number,
)


def _literal(expr: Expr) -> Value:
    value = getattr(expr, "value", None)
    if isinstance(value, Value):
        return value
    parts = getattr(expr, "parts", None)
    if parts and isinstance(getattr(parts[0], "value", None), Value):
        return parts[0].value
    raise AssertionError(f"test evaluator only handles literals, got {expr!r}")


def _parse(src: str) -> Expr:
    expr, diags = parse_expression(src)
    assert not diags.has_errors
    return expr


@pytest.mark.parametrize(
    ("src", "want"),
    [
        ("string", STRING),
        ("number", NUMBER),
        ("bool", BOOL),
        ("any", DYNAMIC),
        ("list(string)", ListType(STRING)),
        ("map(any)", MapType(DYNAMIC)),
        ("tuple([string, bool])", TupleType([STRING, BOOL])),
        ("object({a=number, b=list(string)})", ObjectType({"a": NUMBER, "b": ListType(STRING)})),
    ],
)
def test_valid(src: str, want: object) -> None:
    t, diags = type_constraint_from_expr(_parse(src), _literal)
    assert not diags and t == want


def test_optional_with_default() -> None:
    t, diags = type_constraint_from_expr(
        _parse("object({a=optional(number, 5), b=optional(list(string))})"), _literal
    )
    assert not diags
    assert isinstance(t, ObjectType)
    assert t.optional == {"a", "b"}
    assert t.defaults == {"a": number(5)}
    assert type_string(t) == "object({a=optional(number),b=optional(list(string))})"


@pytest.mark.parametrize(
    ("src", "detail", "cols"),
    [
        ("foo", 'The keyword "foo" is not a valid type specification.', (1, 4)),
        (
            "list(string, number)",
            "The list type constructor requires one argument specifying the element type.",
            (14, 20),
        ),
        ('object({"a"=string})', "Object constructor map keys must be attribute names.", (9, 12)),
        ("string(1)", 'Primitive type keyword "string" does not expect arguments.', (7, 10)),
        (
            "optional(string)",
            'Keyword "optional" is valid only as a modifier for object type attributes.',
            (1, 9),
        ),
    ],
)
def test_invalid(src: str, detail: str, cols: tuple[int, int]) -> None:
    _, diags = type_constraint_from_expr(_parse(src), _literal)
    (d,) = list(diags)
    assert d.summary == "Invalid type specification"
    assert d.detail == detail
    assert d.subject is not None
    assert (d.subject.start.column, d.subject.end.column) == cols


def test_bad_default() -> None:
    _, diags = type_constraint_from_expr(_parse('object({a = optional(number, "x")})'), _literal)
    (d,) = list(diags)
    assert d.summary == "Invalid default value for optional attribute"
    assert d.detail == (
        "This default value is not compatible with the attribute's type constraint: "
        "a number is required."
    )


def test_exact_type_refuses_any() -> None:
    _, diags = type_from_expr(_parse("any"))
    assert diags.has_errors
