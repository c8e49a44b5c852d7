"""Equality as cty's Value.Equals (what HCL's `==` and `!=` use).

Unknown-aware (an unknown operand gives an unknown bool unless the types can never match, or
the unknown's refinements exclude the known operand: not null, a string prefix, number or
length bounds),
null-aware (nulls of any types are equal; null vs non-null is false), type-aware (`1 == "1"`
is false, a tuple never equals a list), marks of both operands go onto the result.
"""

from __future__ import annotations

from engine.values.numbers import equal as num_equal
from engine.values.refinement import includes, value_range
from engine.values.types import (
    BOOL,
    DYNAMIC,
    NUMBER,
    ListType,
    MapType,
    ObjectType,
    SetType,
    TupleType,
    Type,
)
from engine.values.value import FALSE, TRUE, UNKNOWN, Value

_UNKNOWN_BOOL = Value(BOOL, UNKNOWN)


def conforms(have: Type, want: Type) -> bool:
    """cty's TestConformance: `have` matches `want`, DYNAMIC in `want` matching anything."""
    if want == DYNAMIC or have == want:
        return True
    if isinstance(want, (ListType, SetType, MapType)):
        return type(have) is type(want) and conforms(have.element, want.element)
    if isinstance(want, ObjectType):
        return (
            isinstance(have, ObjectType)
            and set(have.attrs) == set(want.attrs)
            and all(conforms(have.attrs[k], t) for k, t in want.attrs.items())
        )
    if isinstance(want, TupleType):
        return (
            isinstance(have, TupleType)
            and len(have.elements) == len(want.elements)
            and all(conforms(h, w) for h, w in zip(have.elements, want.elements))
        )
    return False


def has_wholly_known_type(v: Value) -> bool:
    """cty's HasWhollyKnownType: no unknown of a type involving DYNAMIC anywhere inside
    (nulls count as known, whatever their type)."""
    p = v.v
    if p is None:
        return True
    if p is UNKNOWN:
        return not v.type.has_dynamic()
    if isinstance(p, list):
        return all(has_wholly_known_type(e) for e in p)
    if isinstance(p, dict):
        return all(has_wholly_known_type(e) for e in p.values())
    return True


def equals(a: Value, b: Value) -> Value:
    """`a == b` as a bool Value (possibly unknown, possibly marked)."""
    if a.marks or b.marks:
        ua, ma = a.unmark()
        ub, mb = b.unmark()
        return equals(ua, ub).with_marks(ma | mb)
    ak, bk = a.v is not UNKNOWN, b.v is not UNKNOWN
    if not ak and not bk:
        return _UNKNOWN_BOOL
    if ak != bk:
        known, unk = (a, b) if ak else (b, a)
        if unk.refinement is not None and includes(value_range(unk), known) is False:
            return FALSE
        if known.v is None or unk.type.has_dynamic():
            return _UNKNOWN_BOOL
        if known.type != unk.type:
            return FALSE
        return _UNKNOWN_BOOL
    if a.v is None and b.v is None:
        return TRUE
    if a.v is None or b.v is None:
        return FALSE
    if not has_wholly_known_type(a) or not has_wholly_known_type(b):
        if not conforms(a.type, b.type) and not conforms(b.type, a.type):
            return FALSE
        return _UNKNOWN_BOOL
    if a.type != b.type:
        return FALSE
    r = _equal_known(a, b)
    if r is None:
        return _UNKNOWN_BOOL
    return TRUE if r else FALSE


def _equal_known(a: Value, b: Value) -> bool | None:
    """Equality of two known, non-null, same-typed, unmarked values; None means unknown."""
    t = a.type
    if t == NUMBER:
        return num_equal(a.v, b.v)
    if isinstance(t, (ListType, TupleType)):
        if len(a.v) != len(b.v):
            return False
        for x, y in zip(a.v, b.v):
            r = equals(x, y)
            if r.v is UNKNOWN:
                return None
            if not r.v:
                return False
        return True
    if isinstance(t, SetType):
        for e in (*a.v, *b.v):
            if e.v is UNKNOWN:
                return None
        return _set_has_all(a.v, b.v) and _set_has_all(b.v, a.v)
    if isinstance(t, (MapType, ObjectType)):
        if isinstance(t, MapType) and a.v.keys() != b.v.keys():
            return False
        for k, x in a.v.items():
            r = equals(x, b.v[k])
            if r.v is UNKNOWN:
                return None
            if not r.v:
                return False
        return True
    return bool(a.v == b.v)


def _set_has_all(xs: list[Value], ys: list[Value]) -> bool:
    from engine.values.sets import set_hash_string

    hashes = {set_hash_string(y) for y in ys}
    for x in xs:
        h = set_hash_string(x)
        if h not in hashes or not any(
            set_hash_string(y) == h and equals(x, y).v is True for y in ys
        ):
            return False
    return True
