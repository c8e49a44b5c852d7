"""`for` expressions and splat expressions (hclsyntax ForExpr and SplatExpr).

A `for` expression iterates a list, set, tuple, map or object (maps and objects in key order),
binds its key/value names in a child scope, filters with its `if` clause and builds a tuple
(`[for ...]`) or an object (`{for ...}`, grouping values into tuples with `...`). A splat applies
its `each` expression to every element of a list, set or tuple (a single non-null value is
treated as a one-element tuple, null as an empty tuple). Marks on the collection and on `if`
results and keys mark the result; unknown collections give unknown results.
"""

from __future__ import annotations

from engine.diags import Diagnostic
from engine.hcl import ast as A
from engine.lang.context import EvalContext
from engine.lang.eval_core import DISPATCH, NO_DIAGS, Result, ev, has_errors
from engine.lang.eval_diag import diag
from engine.lang.eval_values import ConversionFailed, convert, unify
from engine.values import (
    BOOL,
    DYNAMIC,
    EMPTY_TUPLE,
    NUMBER,
    STRING,
    UNKNOWN,
    UNKNOWN_DYNAMIC,
    ListType,
    MapType,
    ObjectType,
    SetType,
    TupleType,
    Type,
    Value,
)
from engine.values.refinement import refine, value_range


def iter_elements(coll: Value) -> list[tuple[Value, Value]]:
    """(key, element) pairs of a known, unmarked iterable value, in cty's iteration order."""
    v = coll.v
    if isinstance(v, list):
        return [(Value(NUMBER, i), e) for i, e in enumerate(v)]
    return [(Value(STRING, k), v[k]) for k in sorted(v)]


def _can_iterate(t: Type) -> bool:
    return isinstance(t, (ListType, SetType, TupleType, MapType, ObjectType))


def _bind(e: A.ForExpr | A.TemplateForExpr, ctx: EvalContext, k: Value, v: Value) -> EvalContext:
    names = {e.value_var: v}
    if e.key_var:
        names[e.key_var] = k
    return EvalContext(names, None, ctx, ctx.plan_phase)


def for_collection(
    e: A.ForExpr | A.TemplateForExpr, ctx: EvalContext, diags: list[Diagnostic]
) -> tuple[Value | None, frozenset[str]]:
    """Evaluate and check a for's collection: (unmarked known value, its marks), or (None, _)
    when the result must be DynamicVal (diagnostics, if any, appended to `diags`)."""
    coll, cd = ev(e.collection, ctx)
    diags.extend(cd)
    if coll.v is None:
        diags.append(
            diag(
                "Iteration over null value",
                "A null value cannot be used as the collection in a 'for' expression.",
                e.collection.range,
                e.range,
                e.collection,
                ctx,
            )
        )
        return None, frozenset()
    if coll.type == DYNAMIC:
        return None, frozenset()
    marks = coll.marks
    if marks:
        coll = Value(coll.type, coll.v)
    if not _can_iterate(coll.type):
        diags.append(
            diag(
                "Iteration over non-iterable value",
                f"A value of type {coll.type.friendly_name()} cannot be used as the collection "
                "in a 'for' expression.",
                e.collection.range,
                e.range,
                e.collection,
                ctx,
            )
        )
        return None, marks
    if coll.v is UNKNOWN:
        return None, marks
    return coll, marks


def _for(e: A.ForExpr, ctx: EvalContext) -> Result:
    diags: list[Diagnostic] = []
    coll, coll_marks = for_collection(e, ctx, diags)
    if coll is None:
        return Value(DYNAMIC, UNKNOWN, coll_marks), diags or NO_DIAGS
    marks = set(coll_marks)
    cond = e.cond
    if cond is not None:
        probe = EvalContext({e.value_var: UNKNOWN_DYNAMIC}, None, ctx, ctx.plan_phase)
        if e.key_var:
            probe.variables[e.key_var] = UNKNOWN_DYNAMIC
        result, cd = ev(cond, probe)
        diags.extend(cd)
        if result.v is None:
            diags.append(
                diag(
                    "Condition is null",
                    "The value of the 'if' clause must not be null.",
                    cond.range,
                    e.range,
                    cond,
                    ctx,
                )
            )
            return UNKNOWN_DYNAMIC, diags
        try:
            convert(result, BOOL)
        except ConversionFailed as exc:
            diags.append(
                diag(
                    "Invalid 'for' condition",
                    f"The 'if' clause value is invalid: {exc.message}.",
                    cond.range,
                    e.range,
                    cond,
                    ctx,
                )
            )
            return UNKNOWN_DYNAMIC, diags
        if has_errors(cd):
            return UNKNOWN_DYNAMIC, diags
    known = True
    tuple_vals: list[Value] = []
    obj_vals: dict[str, Value] = {}
    groups: dict[str, list[Value]] = {}
    key_expr = e.key_expr
    for k, v in iter_elements(coll):
        child = _bind(e, ctx, k, v)
        if cond is not None:
            include, cd = ev(cond, child)
            diags.extend(cd)
            if include.v is None:
                if known:
                    diags.append(
                        diag(
                            "Invalid 'for' condition",
                            "The value of the 'if' clause must not be null.",
                            cond.range,
                            e.range,
                            cond,
                            child,
                        )
                    )
                known = False
                continue
            if include.v is UNKNOWN and key_expr is None:
                marks.update(include.marks)
                known = False
                continue
            try:
                include = convert(include, BOOL)
            except ConversionFailed as exc:
                if known:
                    diags.append(
                        diag(
                            "Invalid 'for' condition",
                            f"The 'if' clause value is invalid: {exc.message}.",
                            cond.range,
                            e.range,
                            cond,
                            child,
                        )
                    )
                known = False
                continue
            marks.update(include.marks)
            if include.v is UNKNOWN:
                known = False
                continue
            if not include.v:
                continue
        if key_expr is None:
            val, vd = ev(e.value_expr, child)
            diags.extend(vd)
            tuple_vals.append(val)
            continue
        key_raw, kd = ev(key_expr, child)
        diags.extend(kd)
        if key_raw.v is None:
            if known:
                diags.append(
                    diag(
                        "Invalid object key",
                        "Key expression in 'for' expression must not produce a null value.",
                        key_expr.range,
                        e.range,
                        key_expr,
                        child,
                    )
                )
            known = False
            continue
        try:
            key = convert(key_raw, STRING)
        except ConversionFailed as exc:
            if known:
                diags.append(
                    diag(
                        "Invalid object key",
                        f"The key expression produced an invalid result: {exc.message}.",
                        key_expr.range,
                        e.range,
                        key_expr,
                        child,
                    )
                )
            known = False
            continue
        marks.update(key.marks)
        if key.v is UNKNOWN:
            known = False
            continue
        name: str = key.v
        val, vd = ev(e.value_expr, child)
        diags.extend(vd)
        if e.group:
            groups.setdefault(name, []).append(val)
        elif name in obj_vals:
            diags.append(
                diag(
                    "Duplicate object key",
                    f'Two different items produced the key "{name}" in this \'for\' expression. '
                    "If duplicates are expected, use the ellipsis (...) after the value "
                    "expression to enable grouping by key.",
                    key_expr.range,
                    e.range,
                    key_expr,
                    child,
                )
            )
        else:
            obj_vals[name] = val
    fmarks = frozenset(marks)
    if not known:
        return Value(DYNAMIC, UNKNOWN, fmarks), diags or NO_DIAGS
    if key_expr is None:
        return Value(TupleType([v.type for v in tuple_vals]), tuple_vals, fmarks), diags or NO_DIAGS
    if e.group:
        obj_vals = {
            k: Value(TupleType([v.type for v in g]), g) for k, g in groups.items()
        }
    items = dict(sorted(obj_vals.items()))
    result = Value(ObjectType({k: v.type for k, v in items.items()}), items, fmarks)
    return result, diags or NO_DIAGS


# ------------------------------------------------------------------------------------ splat
def _splat(e: A.SplatExpr, ctx: EvalContext) -> Result:
    source, sd = ev(e.source, ctx)
    diags: list[Diagnostic] = list(sd)
    if has_errors(sd):
        return UNKNOWN_DYNAMIC, diags
    st = source.type
    auto_upgrade = not isinstance(st, (TupleType, ListType, SetType))
    if source.v is None:
        if auto_upgrade:
            return EMPTY_TUPLE_VAL, diags or NO_DIAGS
        diags.append(
            diag(
                "Splat of null value",
                "Splat expressions (with the * symbol) cannot be applied to null sequences.",
                e.source.range,
                e.source.range.to(e.marker_range),
                e.source,
                ctx,
            )
        )
        return UNKNOWN_DYNAMIC, diags
    if st == DYNAMIC:
        return Value(DYNAMIC, UNKNOWN, source.marks), diags or NO_DIAGS
    upgraded_unknown = False
    if auto_upgrade:
        if source.v is UNKNOWN and not value_range(source).definitely_not_null():
            # an unknown that may be null may yet be no element at all (HCL 2.17+: one
            # known not to be null is exactly one)
            upgraded_unknown = True
        # As HCL: the upgraded value keeps its marks as the one element, and they are also
        # the marks of the result.
        source = Value(TupleType([st]), [source], source.marks)
        st = source.type
    child = EvalContext({}, None, ctx, ctx.plan_phase)
    child.anon = {}
    key = id(e.item)
    if source.v is UNKNOWN:
        ty, td = _splat_result_type(e, child, st)
        diags.extend(td)
        return _unknown_splat(ty, source).with_marks(source.marks), diags or NO_DIAGS
    marks = source.marks
    vals: list[Value] = []
    is_known = True
    for item in source.v:
        child.anon[key] = item
        nv, nd = ev(e.each, child)
        if nd:
            diags.extend(nd)
            if has_errors(nd):
                is_known = False
        vals.append(nv)
    child.anon.clear()
    if upgraded_unknown:
        return Value(DYNAMIC, UNKNOWN, marks), diags or NO_DIAGS
    if not is_known:
        ty, _ = _splat_result_type(e, child, st)
        return Value(ty, UNKNOWN, marks), diags
    if isinstance(st, (ListType, SetType)):
        if not vals:
            ty, td = _splat_result_type(e, child, st)
            diags.extend(td)
            assert isinstance(ty, ListType)
            return Value(ty, []), diags or NO_DIAGS
        return _list_of(vals, marks), diags or NO_DIAGS
    return Value(TupleType([v.type for v in vals]), vals, marks), diags or NO_DIAGS


EMPTY_TUPLE_VAL = Value(EMPTY_TUPLE, [])


def _list_of(vals: list[Value], marks: frozenset[str]) -> Value:
    first = vals[0].type
    if all(v.type == first for v in vals):
        return Value(ListType(first), vals, marks)
    ety = unify([v.type for v in vals])
    if ety is None:
        return Value(TupleType([v.type for v in vals]), vals, marks)
    return Value(ListType(ety), [convert(v, ety) for v in vals], marks)


def _unknown_splat(ty: Type, source: Value) -> Value:
    """The splat of an unknown sequence (HCL 2.17+): not null, and a list as long as the
    source collection can be."""
    b = refine(Value(ty, UNKNOWN)).not_null()
    if isinstance(ty, ListType) and isinstance(source.type, (ListType, SetType)):
        rng = value_range(source)
        b = b.length_lower_bound(rng.length_lower_bound())
        b = b.length_upper_bound(rng.length_upper_bound())
    return b.new_value()


def _splat_result_type(
    e: A.SplatExpr, child: EvalContext, st: Type
) -> tuple[Type, list[Diagnostic]]:
    """The splat's result type, from evaluating `each` against unknowns of the element types."""
    diags: list[Diagnostic] = []
    assert child.anon is not None
    key = id(e.item)
    if isinstance(st, (ListType, SetType)):
        child.anon[key] = Value(st.element, UNKNOWN)
        val, d = ev(e.each, child)
        diags.extend(d)
        child.anon.clear()
        return ListType(val.type), diags
    if isinstance(st, TupleType):
        types: list[Type] = []
        for ety in st.elements:
            child.anon[key] = Value(ety, UNKNOWN)
            val, d = ev(e.each, child)
            diags.extend(d)
            types.append(val.type)
        child.anon.clear()
        return TupleType(types), diags
    return DYNAMIC, diags


DISPATCH.update({A.ForExpr: _for, A.SplatExpr: _splat})
