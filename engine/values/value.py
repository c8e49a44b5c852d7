"""The Value: a typed payload, possibly null or unknown, possibly marked (e.g. sensitive).

Payload (`v`) by type:
- string: `str`; bool: `bool`; number: `int` when integral, else a `fractions.Fraction` whose
  denominator is a power of two (a 512-bit binary float, as Terraform's big.Float; see numbers).
- list, set, tuple: `list[Value]` (sets hold their elements in cty's canonical order, no
  duplicates); map, object: `dict[str, Value]` (maps sorted by key; objects keyed by attribute).
- null: `None`; unknown: the `UNKNOWN` sentinel (of any type, including DYNAMIC).

`marks` is a frozenset of strings on this value itself (`"sensitive"`); nested values carry
their own marks. Values are treated as immutable: never mutate `v` after construction.

`refinement` is None on every Value but the refined unknowns of `engine.values.refinement`
(a subclass with that one more slot): what is known of an unknown value (not null, a string
prefix, number or length bounds). Known values never carry one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from engine.values.types import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    ListType,
    MapType,
    ObjectType,
    TupleType,
    Type,
)

if TYPE_CHECKING:
    from engine.values.refinement import Refinement


class _Unknown:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNKNOWN"

    def __reduce__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()
NO_MARKS: frozenset[str] = frozenset()
SENSITIVE = "sensitive"

Number = int | Fraction


class Value:
    __slots__ = ("marks", "type", "v")

    #: What is known of an unknown value; a slot only on `RefinedUnknown` (see the module doc).
    refinement: Refinement | None = None

    def __init__(self, type: Type, v: Any, marks: frozenset[str] = NO_MARKS) -> None:
        self.type = type
        self.v = v
        self.marks = marks

    # -- state ---------------------------------------------------------------------------
    @property
    def is_known(self) -> bool:
        return self.v is not UNKNOWN

    @property
    def is_null(self) -> bool:
        return self.v is None

    @property
    def is_marked(self) -> bool:
        return bool(self.marks)

    @property
    def is_sensitive(self) -> bool:
        return SENSITIVE in self.marks

    def is_wholly_known(self) -> bool:
        """Known here and in every nested value."""
        v = self.v
        if v is UNKNOWN:
            return False
        if isinstance(v, list):
            return all(e.is_wholly_known() for e in v)
        if isinstance(v, dict):
            return all(e.is_wholly_known() for e in v.values())
        return True

    # -- marks ---------------------------------------------------------------------------
    def mark(self, *marks: str) -> Value:
        if not marks or set(marks) <= self.marks:
            return self
        return Value(self.type, self.v, self.marks | frozenset(marks))

    def with_marks(self, marks: frozenset[str]) -> Value:
        if not marks or marks <= self.marks:
            return self
        return Value(self.type, self.v, self.marks | marks)

    def unmark(self) -> tuple[Value, frozenset[str]]:
        """This value without its own marks, and those marks."""
        if not self.marks:
            return self, NO_MARKS
        return Value(self.type, self.v), self.marks

    def deep_marks(self) -> frozenset[str]:
        """The union of marks on this value and every nested value."""
        marks = set(self.marks)
        v = self.v
        if isinstance(v, list):
            for e in v:
                marks |= e.deep_marks()
        elif isinstance(v, dict):
            for e in v.values():
                marks |= e.deep_marks()
        return frozenset(marks)

    def unmark_deep(self) -> tuple[Value, frozenset[str]]:
        """This value with no marks anywhere inside it, and the union of what was removed.

        A value with no marks inside is returned as it is (no copy)."""
        v = self.v
        found: set[str] | None = None
        if isinstance(v, list):
            items: list[Value] | None = None
            for i, e in enumerate(v):
                ue, m = e.unmark_deep()
                if m:
                    found = set(m) if found is None else found | m
                    if items is None:
                        items = list(v[:i])
                if items is not None:
                    items.append(ue)
            if items is not None:
                return Value(self.type, items), _union(self.marks, found)
        elif isinstance(v, dict):
            out: dict[str, Value] | None = None
            for k, e in v.items():
                ue, m = e.unmark_deep()
                if m:
                    found = set(m) if found is None else found | m
                    if out is None:
                        out = {}
                        for k2, e2 in v.items():
                            if k2 == k:
                                break
                            out[k2] = e2
                if out is not None:
                    out[k] = ue
            if out is not None:
                return Value(self.type, out), _union(self.marks, found)
        if self.marks:
            return Value(self.type, v), _union(self.marks, found)
        return self, NO_MARKS

    # -- comparison (structural, for tests and set membership) ---------------------------
    def _key(self) -> Any:
        v = self.v
        if isinstance(v, list):
            return (self.type, tuple(e._key() for e in v), self.marks)
        if isinstance(v, dict):
            return (self.type, tuple((k, e._key()) for k, e in v.items()), self.marks)
        if v is UNKNOWN:
            return (self.type, "<unknown>", self.marks)
        return (self.type, type(v) is bool, v, self.marks)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Value) and _same(self, other)

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        marks = f", marks={sorted(self.marks)}" if self.marks else ""
        return f"Value({self.type!r}, {self.v!r}{marks})"

    # -- collection access ---------------------------------------------------------------
    def length(self) -> int:
        """Number of elements of a known collection or structural value."""
        v = self.v
        if isinstance(v, (list, dict)):
            return len(v)
        raise TypeError("length of a non-collection or unknown value")

    def elements(self) -> list[Value]:
        v = self.v
        if isinstance(v, list):
            return v
        if isinstance(v, dict):
            return list(v.values())
        raise TypeError("elements of a non-collection value")


def _union(own: frozenset[str], found: set[str] | None) -> frozenset[str]:
    return own if not found else own | found


def _same(a: Value, b: Value) -> bool:
    """Structural equality, exactly as comparing `_key()`s, without building the keys."""
    if a is b:
        return True
    if a.marks != b.marks or (a.type is not b.type and a.type != b.type):
        return False
    x, y = a.v, b.v
    if isinstance(x, list):
        return isinstance(y, list) and len(x) == len(y) and all(
            _same(p, q) for p, q in zip(x, y))
    if isinstance(x, dict):
        return isinstance(y, dict) and len(x) == len(y) and list(x) == list(y) and all(
            _same(e, y[k]) for k, e in x.items())
    if x is UNKNOWN or y is UNKNOWN:
        return x is y
    if isinstance(y, (list, dict)):
        return False
    return (type(x) is bool) == (type(y) is bool) and (x is y or x == y)


# ------------------------------------------------------------------------------ constructors
TRUE = Value(BOOL, True)
FALSE = Value(BOOL, False)
NULL_DYNAMIC = Value(DYNAMIC, None)
UNKNOWN_DYNAMIC = Value(DYNAMIC, UNKNOWN)
EMPTY_STRING = Value(STRING, "")


def string(s: str) -> Value:
    return Value(STRING, s)


def number(n: int | Fraction | float | str) -> Value:
    """A number value; strings are parsed as Terraform parses them, floats taken exactly
    (infinities and -0.0 stay floats, see engine.values.numbers)."""
    if isinstance(n, bool):
        raise TypeError("bool is not a number")
    if isinstance(n, int):
        return Value(NUMBER, n)
    from engine.values.numbers import normalize, parse_number

    if isinstance(n, str):
        return Value(NUMBER, parse_number(n))
    return Value(NUMBER, normalize(n))


def boolean(b: bool) -> Value:
    return TRUE if b else FALSE


def null(t: Type = DYNAMIC) -> Value:
    return Value(t, None)


def unknown(t: Type = DYNAMIC) -> Value:
    return Value(t, UNKNOWN)


def tuple_(elems: Iterable[Value]) -> Value:
    items = list(elems)
    return Value(TupleType(e.type for e in items), items)


def object_(attrs: Mapping[str, Value]) -> Value:
    d = dict(attrs)
    return Value(ObjectType({k: e.type for k, e in d.items()}), d)


def list_(elems: Iterable[Value], element_type: Type | None = None) -> Value:
    """A list; every element must already be of `element_type` (or of one common type)."""
    items = list(elems)
    if element_type is None:
        if not items:
            raise ValueError("empty list needs an element type")
        element_type = items[0].type
    return Value(ListType(element_type), items)


def map_(elems: Mapping[str, Value], element_type: Type | None = None) -> Value:
    d = dict(sorted(elems.items()))
    if element_type is None:
        if not d:
            raise ValueError("empty map needs an element type")
        element_type = next(iter(d.values())).type
    return Value(MapType(element_type), d)
