"""HCL's operators as cty's stdlib functions implement them.

Each binary operator has a parameter type its operands are converted to before the call
(`OPERAND_TYPE`) and a result type (`RESULT_TYPE`). `apply_binary`/`apply_unary` take already
converted operands and follow cty's `function.Call` rules for the operator functions:

- a null operand fails with "argument must not be null" (`==`/`!=` accept nulls);
- an unknown operand gives an unknown result known not to be null (cty's RefineResult of the
  operator functions), except where refinements decide: `==`/`!=` with cty's Value.Equals
  (which consults the unknown's refinements), `<`, `<=`, `>`, `>=` with the operands' number
  bounds, as cty's Value.LessThan and friends (every bound taken as exclusive);
- marks (sensitive) anywhere inside the operands are put on the result, known or not.

Failures raise `OperationError`, which the evaluator reports as HCL's "Operation failed".
"""

from __future__ import annotations

from engine.lang.eval_values import equals
from engine.values import BOOL, DYNAMIC, NUMBER, UNKNOWN, Type, Value, boolean, numbers
from engine.values.refinement import refine_not_null, value_range


class OperationError(Exception):
    """An operator could not produce a result; `message` is cty's text without a period."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


OPERAND_TYPE: dict[str, Type] = {
    "+": NUMBER, "-": NUMBER, "*": NUMBER, "/": NUMBER, "%": NUMBER,
    "<": NUMBER, "<=": NUMBER, ">": NUMBER, ">=": NUMBER,
    "==": DYNAMIC, "!=": DYNAMIC,
    "&&": BOOL, "||": BOOL,
}

RESULT_TYPE: dict[str, Type] = {
    "+": NUMBER, "-": NUMBER, "*": NUMBER, "/": NUMBER, "%": NUMBER,
    "<": BOOL, "<=": BOOL, ">": BOOL, ">=": BOOL,
    "==": BOOL, "!=": BOOL, "&&": BOOL, "||": BOOL,
}

UNARY_OPERAND_TYPE: dict[str, Type] = {"-": NUMBER, "!": BOOL}


_ARITH = {"+": numbers.add, "-": numbers.sub, "*": numbers.mul, "/": numbers.div, "%": numbers.mod}


def _compare(op: str, a: numbers.Num, b: numbers.Num) -> bool:
    c = numbers.compare(a, b)
    if op == "<":
        return c < 0
    if op == "<=":
        return c <= 0
    if op == ">":
        return c > 0
    return c >= 0


def apply_binary(op: str, lhs: Value, rhs: Value) -> Value:
    """`lhs op rhs` for operands already converted to `OPERAND_TYPE[op]`."""
    if op == "==" or op == "!=":
        result = equals(lhs, rhs)
        if result.v is UNKNOWN:
            return refine_not_null(result)
        if op == "!=":
            result = Value(BOOL, not result.v, result.marks)
        return result
    lmarks = lhs.deep_marks() if _may_be_marked(lhs) else frozenset()
    rmarks = rhs.deep_marks() if _may_be_marked(rhs) else frozenset()
    marks = lmarks | rmarks
    if lhs.v is None or rhs.v is None:
        raise OperationError("argument must not be null")
    if lhs.v is UNKNOWN or rhs.v is UNKNOWN:
        if op in ("<", "<=", ">", ">="):
            decided = _compare_ranges(op, lhs, rhs)
            if decided is not None:
                out = boolean(decided)
                return out.with_marks(marks) if marks else out
        return refine_not_null(Value(RESULT_TYPE[op], UNKNOWN, marks))
    if op == "&&":
        out = boolean(bool(lhs.v) and bool(rhs.v))
    elif op == "||":
        out = boolean(bool(lhs.v) or bool(rhs.v))
    elif op in ("<", "<=", ">", ">="):
        out = boolean(_compare(op, lhs.v, rhs.v))
    else:
        try:
            out = Value(NUMBER, _ARITH[op](lhs.v, rhs.v))
        except numbers.NumberError as exc:
            raise OperationError(exc.message) from None
    return out.with_marks(marks) if marks else out


def apply_unary(op: str, operand: Value) -> Value:
    """`-x` (cty Negate) or `!x` (cty Not) for an operand already of the operand type."""
    marks = operand.marks
    if operand.v is None:
        raise OperationError("argument must not be null")
    if operand.v is UNKNOWN:
        return refine_not_null(Value(NUMBER if op == "-" else BOOL, UNKNOWN, marks))
    if op == "-":
        out = Value(NUMBER, numbers.neg(operand.v))
    else:
        out = boolean(not operand.v)
    return out.with_marks(marks) if marks else out


def _less_by_bounds(a: Value, b: Value) -> bool | None:
    """cty's Value.LessThan for an unknown operand: decided only when the bounds of the two
    ranges do not overlap (every bound treated as exclusive), else None."""
    ra, rb = value_range(a), value_range(b)
    a_max = ra.number_upper_bound()[0]
    b_min = rb.number_lower_bound()[0]
    if a_max is not None and b_min is not None and numbers.compare(a_max, b_min) < 0:
        return True
    a_min = ra.number_lower_bound()[0]
    b_max = rb.number_upper_bound()[0]
    if a_min is not None and b_max is not None and numbers.compare(a_min, b_max) > 0:
        return False
    return None


def _compare_ranges(op: str, lhs: Value, rhs: Value) -> bool | None:
    """`lhs op rhs` decided from the operands' ranges, or None; `<=` and `>=` are cty's
    `LessThan(...).Or(Equals(...))`, known only when both halves are."""
    strict = _less_by_bounds(lhs, rhs) if op in ("<", "<=") else _less_by_bounds(rhs, lhs)
    if op in ("<", ">"):
        return strict
    if strict is None:
        return None
    eq = equals(lhs, rhs)
    if eq.v is UNKNOWN:
        return True if strict else None
    return strict or bool(eq.v)


def _may_be_marked(v: Value) -> bool:
    return bool(v.marks) or isinstance(v.v, (list, dict))
