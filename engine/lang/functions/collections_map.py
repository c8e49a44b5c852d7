"""Map and object functions: coalesce, keys, lookup, matchkeys, merge, transpose, values,
zipmap. Object inputs give structural (object/tuple) results, map inputs give collections, as
in cty; `lookup` keeps the marks of the map and key on its result. Marks follow cty: `keys`,
`values` and zipmap's values keep the marks of the elements on the elements (only the
argument's own marks go on the whole result), `merge` keeps each attribute's marks, the rest
mark the whole result with every mark inside their arguments."""

from __future__ import annotations

from collections.abc import Sequence

from engine.lang.functions.base import Function, FunctionError, Param, static_return
from engine.lang.functions.collections_common import (
    convert_or_fail,
    make_list,
    make_map,
    value_equals,
)
from engine.values import (
    DYNAMIC,
    EMPTY_OBJECT,
    STRING,
    ListType,
    MapType,
    ObjectType,
    TupleType,
    Type,
    Value,
    null,
    object_,
    string,
    tuple_,
    unknown,
)
from engine.values.unify import unify_unsafe


# ------------------------------------------------------------------------------ coalesce
def _coalesce_type(args: Sequence[Value]) -> Type:
    ret = unify_unsafe([a.type for a in args])
    if ret is None:
        raise FunctionError("all arguments must have the same type")
    return ret


def _coalesce(args: Sequence[Value], ret: Type) -> Value:
    for a in args:
        v = convert_or_fail(a, ret)
        if not v.is_known:
            return unknown(ret)
        if v.v is None:
            continue
        if ret == STRING and v.v == "":
            continue
        return v
    raise FunctionError("no non-null, non-empty-string arguments")


# ------------------------------------------------------------------------------ keys/values
def _keys_type(args: Sequence[Value]) -> Type:
    t = args[0].type
    if isinstance(t, MapType):
        return ListType(STRING)
    if isinstance(t, ObjectType):
        return TupleType([STRING] * len(t.attrs))
    raise FunctionError("must have map or object type", 0)


def _keys(args: Sequence[Value], ret: Type) -> Value:
    m = args[0]
    if isinstance(m.type, ObjectType):
        return tuple_(string(k) for k in sorted(m.type.attrs))
    if not m.is_known:
        return unknown(ret)
    return make_list([string(k) for k in sorted(m.v)], STRING)


def _values_type(args: Sequence[Value]) -> Type:
    t = args[0].type
    if isinstance(t, MapType):
        return ListType(t.element)
    if isinstance(t, ObjectType):
        return TupleType(t.attrs[k] for k in sorted(t.attrs))
    raise FunctionError("values() requires a map as the first argument")


def _values(args: Sequence[Value], ret: Type) -> Value:
    d = args[0].v
    return Value(ret, [d[k] for k in sorted(d)])


# ------------------------------------------------------------------------------ lookup
def _lookup_type(args: Sequence[Value]) -> Type:
    if len(args) < 1 or len(args) > 3:
        raise FunctionError(f"lookup() takes two or three arguments, got {len(args)}")
    t = args[0].type
    if isinstance(t, ObjectType):
        if not args[1].is_known:
            return DYNAMIC
        key = args[1].v
        if key in t.attrs:
            return t.attrs[key]
        if len(args) == 3:
            return args[2].type
        raise FunctionError(f'the given object has no attribute "{key}"', 0)
    if isinstance(t, MapType):
        if len(args) == 3:
            from engine.values.convert import ConversionError, convert

            try:
                convert(args[2].unmark()[0], t.element)
            except ConversionError:
                raise FunctionError(
                    "the default value must have the same type as the map elements", 2
                ) from None
        return t.element
    raise FunctionError("lookup() requires a map as the first argument", 0)


def _lookup(args: Sequence[Value], ret: Type) -> Value:
    coll, map_marks = args[0].unmark()
    key, key_marks = args[1].unmark()
    marks = map_marks | key_marks
    if not coll.is_known or not key.is_known:
        return unknown(ret).with_marks(marks)
    k = key.v
    if coll.v is not None and k in coll.v:
        return coll.v[k].with_marks(marks)
    if len(args) == 3:
        default = convert_or_fail(args[2], ret)
        return default.with_marks(marks)
    shown = "(sensitive value)" if "sensitive" in key_marks else k
    raise FunctionError(f"lookup failed to find key {shown}")


# ------------------------------------------------------------------------------ matchkeys
def _matchkeys_type(args: Sequence[Value]) -> Type:
    if unify_unsafe([args[1].type, args[2].type]) is None:
        raise FunctionError("keys and searchset must be of the same type")
    return args[0].type


def _matchkeys(args: Sequence[Value], ret: Type) -> Value:
    assert isinstance(ret, ListType)
    values, keys, search = args
    if len(values.v) != len(keys.v):
        raise FunctionError("length of keys and values should be equal")
    common = unify_unsafe([keys.type, search.type])
    assert common is not None
    keys = convert_or_fail(keys, common)
    search = convert_or_fail(search, common)
    if not search.v:
        return make_list([], ret.element)
    if not values.is_wholly_known() or not keys.is_wholly_known():
        return unknown(ret)
    out: list[Value] = []
    for i, k in enumerate(keys.v):
        for s in search.v:
            eq = value_equals(k, s)
            if eq is None:
                return make_list([], ret.element)
            if eq:
                out.append(values.v[i])
                break
    return make_list(out, ret.element)


# ------------------------------------------------------------------------------ merge
def _merge_type(args: Sequence[Value]) -> Type:
    if not args:
        return EMPTY_OBJECT
    attrs: dict[str, Type] = {}
    first: Type | None = None
    matching = True
    attrs_known = True
    for i, a in enumerate(args):
        t = a.type
        if t == DYNAMIC:
            return DYNAMIC
        if not isinstance(t, (MapType, ObjectType)):
            raise FunctionError(f'arguments must be maps or objects, got "{t.friendly_name()}"')
        if isinstance(t, ObjectType) and a.v is not None:
            attrs.update(t.attrs)
        elif isinstance(t, MapType):
            if a.v is None:
                pass
            elif a.is_known:
                for k in a.v:
                    attrs[k] = t.element
            else:
                attrs_known = False
        if i == 0:
            first = t
            continue
        if t != first:
            matching = False
    if matching:
        assert first is not None
        return first
    if not attrs_known:
        return DYNAMIC
    return ObjectType(attrs)


def _merge(args: Sequence[Value], ret: Type) -> Value:
    out: dict[str, Value] = {}
    marks: set[str] = set()
    all_null = True
    for a in args:
        a, m = a.unmark()
        marks |= m
        if a.v is None:
            continue
        all_null = False
        if not a.is_known:
            return unknown(ret).with_marks(frozenset(marks))
        out.update(a.v)
    result: Value
    if all_null and args:
        result = null(ret)
    elif isinstance(ret, MapType):
        result = make_map(out, ret.element)
    else:
        result = object_(out)
    return result.with_marks(frozenset(marks))


# ------------------------------------------------------------------------------ transpose
def _transpose(args: Sequence[Value], ret: Type) -> Value:
    m = args[0]
    if not m.is_wholly_known():
        return unknown(ret)
    tmp: dict[str, list[str]] = {}
    for in_key in sorted(m.v):
        for el in m.v[in_key].v:
            if el.v is None:
                raise FunctionError("input must be a map of lists of strings")
            tmp.setdefault(el.v, []).append(in_key)
    out = {k: make_list([string(s) for s in sorted(v)], STRING) for k, v in tmp.items()}
    return make_map(out, ListType(STRING))


# ------------------------------------------------------------------------------ zipmap
def _zipmap_type(args: Sequence[Value]) -> Type:
    keys, values = args
    vt = values.type
    if isinstance(vt, ListType):
        return MapType(vt.element)
    if isinstance(vt, TupleType):
        if not keys.is_wholly_known():
            return DYNAMIC
        if len(keys.v) != len(vt.elements):
            raise FunctionError(
                f"number of keys ({len(keys.v)}) does not match number of values "
                f"({len(vt.elements)})"
            )
        attrs: dict[str, Type] = {}
        for i, k in enumerate(keys.v):
            if k.v is None:
                raise FunctionError(f"keys list has null value at index {i}")
            attrs[k.v] = vt.elements[i]
        return ObjectType(attrs)
    raise FunctionError("values argument must be a list or tuple value")


def _zipmap(args: Sequence[Value], ret: Type) -> Value:
    keys, values = args
    if not keys.is_wholly_known() or ret == DYNAMIC:
        return unknown(ret)
    if len(keys.v) != len(values.v):
        raise FunctionError(
            f"number of keys ({len(keys.v)}) does not match number of values ({len(values.v)})"
        )
    out: dict[str, Value] = {}
    for k, v in zip(keys.v, values.v):
        out[k.v] = v
    if isinstance(ret, MapType):
        return make_map(out, ret.element)
    return object_(out)


_LIST_DYN = ListType(DYNAMIC)

FUNCTIONS: list[Function] = [
    Function("coalesce", (), _coalesce, _coalesce_type,
             var_param=Param("vals", DYNAMIC, allow_unknown=True, allow_dynamic=True,
                             allow_null=True),
             description="The first argument that is not null or an empty string."),
    Function("keys", (Param("inputMap", DYNAMIC, allow_unknown=True, keep_nested_marks=True),),
             _keys, _keys_type,
             description="The keys of a map or object, sorted."),
    Function("values", (Param("values", DYNAMIC, keep_nested_marks=True),), _values,
             _values_type,
             description="The values of a map or object, in key order."),
    Function("lookup", (Param("inputMap", DYNAMIC, allow_marked=True, allow_unknown=True),
                        Param("key", STRING, allow_marked=True, allow_unknown=True)),
             _lookup, _lookup_type,
             var_param=Param("default", DYNAMIC, allow_unknown=True, allow_dynamic=True,
                             allow_null=True, allow_marked=True),
             description="The value of a map element or object attribute, or a default."),
    Function("matchkeys", (Param("values", _LIST_DYN), Param("keys", _LIST_DYN),
                           Param("searchset", _LIST_DYN)), _matchkeys, _matchkeys_type,
             description="Elements of values whose corresponding keys are in searchset."),
    Function("merge", (), _merge, _merge_type,
             var_param=Param("maps", DYNAMIC, allow_dynamic=True, allow_null=True,
                             allow_marked=True),
             description="Merges maps or objects; later arguments take precedence."),
    Function("transpose", (Param("values", MapType(ListType(STRING))),), _transpose,
             static_return(MapType(ListType(STRING))),
             description="Swaps the keys and values of a map of lists of strings."),
    Function("zipmap", (Param("keys", ListType(STRING)),
                        Param("values", DYNAMIC, keep_nested_marks=True)), _zipmap,
             _zipmap_type, description="Builds a map or object from lists of keys and values."),
]
