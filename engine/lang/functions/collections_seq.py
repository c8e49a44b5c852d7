"""Sequence functions: alltrue, anytrue, chunklist, coalescelist, compact, concat, contains,
distinct, element, flatten, index, length, one, range, reverse, slice, sort, sum.

Result types follow cty/Terraform exactly: functions that accept tuples keep tuple results
(`concat`, `flatten`, `reverse`, `slice`), list parameters give lists.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.lang.functions.base import Function, FunctionError, Param, static_return
from engine.lang.functions.collections_common import (
    convert_or_fail,
    elements,
    is_sequence_type,
    make_list,
    value_equals,
)
from engine.lang.functions.numeric import whole_int
from engine.source.graphemes import grapheme_count
from engine.values import (
    BOOL,
    DYNAMIC,
    FALSE,
    NUMBER,
    STRING,
    TRUE,
    UNKNOWN,
    ListType,
    MapType,
    ObjectType,
    SetType,
    TupleType,
    Type,
    Value,
    null,
    number,
    numbers,
    tuple_,
    unknown,
)
from engine.values.refinement import refine, value_range
from engine.values.sets import length_is_known
from engine.values.unify import unify_unsafe


# ------------------------------------------------------------------------------ length
def _length_type(args: Sequence[Value]) -> Type:
    t = args[0].type
    if t in (STRING, DYNAMIC) or isinstance(t, (TupleType, ObjectType, ListType, MapType, SetType)):
        return NUMBER
    raise FunctionError("argument must be a string, a collection type, or a structural type")


def _length(args: Sequence[Value], ret: Type) -> Value:
    coll, marks = args[0].unmark()
    t = coll.type
    if t == DYNAMIC:
        return unknown(NUMBER).with_marks(marks)
    if isinstance(t, TupleType):
        return number(len(t.elements)).with_marks(marks)
    if isinstance(t, ObjectType):
        return number(len(t.attrs)).with_marks(marks)
    if not coll.is_known:
        return _unknown_length(coll).with_marks(marks)
    if not length_is_known(coll):
        # cty: a set's unknown elements may coalesce, with one another or with the others,
        # so it has between one element and as many as it holds now
        b = refine(unknown(NUMBER)).not_null().number_range_inclusive(1, len(coll.v))
        return b.new_value().with_marks(marks)
    if t == STRING:
        return number(grapheme_count(coll.v)).with_marks(marks)
    return number(len(coll.v)).with_marks(marks)


def _unknown_length(coll: Value) -> Value:
    """The length of an unknown string or collection, bounded by what its refinements tell
    (cty's Strlen: at least the grapheme clusters of the known prefix; Value.Length: the
    length bounds, inclusive, the upper one math.MaxInt when unbounded)."""
    rng = value_range(coll)
    b = refine(unknown(NUMBER)).not_null()
    if coll.type == STRING:
        return b.number_lower_bound(grapheme_count(rng.string_prefix()), True).new_value()
    return b.number_range_inclusive(rng.length_lower_bound(), rng.length_upper_bound()
                                    ).new_value()


# ------------------------------------------------------------------------------ alltrue/anytrue
def _alltrue(args: Sequence[Value], ret: Type) -> Value:
    for el in args[0].v:
        if not el.is_known:
            return unknown(BOOL)
        if el.v is None or el.v is False:
            return FALSE
    return TRUE


def _anytrue(args: Sequence[Value], ret: Type) -> Value:
    has_unknown = False
    for el in args[0].v:
        if not el.is_known:
            has_unknown = True
            continue
        if el.v is True:
            return TRUE
    return unknown(BOOL) if has_unknown else FALSE


# ------------------------------------------------------------------------------ chunklist
def _chunklist_type(args: Sequence[Value]) -> Type:
    return ListType(args[0].type)


def _chunklist(args: Sequence[Value], ret: Type) -> Value:
    lst = args[0]
    if not lst.v:
        return Value(ret, [])
    size = whole_int(args[1], None, "invalid index: ")
    if size < 0:
        raise FunctionError("the size argument must be positive")
    items = lst.v
    if size == 0:
        return Value(ret, [lst])
    chunks = [Value(lst.type, items[i : i + size]) for i in range(0, len(items), size)]
    return Value(ret, chunks)


# ------------------------------------------------------------------------------ coalescelist
def _coalescelist_type(args: Sequence[Value]) -> Type:
    if not args:
        raise FunctionError("at least one argument is required")
    types: list[Type] = []
    for a in args:
        if not a.is_known:
            return DYNAMIC
        if not isinstance(a.type, (ListType, TupleType)):
            raise FunctionError("coalescelist arguments must be lists or tuples")
        types.append(a.type)
    if any(t != types[0] for t in types[1:]):
        return DYNAMIC
    return types[0]


def _coalescelist(args: Sequence[Value], ret: Type) -> Value:
    for a in args:
        if not a.is_known:
            return unknown(ret)
        if a.v is not None and len(a.v) > 0:
            return a
    raise FunctionError("no non-null arguments")


# ------------------------------------------------------------------------------ compact
def _compact(args: Sequence[Value], ret: Type) -> Value:
    lst = args[0]
    if not lst.is_wholly_known():
        return unknown(ret)
    out = [e for e in lst.v if e.v is not None and e.v != ""]
    return make_list(out, STRING)


# ------------------------------------------------------------------------------ concat
def _concat_type(args: Sequence[Value]) -> Type:
    if not args:
        raise FunctionError("at least one argument is required")
    if isinstance(args[0].type, ListType) and all(isinstance(a.type, ListType) for a in args):
        common = unify_unsafe([a.type for a in args])
        if common is not None:
            return common
    etys: list[Type] = []
    for i, a in enumerate(args):
        t = a.type
        if isinstance(t, TupleType):
            etys.extend(t.elements)
        elif isinstance(t, ListType):
            if not a.is_known:
                return DYNAMIC
            etys.extend([t.element] * len(a.v))
        else:
            raise FunctionError(
                f"all arguments must be lists or tuples; got {t.friendly_name()}", i
            )
    return TupleType(etys)


def _concat(args: Sequence[Value], ret: Type) -> Value:
    if ret == DYNAMIC:
        return unknown(DYNAMIC)
    vals: list[Value] = []
    marks: set[str] = set()
    if isinstance(ret, ListType):
        for i, a in enumerate(args):
            conv = convert_or_fail(a, ret, i)
            conv, m = conv.unmark()
            marks |= m
            vals.extend(conv.v)
        return Value(ret, vals).with_marks(frozenset(marks))
    for a in args:
        seq, m = a.unmark()
        marks |= m
        vals.extend(seq.v)
    return tuple_(vals).with_marks(frozenset(marks))


# ------------------------------------------------------------------------------ contains/index
def _contains(args: Sequence[Value], ret: Type) -> Value:
    lst, val = args[0], args[1]
    if not is_sequence_type(lst.type):
        raise FunctionError("argument must be list, tuple, or set")
    if not lst.v:
        return FALSE
    if not val.is_known:
        return unknown(BOOL)
    has_unknown = False
    for el in elements(lst):
        eq = value_equals(val, el)
        if eq is None:
            has_unknown = True
        elif eq:
            return TRUE
    return unknown(BOOL) if has_unknown else FALSE


def _index(args: Sequence[Value], ret: Type) -> Value:
    lst, val = args[0], args[1]
    if not isinstance(lst.type, (ListType, TupleType)):
        raise FunctionError("argument must be a list or tuple")
    if not lst.v:
        raise FunctionError("cannot search an empty list")
    for i, el in enumerate(lst.v):
        eq = value_equals(el, val)
        if eq is None:
            return unknown(NUMBER)
        if eq:
            return number(i)
    raise FunctionError("item not found")


# ------------------------------------------------------------------------------ distinct
def _distinct(args: Sequence[Value], ret: Type) -> Value:
    lst = args[0]
    if not lst.is_wholly_known():
        return unknown(ret)
    out: list[Value] = []
    for el in lst.v:
        if not any(value_equals(el, o) for o in out):
            out.append(el)
    return Value(ret, out)


# ------------------------------------------------------------------------------ element
def _element_type(args: Sequence[Value]) -> Type:
    t = args[0].type
    if isinstance(t, ListType):
        return t.element
    if isinstance(t, TupleType):
        if not args[1].is_known:
            return DYNAMIC
        idx = whole_int(args[1], None, "invalid index: ")
        if not t.elements:
            raise FunctionError("cannot use element function with an empty list")
        if idx < 0:
            raise FunctionError(
                f"panic in function implementation: runtime error: index out of range [{_go_rem(idx, len(t.elements))}]"
            )
        return t.elements[idx % len(t.elements)]
    raise FunctionError(f"cannot read elements from {t.friendly_name()}")


def _go_rem(a: int, b: int) -> int:
    """Go's `%`: the remainder has the sign of the dividend."""
    r = abs(a) % b
    return -r if a < 0 else r


def _element(args: Sequence[Value], ret: Type) -> Value:
    idx = whole_int(args[1], None, "invalid index: ")
    lst, marks = args[0].unmark()
    if not lst.is_known:
        return unknown(ret).with_marks(marks)
    n = len(lst.v)
    if n == 0:
        raise FunctionError("cannot use element function with an empty list")
    i = _go_rem(idx, n)
    if i < 0:
        i += n
    return lst.v[i].with_marks(marks)


# ------------------------------------------------------------------------------ flatten
def _flattener(val: Value) -> tuple[list[Value] | None, frozenset[str]]:
    """The flattened elements of `val` (None when a nested sequence is unknown) and the marks
    of the nested sequences it opened, which go on the whole result (cty's flattener)."""
    out: list[Value] = []
    marks: set[str] = set()
    if not length_is_known(val):
        return None, frozenset()
    known = True
    for el in elements(val):
        if el.type == DYNAMIC and not el.is_known:
            known = False  # it may stand for another sequence to flatten
        if el.v is not None and is_sequence_type(el.type):
            el, m = el.unmark()
            marks |= m
            if not el.is_known:
                known = False
                continue
            sub, sub_marks = _flattener(el)
            marks |= sub_marks
            if sub is None:
                known = False
            else:
                out.extend(sub)
        else:
            out.append(el)
    return (out if known else None), frozenset(marks)


def _flatten_type(args: Sequence[Value]) -> Type:
    val = args[0]
    if not val.is_known:
        return DYNAMIC
    if not is_sequence_type(val.type):
        raise FunctionError("can only flatten lists, sets and tuples")
    flat, _ = _flattener(val)
    if flat is None:
        return DYNAMIC
    return TupleType(e.type for e in flat)


def _flatten(args: Sequence[Value], ret: Type) -> Value:
    flat, marks = _flattener(args[0]) if args[0].is_known else (None, frozenset[str]())
    if ret == DYNAMIC or flat is None:
        return unknown(ret).with_marks(marks)
    return tuple_(flat).with_marks(marks)


# ------------------------------------------------------------------------------ one
_ONE_MSG = "must be a list, set, or tuple value with either zero or one elements"


def _one_type(args: Sequence[Value]) -> Type:
    t = args[0].type
    if isinstance(t, (ListType, SetType)):
        return t.element
    if isinstance(t, TupleType):
        if len(t.elements) == 0:
            return DYNAMIC
        if len(t.elements) == 1:
            return t.elements[0]
    raise FunctionError(_ONE_MSG, 0)


def _one(args: Sequence[Value], ret: Type) -> Value:
    items = elements(args[0])
    if len(items) == 0:
        return null(ret)
    if len(items) == 1:
        return items[0]
    raise FunctionError(_ONE_MSG, 0)


# ------------------------------------------------------------------------------ range
def _range(args: Sequence[Value], ret: Type) -> Value:
    vals = [a.v for a in args]
    if len(vals) == 1:
        start, end = 0, vals[0]
        step: numbers.Num = -1 if numbers.less(end, 0) else 1
    elif len(vals) == 2:
        start, end = vals
        step = -1 if numbers.less(end, start) else 1
    elif len(vals) == 3:
        start, end, step = vals
    else:
        raise FunctionError("must have one, two, or three arguments")
    if step == 0:
        raise FunctionError("step must not be zero", 2)
    down = numbers.less(step, 0)
    if down and numbers.less(start, end):
        raise FunctionError("end must be less than start when step is negative", 1)
    if not down and numbers.less(end, start):
        raise FunctionError("end must be greater than start when step is positive", 1)
    out: list[Value] = []
    num: numbers.Num = start
    while True:
        if down and numbers.compare(num, end) <= 0:
            break
        if not down and numbers.compare(num, end) >= 0:
            break
        if len(out) >= 1024:
            raise FunctionError(
                "more than 1024 values were generated; either decrease the difference "
                "between start and end or use a smaller step"
            )
        out.append(Value(NUMBER, num))
        num = numbers.add(num, step)
    return make_list(out, NUMBER)


# ------------------------------------------------------------------------------ reverse
def _reverse_type(args: Sequence[Value]) -> Type:
    t = args[0].type
    if isinstance(t, TupleType):
        return TupleType(reversed(t.elements))
    if isinstance(t, (ListType, SetType)):
        return ListType(t.element)
    raise FunctionError(f"can only reverse list or tuple values, not {t.friendly_name()}", 0)


def _reverse(args: Sequence[Value], ret: Type) -> Value:
    return Value(ret, list(reversed(elements(args[0]))))


# ------------------------------------------------------------------------------ slice
def _slice_indexes(args: Sequence[Value]) -> tuple[int, int, bool]:
    lst = args[0]
    length: int | None = None
    if isinstance(lst.type, TupleType):
        length = len(lst.type.elements)
    elif lst.is_known:
        length = len(lst.v)
    start = end = 0
    start_known = end_known = False
    if args[1].is_known:
        start = whole_int(args[1], 1, "invalid start index: ")
        if start < 0:
            raise FunctionError("start index must not be less than zero", 1)
        if length is not None and start > length:
            raise FunctionError("start index must not be greater than the length of the list", 1)
        start_known = True
    if args[2].is_known:
        end = whole_int(args[2], 2, "invalid end index: ")
        if end < 0:
            raise FunctionError("end index must not be less than zero", 2)
        if length is not None and end > length:
            raise FunctionError("end index must not be greater than the length of the list", 2)
        end_known = True
    if start_known and end_known and start > end:
        raise FunctionError("start index must not be greater than end index", 1)
    return start, end, start_known and end_known


def _slice_type(args: Sequence[Value]) -> Type:
    t = args[0].type
    if isinstance(t, SetType):
        raise FunctionError(
            "cannot slice a set, because its elements do not have indices; explicitly "
            "convert to a list if the ordering of the result is not important",
            0,
        )
    if not isinstance(t, (ListType, TupleType)):
        raise FunctionError("must be a list or tuple value", 0)
    start, end, known = _slice_indexes(args)
    if isinstance(t, ListType):
        return t
    if not known:
        return DYNAMIC
    return TupleType(t.elements[start:end])


def _slice(args: Sequence[Value], ret: Type) -> Value:
    if ret == DYNAMIC:
        return unknown(DYNAMIC)
    start, end, _ = _slice_indexes(args)
    return Value(ret, list(args[0].v[start:end]))


# ------------------------------------------------------------------------------ sort
def _sort(args: Sequence[Value], ret: Type) -> Value:
    lst = args[0]
    if lst.v is UNKNOWN:
        # cty: the order is unknown, the length that of the list
        rng = value_range(lst)
        b = refine(unknown(ret)).length_lower_bound(rng.length_lower_bound())
        return b.length_upper_bound(rng.length_upper_bound()).new_value()
    if not lst.is_wholly_known():
        # The order is not known yet, but the length is (cty refines the unknown result to
        # the list's length, which makes it a list of that many unknown strings).
        return make_list([unknown(STRING) for _ in lst.v], STRING)
    for i, el in enumerate(lst.v):
        if el.v is None:
            raise FunctionError(f"given list element {i} is null; a null string cannot be sorted")
    items = sorted(lst.v, key=lambda e: e.v.encode("utf-8"))
    return make_list(items, STRING)


# ------------------------------------------------------------------------------ sum
_SUM_ELEMS = "argument must be list, set, or tuple of number values"


def _sum(args: Sequence[Value], ret: Type) -> Value:
    arg = args[0]
    t = arg.type
    if not isinstance(t, (ListType, SetType, TupleType, MapType, ObjectType)):
        raise FunctionError("cannot sum noniterable", 0)
    if not arg.v:
        raise FunctionError("cannot sum an empty list", 0)
    if not isinstance(t, (ListType, SetType, TupleType)):
        raise FunctionError(
            f"argument must be list, set, or tuple. Received {t.friendly_name()}", 0
        )
    if not arg.is_wholly_known():
        return unknown(NUMBER)
    total: numbers.Num | None = None
    for el in arg.v:
        if el.v is None:
            raise FunctionError(_SUM_ELEMS, 0)
        try:
            n = convert_or_fail(el, NUMBER).v
        except FunctionError:
            raise FunctionError(_SUM_ELEMS, 0) from None
        if total is None:
            total = n
            continue
        try:
            total = numbers.add(total, n)
        except numbers.NumberError:
            raise FunctionError("can't compute sum of opposing infinities") from None
    return Value(NUMBER, total)


def _fn(name: str, params: tuple[Param, ...], impl: object, ret: object, desc: str,
        var_param: Param | None = None) -> Function:
    return Function(
        name=name,
        params=params,
        var_param=var_param,
        impl=impl,  # type: ignore[arg-type]
        return_type=ret if callable(ret) and not isinstance(ret, Type) else static_return(ret),  # type: ignore[arg-type]
        description=desc,
    )


_LIST_DYN = ListType(DYNAMIC)

FUNCTIONS: list[Function] = [
    _fn("length", (Param("value", DYNAMIC, allow_dynamic=True, allow_unknown=True,
                         allow_marked=True),),
        _length, _length_type, "Length of a string, collection or structural value."),
    _fn("alltrue", (Param("list", ListType(BOOL)),), _alltrue, BOOL,
        "Whether all elements are true."),
    _fn("anytrue", (Param("list", ListType(BOOL)),), _anytrue, BOOL,
        "Whether any element is true."),
    _fn("chunklist", (Param("list", _LIST_DYN, keep_nested_marks=True), Param("size", NUMBER)),
        _chunklist,
        _chunklist_type, "Splits a list into fixed-size chunks."),
    _fn("coalescelist", (), _coalescelist, _coalescelist_type,
        "The first non-empty list or tuple argument.",
        Param("vals", DYNAMIC, allow_unknown=True, allow_dynamic=True, allow_null=True)),
    _fn("compact", (Param("list", ListType(STRING)),), _compact, ListType(STRING),
        "Removes null and empty string elements."),
    _fn("concat", (), _concat, _concat_type, "Concatenates lists and tuples.",
        Param("seqs", DYNAMIC, allow_marked=True)),
    _fn("contains", (Param("list", DYNAMIC), Param("value", DYNAMIC)), _contains, BOOL,
        "Whether a list, tuple or set contains a value."),
    _fn("index", (Param("list", DYNAMIC), Param("value", DYNAMIC)), _index, NUMBER,
        "The index of the first element equal to the value."),
    _fn("distinct", (Param("list", _LIST_DYN),), _distinct, lambda a: a[0].type,
        "Removes duplicate elements."),
    _fn("element", (Param("list", DYNAMIC, allow_marked=True), Param("index", NUMBER)),
        _element, _element_type, "The element at an index, wrapping around."),
    _fn("flatten", (Param("list", DYNAMIC, keep_nested_marks=True),), _flatten, _flatten_type,
        "Flattens nested lists, sets and tuples into one tuple."),
    _fn("one", (Param("list", DYNAMIC),), _one, _one_type,
        "The single element of a collection, or null when it is empty."),
    _fn("range", (), _range, ListType(NUMBER), "A list of numbers in a range.",
        Param("params", NUMBER)),
    _fn("reverse", (Param("list", DYNAMIC, keep_nested_marks=True),), _reverse, _reverse_type,
        "The elements in reverse order."),
    _fn("slice", (Param("list", DYNAMIC, keep_nested_marks=True), Param("start_index", NUMBER),
                  Param("end_index", NUMBER)), _slice, _slice_type,
        "Consecutive elements from a list or tuple."),
    _fn("sort", (Param("list", ListType(STRING), allow_unknown=True),), _sort, ListType(STRING),
        "Sorts strings lexicographically."),
    _fn("sum", (Param("list", DYNAMIC),), _sum, NUMBER, "The sum of a list of numbers."),
]


