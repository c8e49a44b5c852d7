"""Short descriptions of values for diagnostics (`var.n is 5`, `var.s has a sensitive value`).

These follow HCL's expression-value statements: a known primitive is shown in compact
console syntax, a collection by its length, null as `is null`, an unknown value as
`will be known only after apply`, a sensitive one without revealing it.
"""

from __future__ import annotations

from engine.values import Value
from engine.values.types import ListType, MapType, ObjectType, SetType, TupleType


def describe_value(val: Value) -> str:
    """The statement after the traversal in a diagnostic's value list."""
    if val.deep_marks():
        return "has a sensitive value"
    if not val.is_known:
        return "is a " + _type_name(val) + ", known only after apply"
    if val.is_null:
        return "is null"
    t = val.type
    if t.is_primitive:
        from engine.values.format import format_value

        return "is " + format_value(val)
    n = val.length()
    if isinstance(t, (ListType, TupleType)):
        kind = "list" if isinstance(t, ListType) else "tuple"
        return f"is empty {kind}" if n == 0 else f"is {kind} with {n} element" + (
            "" if n == 1 else "s"
        )
    if isinstance(t, SetType):
        return "is empty set" if n == 0 else f"is set of {t.element.friendly_name()} with {n} element" + (
            "" if n == 1 else "s"
        )
    if isinstance(t, MapType):
        return "is empty map" if n == 0 else f"is map of {t.element.friendly_name()} with {n} element" + (
            "" if n == 1 else "s"
        )
    if isinstance(t, ObjectType):
        return "is object with no attributes" if n == 0 else f"is object with {n} attribute" + (
            "" if n == 1 else "s"
        )
    return "is " + t.friendly_name()


def _type_name(val: Value) -> str:
    return val.type.friendly_name()
