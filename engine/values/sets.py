"""cty's set semantics: which elements are duplicates and the order sets iterate in.

Two elements are the same when their set hash strings match and they are equal (unknown
values never equal anything, so every unknown element is kept; -0 and 0 hash differently and
both stay, as in Terraform). Order: cty buckets elements by the CRC-32 of the hash string, then
stable-sorts with its `Less`: known non-null before unknown before null; strings
lexically (by UTF-8 bytes), numbers numerically, false before true; any other type by its hash
string's bytes. Marks are ignored for identity and kept on the elements.
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Iterable

from engine.values.numbers import compare as num_compare
from engine.values.numbers import format_g10
from engine.values.types import BOOL, NUMBER, STRING, ListType, MapType, ObjectType, SetType, Type
from engine.values.value import NO_MARKS, UNKNOWN, Value


def set_hash_string(v: Value) -> str:
    """cty's set hash bytes for `v` (marks ignored)."""
    from engine.gocompat.strconv import quote as go_quote

    p = v.v
    if p is UNKNOWN:
        return "?"
    if p is None:
        return "~"
    t = v.type
    if t == NUMBER:
        return format_g10(p)
    if t == BOOL:
        return "T" if p else "F"
    if t == STRING:
        return go_quote(p)
    if isinstance(t, MapType):
        return "{" + "".join(f"{go_quote(k)}:{set_hash_string(e)};" for k, e in p.items()) + "}"
    if isinstance(t, (ListType, SetType)):
        return "[" + "".join(f"{set_hash_string(e)};" for e in p) + "]"
    if isinstance(t, ObjectType):
        return "<" + "".join(f"{set_hash_string(p[k])};" for k in sorted(p)) + ">"
    return "<" + "".join(f"{set_hash_string(e)};" for e in p) + ">"


def _identity_key(v: Value) -> object:
    """Equal for values cty's Equals calls equal (marks ignored); None if unknown inside."""
    p = v.v
    if p is UNKNOWN:
        return None
    if isinstance(p, list):
        keys = []
        for e in p:
            k = _identity_key(e)
            if k is None:
                return None
            keys.append(k)
        return (v.type, tuple(keys))
    if isinstance(p, dict):
        items = []
        for name, e in p.items():
            k = _identity_key(e)
            if k is None:
                return None
            items.append((name, k))
        return (v.type, tuple(items))
    return (v.type, type(p) is bool, p)


def _less(t: Type, a: Value, ha: str, b: Value, hb: str) -> bool:
    if ha == hb and _identity_key(a) == _identity_key(b) and _identity_key(a) is not None:
        return False
    if b.v is None and a.v is not None:
        return True
    if a.v is None:
        return False
    if a.v is not UNKNOWN and b.v is UNKNOWN:
        return True
    if a.v is UNKNOWN:
        return False
    if t == STRING:
        return bool(a.v.encode() < b.v.encode())
    if t == BOOL:
        return bool(b.v or not a.v)
    if t == NUMBER:
        return num_compare(a.v, b.v) < 0
    return ha.encode() < hb.encode()


def canonical_set_elements(items: list[Value]) -> list[Value]:
    """`items` deduplicated and ordered as a cty set holds them."""
    if not items:
        return []
    first_t = items[0].type
    if first_t == STRING and all(e.v.__class__ is str and not e.marks for e in items):
        return [Value(STRING, s) for s in sorted({e.v for e in items}, key=str.encode)]
    buckets: dict[int, list[tuple[Value, str]]] = {}
    for e in items:
        h = set_hash_string(e)
        bucket = buckets.setdefault(zlib.crc32(h.encode()), [])
        key = _identity_key(e)
        if key is not None and any(h2 == h and _identity_key(o) == key for o, h2 in bucket):
            continue
        bucket.append((e, h))
    ordered = [pair for bid in sorted(buckets) for pair in buckets[bid]]
    t = first_t

    def cmp(x: tuple[Value, str], y: tuple[Value, str]) -> int:
        if _less(t, x[0], x[1], y[0], y[1]):
            return -1
        if _less(t, y[0], y[1], x[0], x[1]):
            return 1
        return 0

    ordered.sort(key=functools.cmp_to_key(cmp))
    return [e for e, _ in ordered]



def length_is_known(v: Value) -> bool:
    """Whether cty knows the length of known collection `v`: a set holding unknown values
    (anywhere inside) and more than one element may shrink once they are known, so its length
    is unknown; any other known collection's length is known."""
    if not isinstance(v.type, SetType):
        return True
    return len(v.v) <= 1 or v.is_wholly_known()


def set_value(t: SetType, items: list[Value], marks: frozenset[str] = NO_MARKS) -> Value:
    """A set of type `t` holding `items` (already of its element type), as cty.SetVal builds
    one: marks anywhere inside the elements are removed from them and put, with `marks`, on
    the set; elements deduplicated and in canonical order."""
    hoisted = set(marks)
    plain: list[Value] = []
    for e in items:
        u, m = e.unmark_deep()
        if m:
            hoisted |= m
        plain.append(u)
    return Value(t, canonical_set_elements(plain), frozenset(hoisted))


def set_(elems: Iterable[Value], element_type: Type | None = None) -> Value:
    """A set: duplicates removed and elements put in cty's canonical order; marks inside the
    elements are moved to the set (see `set_value`)."""
    items = list(elems)
    if element_type is None:
        if not items:
            raise ValueError("empty set needs an element type")
        element_type = items[0].type
    return set_value(SetType(element_type), items)
