"""Set functions: setintersection, setproduct, setsubtract, setunion.

The set operations unify their arguments' element types (ignoring empty sets of unknown element
type) and convert every argument to the resulting set type first, as cty does. `setproduct`
gives a list of tuples when every argument is a list or tuple, else a set of tuples.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product

from engine.lang.functions.base import Function, FunctionError, Param
from engine.lang.functions.collections_common import (
    convert_or_fail,
    elements,
    make_list,
    make_set,
    value_equals,
)
from engine.values import DYNAMIC, ListType, SetType, TupleType, Type, Value, tuple_, unknown
from engine.values.sets import length_is_known
from engine.values.unify import unify_unsafe


def _set_op_type(args: Sequence[Value]) -> Type:
    etys: list[Type] = []
    for a in args:
        assert isinstance(a.type, SetType)
        ety = a.type.element
        if a.is_known and not a.v and ety == DYNAMIC:
            continue
        etys.append(ety)
    if not etys:
        return SetType(DYNAMIC)
    common = unify_unsafe(etys)
    if common is None:
        raise FunctionError("given sets must all have compatible element types")
    return SetType(common)


def _member(x: Value, items: list[Value]) -> bool:
    return any(value_equals(x, y) for y in items)


SetOp = Callable[[list[Value], list[Value]], list[Value]]


def _set_op_impl(op: SetOp, allow_unknowns: bool) -> Callable[[Sequence[Value], Type], Value]:
    """The implementation of a set operation. Only a union is correct while elements are
    unknown (they stay distinct elements); the others are unknown until every element is known.
    """

    def impl(args: Sequence[Value], ret: Type) -> Value:
        assert isinstance(ret, SetType)
        sets = [convert_or_fail(a, ret, i) for i, a in enumerate(args)]
        if not allow_unknowns and any(not s.is_wholly_known() for s in sets):
            return unknown(ret)
        acc = list(sets[0].v)
        for s in sets[1:]:
            acc = op(acc, list(s.v))
        return make_set(acc, ret.element)

    return impl


def _union(a: list[Value], b: list[Value]) -> list[Value]:
    return a + [y for y in b if not _member(y, a)]


def _intersection(a: list[Value], b: list[Value]) -> list[Value]:
    return [x for x in a if _member(x, b)]


def _subtract(a: list[Value], b: list[Value]) -> list[Value]:
    return [x for x in a if not _member(x, b)]


def _setproduct_type(args: Sequence[Value]) -> Type:
    if len(args) < 2:
        raise FunctionError("at least two arguments are required")
    list_count = 0
    etys: list[Type] = []
    for i, a in enumerate(args):
        t = a.type
        if isinstance(t, SetType):
            etys.append(t.element)
        elif isinstance(t, ListType):
            etys.append(t.element)
            list_count += 1
        elif isinstance(t, TupleType):
            if not t.elements:
                etys.append(DYNAMIC)
                list_count += 1
                continue
            common = unify_unsafe(list(t.elements))
            if common is None:
                raise FunctionError("all elements must be of the same type", i)
            etys.append(common)
            list_count += 1
        else:
            raise FunctionError("a set or a list is required", i)
    if list_count == len(args):
        return ListType(TupleType(etys))
    return SetType(TupleType(etys))


def _setproduct(args: Sequence[Value], ret: Type) -> Value:
    assert isinstance(ret, (ListType, SetType))
    ety = ret.element
    assert isinstance(ety, TupleType)
    if any(not a.is_known or not length_is_known(a) for a in args):
        return unknown(ret)
    columns = [
        [convert_or_fail(e, ety.elements[j]) for e in elements(a)] for j, a in enumerate(args)
    ]
    rows = [tuple_(combo) for combo in product(*columns)]
    rows = [Value(ety, r.v) for r in rows]
    if isinstance(ret, ListType):
        return make_list(rows, ety)
    return make_set(rows, ety)


_ANY_SET = SetType(DYNAMIC)

FUNCTIONS: list[Function] = [
    Function("setunion", (Param("first_set", _ANY_SET, allow_dynamic=True),),
             _set_op_impl(_union, True), _set_op_type,
             var_param=Param("other_sets", _ANY_SET, allow_dynamic=True),
             description="The union of the given sets."),
    Function("setintersection", (Param("first_set", _ANY_SET, allow_dynamic=True),),
             _set_op_impl(_intersection, False), _set_op_type,
             var_param=Param("other_sets", _ANY_SET, allow_dynamic=True),
             description="The elements present in all of the given sets."),
    Function("setsubtract", (Param("a", _ANY_SET, allow_dynamic=True),
                             Param("b", _ANY_SET, allow_dynamic=True)),
             _set_op_impl(_subtract, False), _set_op_type,
             description="The elements of the first set that are not in the second."),
    Function("setproduct", (), _setproduct, _setproduct_type,
             var_param=Param("sets", DYNAMIC, keep_nested_marks=True),
             description="The Cartesian product of the given sets or lists."),
]
