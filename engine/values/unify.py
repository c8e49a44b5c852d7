"""Type unification with cty's rules (cty/convert/unify.go, sort_types.go, compare_types.go).

`unify(types)` finds one type every given type converts to (safe conversions only unless
`unsafe`), or None. HCL uses the unsafe variant for conditionals, and list/map construction
from tuples/objects uses it through `convert`. When a collection/structural kind meets DYNAMIC
the result is DYNAMIC and every value converts to an unknown of DYNAMIC, as in cty.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.values.types import (
    DYNAMIC,
    STRING,
    ListType,
    MapType,
    ObjectType,
    PrimitiveType,
    SetType,
    TupleType,
    Type,
)
from engine.values.value import UNKNOWN, Value

ValueConv = Callable[[Value], Value]
_Result = tuple[Type | None, list[ValueConv | None]]


def unify(types: Sequence[Type], unsafe: bool = False) -> Type | None:
    """The unified type of `types`, or None when there is none (cty convert.Unify)."""
    return _unify(list(types), unsafe)[0]


def unify_unsafe(types: Sequence[Type]) -> Type | None:
    """cty convert.UnifyUnsafe."""
    return _unify(list(types), True)[0]


def unify_with_conversions(
    types: Sequence[Type], unsafe: bool = True
) -> tuple[Type | None, list[ValueConv | None]]:
    """The unified type and, per input type, the conversion to apply (None: use as is)."""
    return _unify(list(types), unsafe)


def unify_values(values: Sequence[Value], unsafe: bool = True) -> list[Value] | None:
    """`values` converted to their unified type, or None when they do not unify or a
    conversion fails."""
    from engine.values.convert import ConversionError

    t, convs = _unify([v.type for v in values], unsafe)
    if t is None:
        return None
    out = []
    try:
        for v, c in zip(values, convs):
            out.append(v if c is None else c(v))
    except ConversionError:
        return None
    return out


def _conv_to(have: Type, want: Type, unsafe: bool) -> ValueConv | None:
    from engine.values.convert import get_conversion

    c = get_conversion(have, want, unsafe)
    if c is None:
        return None
    return lambda v: c(v, ())


def _to_dynamic(v: Value) -> Value:
    return Value(DYNAMIC, UNKNOWN)


def _all_dynamic(types: list[Type]) -> _Result:
    return DYNAMIC, [_to_dynamic for _ in types]


def _convs_to(types: list[Type], ret: Type, unsafe: bool) -> list[ValueConv | None] | None:
    convs: list[ValueConv | None] = []
    for t in types:
        if t == ret:
            convs.append(None)
            continue
        c = _conv_to(t, ret, unsafe)
        if c is None:
            return None
        convs.append(c)
    return convs


def _unify(types: list[Type], unsafe: bool) -> _Result:
    if not types:
        return None, []
    n = len(types)
    counts = {"map": 0, "list": 0, "set": 0, "object": 0, "tuple": 0, "dynamic": 0}
    for t in types:
        if isinstance(t, MapType):
            counts["map"] += 1
        elif isinstance(t, ListType):
            counts["list"] += 1
        elif isinstance(t, SetType):
            counts["set"] += 1
        elif isinstance(t, ObjectType):
            counts["object"] += 1
        elif isinstance(t, TupleType):
            counts["tuple"] += 1
        elif t == DYNAMIC:
            counts["dynamic"] += 1
    dyn = counts["dynamic"]
    if counts["map"] and counts["map"] + dyn == n:
        return _collections(MapType, types, unsafe, dyn > 0)
    if counts["map"] and counts["map"] + counts["object"] + dyn == n:
        r = _objects_as_maps(types, unsafe)
        if isinstance(r[0], MapType):
            return r
    elif counts["list"] and counts["list"] + dyn == n:
        return _collections(ListType, types, unsafe, dyn > 0)
    elif counts["list"] and counts["list"] + counts["tuple"] + dyn == n:
        r = _tuples_as_list(types, unsafe)
        if isinstance(r[0], ListType):
            return r
    elif counts["set"] and counts["set"] + dyn == n:
        return _collections(SetType, types, unsafe, dyn > 0)
    elif counts["object"] and counts["object"] + dyn == n:
        return _object_types(types, unsafe, dyn > 0)
    elif counts["tuple"] and counts["tuple"] + dyn == n:
        return _tuple_types(types, unsafe, dyn > 0)
    elif counts["object"] and counts["tuple"]:
        return None, []

    for want_idx in sort_types(types):
        want = types[want_idx]
        convs: list[ValueConv | None] = []
        ok = True
        for i, t in enumerate(types):
            if i == want_idx or t == want:
                convs.append(None)
                continue
            c = _conv_to(t, want, unsafe)
            if c is None:
                ok = False
                break
            convs.append(c)
        if ok:
            return want, convs
    return None, []


def _collections(cls: type, types: list[Type], unsafe: bool, has_dynamic: bool) -> _Result:
    if has_dynamic:
        return _all_dynamic(types)
    ety = _unify([t.element for t in types], unsafe)[0]  # type: ignore[attr-defined]
    if ety is None:
        return None, []
    ret: Type = cls(ety)
    convs = _convs_to(types, ret, unsafe)
    return (ret, convs) if convs is not None else (None, [])


def _object_types(types: list[Type], unsafe: bool, has_dynamic: bool) -> _Result:
    if has_dynamic:
        return _all_dynamic(types)
    objs = [t for t in types if isinstance(t, ObjectType)]
    first = objs[0].attrs
    for t in objs[1:]:
        if set(t.attrs) != set(first):
            return _objects_to_map(types, unsafe)
    attrs: dict[str, Type] = {}
    for name in first:
        u = _unify([t.attrs[name] for t in objs], unsafe)[0]
        if u is None:
            return None, []
        attrs[name] = u
    ret = ObjectType(attrs)
    convs = _convs_to(types, ret, unsafe)
    if convs is None:
        return _objects_to_map(types, unsafe)
    return ret, convs


def _objects_to_map(types: list[Type], unsafe: bool) -> _Result:
    atys = [a for t in types if isinstance(t, ObjectType) for a in t.attrs.values()]
    ety = _unify(atys, unsafe)[0]
    if ety is None:
        return None, []
    ret = MapType(ety)
    convs = _convs_to(types, ret, unsafe)
    return (ret, convs) if convs is not None else (None, [])


def _tuple_types(types: list[Type], unsafe: bool, has_dynamic: bool) -> _Result:
    if has_dynamic:
        return _all_dynamic(types)
    tups = [t for t in types if isinstance(t, TupleType)]
    length = len(tups[0].elements)
    if any(len(t.elements) != length for t in tups):
        return _tuples_to_list(types, unsafe)
    etys: list[Type] = []
    for i in range(length):
        u = _unify([t.elements[i] for t in tups], unsafe)[0]
        if u is None:
            return None, []
        etys.append(u)
    ret = TupleType(etys)
    convs = _convs_to(types, ret, unsafe)
    if convs is None:
        return _tuples_to_list(types, unsafe)
    return ret, convs


def _tuples_to_list(types: list[Type], unsafe: bool) -> _Result:
    etys = [e for t in types if isinstance(t, TupleType) for e in t.elements]
    ety = _unify(etys, unsafe)[0]
    if ety is None:
        return None, []
    ret = ListType(ety)
    convs = _convs_to(types, ret, unsafe)
    return (ret, convs) if convs is not None else (None, [])


def _objects_as_maps(types: list[Type], unsafe: bool) -> _Result:
    idxs = [i for i, t in enumerate(types) if isinstance(t, ObjectType)]
    mt, obj_convs = _objects_to_map([types[i] for i in idxs], unsafe)
    if not isinstance(mt, MapType):
        return None, []
    mapped = list(types)
    for i in idxs:
        mapped[i] = mt
    new_t, convs = _unify(mapped, unsafe)
    if not isinstance(new_t, MapType):
        return None, []
    return new_t, _chain(convs, idxs, obj_convs)


def _tuples_as_list(types: list[Type], unsafe: bool) -> _Result:
    idxs = [i for i, t in enumerate(types) if isinstance(t, TupleType)]
    lt, tup_convs = _tuples_to_list([types[i] for i in idxs], unsafe)
    if not isinstance(lt, ListType):
        return None, []
    listed = list(types)
    for i in idxs:
        listed[i] = lt
    new_t, convs = _unify(listed, unsafe)
    if not isinstance(new_t, ListType):
        return None, []
    return new_t, _chain(convs, idxs, tup_convs)


def _chain(
    convs: list[ValueConv | None], idxs: list[int], firsts: list[ValueConv | None]
) -> list[ValueConv | None]:
    out = list(convs)
    for j, i in enumerate(idxs):
        first, second = firsts[j], out[i]
        if second is None:
            out[i] = first
        elif first is not None:
            out[i] = (lambda f, s: lambda v: s(f(v)))(first, second)
    return out


# ------------------------------------------------------------------------------ preference
def compare_types(a: Type, b: Type) -> int:
    """cty's compareTypes: negative when `a` is the more general (preferred) type."""
    if a == DYNAMIC or b == DYNAMIC:
        if a != DYNAMIC:
            return -1
        if b != DYNAMIC:
            return 1
        return 0
    if isinstance(a, PrimitiveType) and isinstance(b, PrimitiveType) and STRING in (a, b):
        if a != STRING:
            return 1
        if b != STRING:
            return -1
        return 0
    for cls in (ListType, SetType, MapType):
        if isinstance(a, cls) and isinstance(b, cls):
            return compare_types(a.element, b.element)
    swap = 1
    if (
        (isinstance(a, TupleType) and isinstance(b, ListType))
        or (isinstance(a, ObjectType) and isinstance(b, MapType))
        or (isinstance(a, SetType) and isinstance(b, (TupleType, ListType)))
    ):
        a, b = b, a
        swap = -1
    if isinstance(b, SetType) and isinstance(a, (TupleType, ListType)):
        return -1 * swap
    if isinstance(a, ListType) and isinstance(b, TupleType):
        return -1 * swap
    if isinstance(a, MapType) and isinstance(b, ObjectType):
        return -1 * swap
    pairs: list[tuple[Type, Type]] | None = None
    if isinstance(a, ObjectType) and isinstance(b, ObjectType):
        if set(a.attrs) != set(b.attrs):
            return 0
        pairs = [(a.attrs[k], b.attrs[k]) for k in a.attrs]
    elif isinstance(a, TupleType) and isinstance(b, TupleType):
        if len(a.elements) != len(b.elements):
            return 0
        pairs = list(zip(a.elements, b.elements))
    if pairs is not None:
        a_super = b_super = False
        for x, y in pairs:
            c = compare_types(x, y)
            if c < 0:
                a_super = True
            elif c > 0:
                b_super = True
        if a_super and not b_super:
            return -1 * swap
        if b_super and not a_super:
            return 1 * swap
    return 0


def sort_types(types: Sequence[Type]) -> list[int]:
    """Indices of `types`, most general first (cty's topological sortTypes)."""
    n = len(types)
    edges: list[list[int]] = [[] for _ in range(n)]
    for i in range(n - 1):
        for j in range(i + 1, n):
            c = compare_types(types[i], types[j])
            if c < 0:
                edges[i].append(j)
            elif c > 0:
                edges[j].append(i)
    indeg = [0] * n
    for outs in edges:
        for j in outs:
            indeg[j] += 1
    queue = [i for i in range(n) if indeg[i] == 0]
    result: list[int] = []
    while queue:
        i = queue.pop(0)
        result.append(i)
        for j in edges[i]:
            indeg[j] -= 1
            if indeg[j] == 0:
                queue.append(j)
    return result
