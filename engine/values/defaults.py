"""Optional-attribute defaults of object type constraints, applied as HCL's
typeexpr.Defaults.Apply does before a value is converted to its constraint.

Defaults live on `ObjectType.defaults` (attribute name -> Value); nested defaults are found by
walking the constraint type. Null and unknown values are left alone (their children are not);
an absent or null attribute with a default gets the default (itself defaulted recursively).
"""

from __future__ import annotations

from engine.values.types import ListType, MapType, ObjectType, SetType, TupleType, Type
from engine.values.value import UNKNOWN, Value


def has_defaults(t: Type) -> bool:
    """Whether any object type within `t` carries default values."""
    if isinstance(t, ObjectType):
        return bool(t.defaults) or any(has_defaults(a) for a in t.attrs.values())
    if isinstance(t, (ListType, SetType, MapType)):
        return has_defaults(t.element)
    if isinstance(t, TupleType):
        return any(has_defaults(e) for e in t.elements)
    return False


def _child(t: Type, key: str | int) -> Type | None:
    if isinstance(t, (ListType, SetType, MapType)):
        return t.element if has_defaults(t.element) else None
    if isinstance(t, TupleType):
        if isinstance(key, int) and key < len(t.elements) and has_defaults(t.elements[key]):
            return t.elements[key]
        return None
    if isinstance(t, ObjectType) and isinstance(key, str):
        a = t.attrs.get(key)
        return a if a is not None and has_defaults(a) else None
    return None


def apply_defaults(v: Value, t: Type) -> Value:
    """`v` with the defaults of constraint `t` filled in; the result may still need converting."""
    from engine.values.unify import unify_values

    if v.v is UNKNOWN or v.v is None or not has_defaults(t):
        return v
    plain, marks = v.unmark()
    payload = plain.v
    if isinstance(payload, list):
        items = []
        for i, e in enumerate(payload):
            ct = _child(t, i)
            items.append(apply_defaults(e, ct) if ct is not None else e)
        vt = plain.type
        out: Value | None = None
        if isinstance(vt, (SetType, ListType)):
            if not items:
                out = plain
            else:
                unified = unify_values(items)
                if unified is not None:
                    from engine.values.sets import set_
                    from engine.values.value import list_

                    out = set_(unified) if isinstance(vt, SetType) else list_(unified)
        if out is None:
            out = Value(TupleType(e.type for e in items), items)
        return out.with_marks(marks)
    if isinstance(payload, dict):
        values: dict[str, Value] = {}
        for k, e in payload.items():
            ct = _child(t, k)
            values[k] = apply_defaults(e, ct) if ct is not None else e
        if isinstance(t, ObjectType):
            for name, dv in t.defaults.items():
                cur = values.get(name)
                if cur is None or cur.v is None:
                    ct = _child(t, name)
                    values[name] = apply_defaults(dv, ct) if ct is not None else dv
        result: Value | None = None
        if isinstance(plain.type, MapType):
            if not values:
                result = plain
            else:
                keys = sorted(values)
                unified_m = unify_values([values[k] for k in keys])
                if unified_m is not None:
                    result = Value(MapType(unified_m[0].type), dict(zip(keys, unified_m)))
        if result is None:
            values = dict(sorted(values.items()))
            result = Value(ObjectType({k: e.type for k, e in values.items()}), values)
        return result.with_marks(marks)
    return v
