"""Attribute access, indexing and traversals, as HCL's `hcl.GetAttr`, `hcl.Index` and
`Traversal.TraverseAbs/TraverseRel` define them (summaries and details verbatim).

Each step returns `(value, diagnostic_or_None)`; on error the value is DynamicVal. Marks on the
collection (and on an index key) carry over to the element selected; unknown collections or
keys give unknown results of the best type known.
"""

from __future__ import annotations

from fractions import Fraction

from engine.diags import Diagnostic, error
from engine.gocompat.levenshtein import name_suggestion
from engine.hcl.ast import Traversal, TraverseAttr, TraverseIndex, TraverseRoot
from engine.lang.context import EvalContext
from engine.lang.eval_values import ConversionFailed, convert
from engine.source import Range
from engine.values import (
    DYNAMIC,
    NUMBER,
    STRING,
    UNKNOWN,
    UNKNOWN_DYNAMIC,
    ListType,
    MapType,
    ObjectType,
    SetType,
    TupleType,
    Value,
)

_INVALID_INDEX = "Invalid index"
_NO_ELEMENT = "The given key does not identify an element in this collection value"
_UNSUPPORTED = "Unsupported attribute"


def _dyn(marks: frozenset[str]) -> Value:
    return Value(DYNAMIC, UNKNOWN, marks) if marks else UNKNOWN_DYNAMIC


def get_attr(obj: Value, name: str, rng: Range | None) -> tuple[Value, Diagnostic | None]:
    """`obj.name` (hcl.GetAttr)."""
    t = obj.type
    v = obj.v
    if v is None:
        return UNKNOWN_DYNAMIC, error(
            "Attempt to get attribute from null value",
            "This value is null, so it does not have any attributes.",
            rng,
        )
    if isinstance(t, ObjectType):
        if name not in t.attrs:
            return UNKNOWN_DYNAMIC, error(
                _UNSUPPORTED, f'This object does not have an attribute named "{name}".', rng
            )
        if v is UNKNOWN:
            return Value(t.attrs[name], UNKNOWN, obj.marks), None
        result: Value = v[name]
        return (result.with_marks(obj.marks) if obj.marks else result), None
    if isinstance(t, MapType):
        if v is UNKNOWN:
            return Value(t.element, UNKNOWN, obj.marks), None
        if name not in v:
            return UNKNOWN_DYNAMIC, error(
                "Missing map element", f'This map does not have an element with the key "{name}".', rng
            )
        result = v[name]
        return (result.with_marks(obj.marks) if obj.marks else result), None
    if t == DYNAMIC:
        return _dyn(obj.marks), None
    if isinstance(t, ListType) and isinstance(t.element, ObjectType):
        if name in t.element.attrs:
            detail = (
                "Can't access attributes on a list of objects. Did you mean to access attribute "
                f'"{name}" for a specific element of the list, or across all elements of the list?'
            )
        else:
            detail = (
                "Can't access attributes on a list of objects. Did you mean to access an "
                "attribute for a specific element of the list, or across all elements of the list?"
            )
        return UNKNOWN_DYNAMIC, error(_UNSUPPORTED, detail, rng)
    if isinstance(t, SetType) and isinstance(t.element, ObjectType):
        return UNKNOWN_DYNAMIC, error(
            _UNSUPPORTED,
            "Can't access attributes on a set of objects. Did you mean to access an attribute "
            "across all elements of the set?",
            rng,
        )
    if t.is_primitive:
        return UNKNOWN_DYNAMIC, error(
            _UNSUPPORTED,
            f"Can't access attributes on a primitive-typed value ({t.friendly_name()}).",
            rng,
        )
    return UNKNOWN_DYNAMIC, error(_UNSUPPORTED, "This value does not have any attributes.", rng)


def index(coll: Value, key: Value, rng: Range | None) -> tuple[Value, Diagnostic | None]:
    """`coll[key]` (hcl.Index)."""
    if coll.v is None:
        return UNKNOWN_DYNAMIC, error(
            "Attempt to index null value", "This value is null, so it does not have any indices.", rng
        )
    if key.v is None:
        return UNKNOWN_DYNAMIC, error(
            _INVALID_INDEX, "Can't use a null value as an indexing key.", rng
        )
    t = coll.type
    if key.type == DYNAMIC or t == DYNAMIC:
        return _dyn(coll.marks), None
    if isinstance(t, (ListType, TupleType, MapType)):
        want = STRING if isinstance(t, MapType) else NUMBER
        try:
            key = convert(key, want)
        except ConversionFailed as exc:
            return UNKNOWN_DYNAMIC, error(_INVALID_INDEX, f"{_NO_ELEMENT}: {exc.message}.", rng)
        marks = coll.marks | key.marks
        if coll.v is UNKNOWN or key.v is UNKNOWN:
            if isinstance(t, TupleType):
                return _dyn(coll.marks), None
            return Value(t.element, UNKNOWN, coll.marks), None
        k = key.v
        items = coll.v
        if isinstance(t, MapType):
            if k in items:
                found: Value = items[k]
                return (found.with_marks(marks) if marks else found), None
            return UNKNOWN_DYNAMIC, error(_INVALID_INDEX, _NO_ELEMENT + ".", rng)
        if isinstance(k, Fraction) and k.denominator != 1:
            return UNKNOWN_DYNAMIC, error(
                _INVALID_INDEX,
                f"{_NO_ELEMENT}: indexing a sequence requires a whole number, but the given "
                "index has a fractional part.",
                rng,
            )
        i = int(k)
        if 0 <= i < len(items):
            found = items[i]
            return (found.with_marks(marks) if marks else found), None
        # HCL only specializes the message when index - length <= 0, which (past the
        # bounds check) means exactly index == length; larger indexes get the generic text.
        if i < 0:
            detail = f"{_NO_ELEMENT}: a negative number is not a valid index for a sequence."
        elif coll.marks or i > len(items):
            detail = _NO_ELEMENT + "."
        elif not items:
            detail = f"{_NO_ELEMENT}: the collection has no elements."
        else:
            detail = (
                f"{_NO_ELEMENT}: the given index is greater than or equal to the length of the "
                "collection."
            )
        return UNKNOWN_DYNAMIC, error(_INVALID_INDEX, detail, rng)
    if isinstance(t, ObjectType):
        was_number = key.type == NUMBER
        try:
            key = convert(key, STRING)
        except ConversionFailed as exc:
            return UNKNOWN_DYNAMIC, error(_INVALID_INDEX, f"{_NO_ELEMENT}: {exc.message}.", rng)
        if key.v is UNKNOWN:
            return _dyn(coll.marks), None
        name = key.v
        if name not in t.attrs:
            extra = (
                " An object only supports looking up attributes by name, not by numeric index."
                if was_number
                else ""
            )
            return UNKNOWN_DYNAMIC, error(_INVALID_INDEX, f"{_NO_ELEMENT}.{extra}", rng)
        if coll.v is UNKNOWN:
            return Value(t.attrs[name], UNKNOWN, coll.marks), None
        marks = coll.marks | key.marks
        found = coll.v[name]
        return (found.with_marks(marks) if marks else found), None
    if isinstance(t, SetType):
        return UNKNOWN_DYNAMIC, error(
            _INVALID_INDEX,
            "Elements of a set are identified only by their value and don't have any separate "
            "index or key to select with, so it's only possible to perform operations across "
            "all elements of the set.",
            rng,
        )
    return UNKNOWN_DYNAMIC, error(_INVALID_INDEX, "This value does not have any indices.", rng)


def traverse_rel(val: Value, steps: Traversal) -> tuple[Value, Diagnostic | None]:
    """Apply attribute/index `steps` to `val`, stopping at the first error."""
    for step in steps:
        if type(step) is TraverseAttr:
            val, diag = get_attr(val, step.name, step.range)
        elif type(step) is TraverseIndex:
            val, diag = index(val, step.key, step.range)
        else:
            continue
        if diag is not None:
            return UNKNOWN_DYNAMIC, diag
    return val, None


def traverse_abs(traversal: Traversal, ctx: EvalContext | None) -> tuple[Value, Diagnostic | None]:
    """Look up the traversal's root in `ctx` and apply the remaining steps."""
    root = traversal[0]
    assert isinstance(root, TraverseRoot)
    if ctx is None:
        return UNKNOWN_DYNAMIC, error(
            "Variables not allowed", "Variables may not be used here.", root.range
        )
    val = ctx.lookup(root.name)
    if val is None:
        suggestion = name_suggestion(root.name, ctx.variable_names())
        extra = f' Did you mean "{suggestion}"?' if suggestion else ""
        return UNKNOWN_DYNAMIC, error(
            "Unknown variable", f'There is no variable named "{root.name}".{extra}', root.range
        )
    if len(traversal) == 1:
        return val, None
    return traverse_rel(val, traversal[1:])


