"""Evaluation of the core expression forms, mirroring HCL's hclsyntax (expression.go and
operation.go): literals, references, relative traversals, indexing, parentheses, tuple and
object constructors, conditionals, and the binary and unary operators.

The public entry point is `evaluate(expr, ctx) -> (Value, Diagnostics)`. Errors never raise:
a failed sub-expression yields an unknown value (usually of the dynamic type) plus diagnostics
whose summaries, details and ranges are HCL's.
"""

from __future__ import annotations

from engine.diags import Diagnostic, Diagnostics
from engine.hcl import ast as A
from engine.lang import eval_call, eval_for, template_eval  # noqa: F401  (register handlers)
from engine.lang.context import EvalContext
from engine.lang.eval_core import DISPATCH, NO_DIAGS, Result, ev, has_errors, join
from engine.lang.eval_diag import attach_values, diag
from engine.lang.eval_traversal import index, traverse_abs, traverse_rel
from engine.lang.eval_values import ConversionFailed, convert, unify
from engine.lang.operators import (
    OPERAND_TYPE,
    RESULT_TYPE,
    UNARY_OPERAND_TYPE,
    OperationError,
    apply_binary,
    apply_unary,
)
from engine.values import (
    BOOL,
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
    Type,
    Value,
    numbers,
)
from engine.values.refinement import refine, value_range


def evaluate(expr: A.Expr, ctx: EvalContext) -> tuple[Value, Diagnostics]:
    """The value of `expr` in `ctx`, with any diagnostics (see the module docstring)."""
    val, diags = ev(expr, ctx)
    return val, Diagnostics(list(diags))


# ------------------------------------------------------------------------------ simple nodes
def _literal(e: A.LiteralValueExpr, ctx: EvalContext) -> Result:
    return e.value, NO_DIAGS


def _scope_traversal(e: A.ScopeTraversalExpr, ctx: EvalContext) -> Result:
    trav = e.traversal
    root = trav[0]
    if len(trav) == 1 and isinstance(root, A.TraverseRoot):
        val = ctx.lookup(root.name)
        if val is not None:
            return val, NO_DIAGS
    val, d = traverse_abs(trav, ctx)
    if d is None:
        return val, NO_DIAGS
    return val, (attach_values(d, e, ctx),)


def _relative_traversal(e: A.RelativeTraversalExpr, ctx: EvalContext) -> Result:
    src, diags = ev(e.source, ctx)
    val, d = traverse_rel(src, e.traversal)
    if d is None:
        return val, diags
    return val, join(diags, (attach_values(d, e, ctx),))


def _index(e: A.IndexExpr, ctx: EvalContext) -> Result:
    coll, cdiags = ev(e.collection, ctx)
    key, kdiags = ev(e.key, ctx)
    val, d = index(coll, key, e.bracket_range)
    if d is None:
        return val, join(cdiags, kdiags)
    return val, join(cdiags, kdiags, (attach_values(d, e, ctx),))


def _parens(e: A.ParenthesesExpr, ctx: EvalContext) -> Result:
    return ev(e.wrapped, ctx)


def _anon(e: A.AnonSymbolExpr, ctx: EvalContext) -> Result:
    val = ctx.anon_value(e)
    return (UNKNOWN_DYNAMIC if val is None else val), NO_DIAGS


# ----------------------------------------------------------------------------- constructors
def _tuple(e: A.TupleConsExpr, ctx: EvalContext) -> Result:
    vals: list[Value] = []
    diags: list[Diagnostic] = []
    for x in e.exprs:
        v, d = ev(x, ctx)
        vals.append(v)
        if d:
            diags.extend(d)
    return Value(TupleType([v.type for v in vals]), vals), diags or NO_DIAGS


def _object_key(e: A.ObjectConsKeyExpr, ctx: EvalContext) -> Result:
    if not e.force_non_literal:
        w = e.wrapped
        if isinstance(w, A.ScopeTraversalExpr):
            if len(w.traversal) > 1:
                return UNKNOWN_DYNAMIC, (
                    diag(
                        "Ambiguous attribute key",
                        "If this expression is intended to be a reference, wrap it in "
                        "parentheses. If it's instead intended as a literal name containing "
                        "periods, wrap it in quotes to create a string literal.",
                        e.range,
                        None,
                        None,
                        None,
                    ),
                )
            root = w.traversal[0]
            if isinstance(root, A.TraverseRoot):
                return Value(STRING, root.name), NO_DIAGS
        if isinstance(w, A.LiteralValueExpr):
            word = w.range.text()
            if word in ("null", "true", "false"):
                return Value(STRING, word), NO_DIAGS
    return ev(e.wrapped, ctx)


def _object(e: A.ObjectConsExpr, ctx: EvalContext) -> Result:
    vals: dict[str, Value] = {}
    diags: list[Diagnostic] = []
    marks: frozenset[str] = frozenset()
    known = True
    for item in e.items:
        key, kd = ev(item.key, ctx)
        diags.extend(kd)
        val, vd = ev(item.value, ctx)
        diags.extend(vd)
        if has_errors(kd):
            known = False
            continue
        if key.v is None:
            diags.append(
                diag(
                    "Null value as key",
                    "Can't use a null value as a key.",
                    item.value.range,
                    None,
                    item.key,
                    ctx,
                )
            )
            known = False
            continue
        if key.marks:
            marks = marks | key.marks
            key = Value(key.type, key.v)
        try:
            key = convert(key, STRING)
        except ConversionFailed as exc:
            diags.append(
                diag(
                    "Incorrect key type",
                    f"Can't use this value as a key: {exc.message}.",
                    item.key.range,
                    None,
                    item.key,
                    ctx,
                )
            )
            known = False
            continue
        if key.v is UNKNOWN:
            known = False
            continue
        vals[key.v] = val
    if not known:
        return UNKNOWN_DYNAMIC, diags or NO_DIAGS
    return make_object(vals, marks), diags or NO_DIAGS


def make_object(vals: dict[str, Value], marks: frozenset[str] = frozenset()) -> Value:
    """An object value with attributes in canonical (sorted) order."""
    items = dict(sorted(vals.items())) if len(vals) > 1 else vals
    return Value(ObjectType({k: v.type for k, v in items.items()}), items, marks)


# ------------------------------------------------------------------------------ conditional
def _conditional(e: A.ConditionalExpr, ctx: EvalContext) -> Result:
    t_val, t_diags = ev(e.true_result, ctx)
    f_val, f_diags = ev(e.false_result, ctx)
    diags: list[Diagnostic] = []
    result_type: Type | None
    conv_true = conv_false = False
    if t_val.v is None and t_val.type == DYNAMIC:
        result_type = f_val.type
        conv_true = True
    elif f_val.v is None and f_val.type == DYNAMIC:
        result_type = t_val.type
        conv_false = True
    elif t_val.type == DYNAMIC or f_val.type == DYNAMIC:
        result_type = DYNAMIC
    else:
        result_type = unify([t_val.type, f_val.type])
        conv_true = conv_false = True
    if result_type is None:
        return UNKNOWN_DYNAMIC, (
            diag(
                "Inconsistent conditional result types",
                "The true and false result expressions must have consistent types. "
                f"{describe_type_mismatch(t_val.type, f_val.type)}.",
                e.true_result.range.to(e.false_result.range),
                e.range,
                e,
                ctx,
            ),
        )
    cond, c_diags = ev(e.condition, ctx)
    diags.extend(c_diags)
    if cond.v is None:
        diags.append(
            diag(
                "Null condition",
                "The condition value is null. Conditions must either be true or false.",
                e.condition.range,
                e.range,
                e.condition,
                ctx,
            )
        )
        return Value(result_type, UNKNOWN), diags
    if cond.v is UNKNOWN:
        marks = cond.marks | t_val.marks | f_val.marks
        return unknown_conditional(result_type, t_val, f_val).with_marks(marks), diags or NO_DIAGS
    try:
        cond = convert(cond, BOOL)
    except ConversionFailed:
        diags.append(
            diag(
                "Incorrect condition type",
                "The condition expression must be of type bool.",
                e.condition.range,
                e.range,
                e.condition,
                ctx,
            )
        )
        return Value(result_type, UNKNOWN), diags
    if cond.v is UNKNOWN:
        marks = cond.marks | t_val.marks | f_val.marks
        return unknown_conditional(result_type, t_val, f_val).with_marks(marks), diags or NO_DIAGS
    cond_marks = cond.deep_marks()
    if cond.v:
        result, branch_diags, needs_conv, which, branch = t_val, t_diags, conv_true, "true", e.true_result
    else:
        result, branch_diags, needs_conv, which, branch = f_val, f_diags, conv_false, "false", e.false_result
    diags.extend(branch_diags)
    if needs_conv and result.type != result_type:
        try:
            result = convert(result, result_type)
        except ConversionFailed as exc:
            diags.append(
                diag(
                    "Inconsistent conditional result types",
                    f"The {which} result value has the wrong type: {exc.message}.",
                    branch.range,
                    e.range,
                    branch,
                    ctx,
                )
            )
            result = Value(result_type, UNKNOWN)
    if cond_marks:
        result = result.with_marks(cond_marks)
    return result, diags or NO_DIAGS


def unknown_conditional(result_type: Type, t_val: Value, f_val: Value) -> Value:
    """The result of a conditional whose condition is unknown (hclsyntax ConditionalExpr):
    null when both results are; not null when neither can be; for two numbers, the bounds
    that cover both; for two collections of one type, the length bounds that cover both."""
    tv, _ = t_val.unmark()
    fv, _ = f_val.unmark()
    if tv.v is None and fv.v is None:
        return Value(result_type, None)
    tr, fr = value_range(tv), value_range(fv)
    b = refine(Value(result_type, UNKNOWN))
    if tr.definitely_not_null() and fr.definitely_not_null():
        b = b.not_null()
    if tv.type == NUMBER and fv.type == NUMBER:
        (t_lo, t_lo_inc), (f_lo, f_lo_inc) = tr.number_lower_bound(), fr.number_lower_bound()
        if t_lo is not None and f_lo is not None:
            lo, inc = f_lo, f_lo_inc
            c = numbers.compare(t_lo, f_lo)
            if c < 0:
                lo, inc = t_lo, t_lo_inc
            elif c == 0:
                inc = t_lo_inc or f_lo_inc
            b = b.number_lower_bound(lo, inc)
        (t_hi, t_hi_inc), (f_hi, f_hi_inc) = tr.number_upper_bound(), fr.number_upper_bound()
        if t_hi is not None and f_hi is not None:
            hi, inc = f_hi, f_hi_inc
            c = numbers.compare(t_hi, f_hi)
            if c > 0:
                hi, inc = t_hi, t_hi_inc
            elif c == 0:
                inc = t_hi_inc or f_hi_inc
            b = b.number_upper_bound(hi, inc)
    elif tv.type.is_collection and fv.type.is_collection and tv.type == fv.type:
        b = b.length_lower_bound(min(tr.length_lower_bound(), fr.length_lower_bound()))
        b = b.length_upper_bound(max(tr.length_upper_bound(), fr.length_upper_bound()))
    return b.new_value()


def describe_type_mismatch(t: Type, f: Type) -> str:
    """HCL's describeConditionalTypeMismatch, without the final period."""
    if isinstance(t, ObjectType) and isinstance(f, ObjectType):
        for name in sorted(t.attrs):
            if name not in f.attrs:
                return (
                    f'The \'true\' value includes object attribute "{name}", which is absent in '
                    "the 'false' value"
                )
            if t.attrs[name] != f.attrs[name]:
                inner = describe_type_mismatch(t.attrs[name], f.attrs[name])
                return f'Type mismatch for object attribute "{name}": {inner}'
        for name in sorted(f.attrs):
            if name not in t.attrs:
                return (
                    f'The \'false\' value includes object attribute "{name}", which is absent in '
                    "the 'true' value"
                )
    elif isinstance(t, TupleType) and isinstance(f, TupleType):
        if len(t.elements) != len(f.elements):
            return (
                f"The 'true' tuple has length {len(t.elements)}, but the 'false' tuple has "
                f"length {len(f.elements)}"
            )
        for i, (te, fe) in enumerate(zip(t.elements, f.elements)):
            if te != fe:
                return f"Type mismatch for tuple element {i}: {describe_type_mismatch(te, fe)}"
    elif t.is_collection and f.is_collection and type(t) is type(f):
        assert isinstance(t, (ListType, SetType, MapType))
        assert isinstance(f, (ListType, SetType, MapType))
        te, fe = t.element, f.element
        if (isinstance(te, ObjectType) and isinstance(fe, ObjectType)) or (
            isinstance(te, TupleType) and isinstance(fe, TupleType)
        ):
            noun = t.kind
            return f"Mismatched {noun} element types: {describe_type_mismatch(te, fe)}"
    tn, fn = t.friendly_name(), f.friendly_name()
    if tn == fn:
        return (
            "At least one deeply-nested attribute or element is not compatible across both the "
            "'true' and the 'false' value"
        )
    return f"The 'true' value is {tn}, but the 'false' value is {fn}"


# -------------------------------------------------------------------------------- operators
def _binary(e: A.BinaryOpExpr, ctx: EvalContext) -> Result:
    op = e.op
    want = OPERAND_TYPE.get(op)
    if want is None:
        raise ValueError(f"unsupported binary operator {op!r}")
    diags: list[Diagnostic] = []
    lhs, ld = ev(e.lhs, ctx)
    diags.extend(ld)
    ok = True
    try:
        lhs = convert(lhs, want)
    except ConversionFailed as exc:
        ok = False
        diags.append(
            diag(
                "Invalid operand",
                f"Unsuitable value for left operand: {exc.message}.",
                e.lhs.range,
                e.range,
                e.lhs,
                ctx,
            )
        )
    rhs, rd = ev(e.rhs, ctx)
    diags.extend(rd)
    try:
        rhs = convert(rhs, want)
    except ConversionFailed as exc:
        ok = False
        diags.append(
            diag(
                "Invalid operand",
                f"Unsuitable value for right operand: {exc.message}.",
                e.rhs.range,
                e.range,
                e.rhs,
                ctx,
            )
        )
    if not ok or has_errors(diags):
        return Value(RESULT_TYPE[op], UNKNOWN), diags
    try:
        return apply_binary(op, lhs, rhs), diags or NO_DIAGS
    except OperationError as exc:
        diags.append(
            diag("Operation failed", f"Error during operation: {exc.message}.", e.range, None, e, ctx)
        )
        return Value(RESULT_TYPE[op], UNKNOWN), diags


def _unary(e: A.UnaryOpExpr, ctx: EvalContext) -> Result:
    op = e.op
    want = UNARY_OPERAND_TYPE[op]
    result_type = NUMBER if op == "-" else BOOL
    val, vd = ev(e.operand, ctx)
    diags: list[Diagnostic] = list(vd)
    try:
        val = convert(val, want)
    except ConversionFailed as exc:
        diags.append(
            diag(
                "Invalid operand",
                f"Unsuitable value for unary operand: {exc.message}.",
                e.operand.range,
                e.range,
                e.operand,
                ctx,
            )
        )
    if has_errors(diags):
        return Value(result_type, UNKNOWN), diags
    try:
        return apply_unary(op, val), diags or NO_DIAGS
    except OperationError as exc:
        diags.append(
            diag("Operation failed", f"Error during operation: {exc.message}.", e.range, None, e, ctx)
        )
        return Value(result_type, UNKNOWN), diags


DISPATCH.update(
    {
        A.LiteralValueExpr: _literal,
        A.ScopeTraversalExpr: _scope_traversal,
        A.RelativeTraversalExpr: _relative_traversal,
        A.IndexExpr: _index,
        A.ParenthesesExpr: _parens,
        A.AnonSymbolExpr: _anon,
        A.TupleConsExpr: _tuple,
        A.ObjectConsKeyExpr: _object_key,
        A.ObjectConsExpr: _object,
        A.ConditionalExpr: _conditional,
        A.BinaryOpExpr: _binary,
        A.UnaryOpExpr: _unary,
    }
)
