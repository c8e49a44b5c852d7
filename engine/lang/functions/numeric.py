"""Built-in numeric functions: abs, ceil, floor, log, max, min, parseint, pow, signum.

Also the helpers other function modules use to read numbers as Go does: `whole_int` (gocty's
conversion to a Go int, with its message) and `float_result` (a float64 result taken the way
cty's NumberFloatVal is printed: by its shortest decimal form).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.lang.functions.base import Function, FunctionError, Param, refine_results, static_return
from engine.values import DYNAMIC, NUMBER, STRING, Type, Value, number, unknown
from engine.values import numbers as nums

WHOLE_NUMBER_MSG = (
    "value must be a whole number, between -9223372036854775808 and 9223372036854775807"
)
_I64 = 1 << 63


def whole_int(val: Value, arg_index: int | None = None, prefix: str = "") -> int:
    """The number in `val` as a Go int64, or FunctionError with gocty's message."""
    v = val.v
    if not nums.is_integer(v):
        raise FunctionError(prefix + WHOLE_NUMBER_MSG, arg_index)
    i = 0 if isinstance(v, float) else int(v)
    if not -_I64 <= i < _I64:
        raise FunctionError(prefix + WHOLE_NUMBER_MSG, arg_index)
    return i


def float_result(f: float) -> Value:
    """A number Value from a float64 result; NaN fails as Go's big.Float does."""
    if math.isnan(f):
        raise FunctionError("panic in function implementation: Float.SetFloat64(NaN)")
    if math.isinf(f):
        return Value(NUMBER, nums.POS_INF if f > 0 else nums.NEG_INF)
    if f == 0:
        return Value(NUMBER, nums.NEG_ZERO if math.copysign(1, f) < 0 else 0)
    return Value(NUMBER, nums.parse_number(repr(f)))


def go_log(x: float) -> float:
    """Go's math.Log special cases: Log(+Inf)=+Inf, Log(0)=-Inf, Log(x<0)=NaN."""
    if math.isnan(x) or x < 0:
        return math.nan
    if x == 0:
        return -math.inf
    if math.isinf(x):
        return math.inf
    return math.log(x)


def _is_odd_int(y: float) -> bool:
    return y.is_integer() and abs(y) < 2**53 and int(y) % 2 == 1


def go_pow(x: float, y: float) -> float:
    """Go's math.Pow, including its special cases for zeros and infinities."""
    x, y = float(x), float(y)
    if y == 0 or x == 1:
        return 1.0
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if x == 0:
        if y < 0:
            if _is_odd_int(y):
                return math.copysign(math.inf, x)
            return math.inf
        if _is_odd_int(y):
            return x
        return 0.0
    if math.isinf(y):
        if x == -1:
            return 1.0
        if (abs(x) < 1) == (y > 0):
            return 0.0
        return math.inf
    if math.isinf(x):
        if x < 0:
            return go_pow(1 / x, -y)
        return 0.0 if y < 0 else math.inf
    if x < 0 and not y.is_integer():
        return math.nan
    try:
        return math.pow(x, y)
    except OverflowError:
        if x < 0 and _is_odd_int(y):
            return -math.inf
        return math.inf


def _num(args: Sequence[Value], i: int) -> nums.Num:
    v: nums.Num = args[i].v
    return v


def _abs(args: Sequence[Value], ret: Type) -> Value:
    v = _num(args, 0)
    if isinstance(v, float):
        return Value(NUMBER, abs(v) if math.isinf(v) else 0)
    return Value(NUMBER, abs(v))


def _ceil(args: Sequence[Value], ret: Type) -> Value:
    v = _num(args, 0)
    if isinstance(v, float):
        return Value(NUMBER, v if math.isinf(v) else 0)
    return Value(NUMBER, math.ceil(v))


def _floor(args: Sequence[Value], ret: Type) -> Value:
    v = _num(args, 0)
    if isinstance(v, float):
        return Value(NUMBER, v if math.isinf(v) else 0)
    return Value(NUMBER, math.floor(v))


def _log(args: Sequence[Value], ret: Type) -> Value:
    num = nums.to_float(_num(args, 0))
    base = nums.to_float(_num(args, 1))
    a, b = go_log(num), go_log(base)
    if b == 0:
        f = math.nan if a == 0 or math.isnan(a) else math.copysign(math.inf, a)
    elif math.isinf(a) and math.isinf(b):
        f = math.nan
    else:
        f = a / b
    return float_result(f)


def _pow(args: Sequence[Value], ret: Type) -> Value:
    return float_result(go_pow(nums.to_float(_num(args, 0)), nums.to_float(_num(args, 1))))


def _signum(args: Sequence[Value], ret: Type) -> Value:
    n = whole_int(args[0])
    return number((n > 0) - (n < 0))


def _extreme(name: str, pick_greater: bool) -> Function:
    def impl(args: Sequence[Value], ret: Type) -> Value:
        if not args:
            raise FunctionError("must pass at least one number")
        best = args[0]
        for a in args[1:]:
            c = nums.compare(a.v, best.v)
            if (c > 0 and pick_greater) or (c < 0 and not pick_greater):
                best = a
        return best

    return Function(
        name=name,
        params=(),
        var_param=Param("numbers", NUMBER, allow_dynamic=True),
        impl=impl,
        return_type=static_return(NUMBER),
        description=f"Returns the {'greatest' if pick_greater else 'smallest'} of the numbers.",
    )


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def parse_go_int(text: str, base: int) -> int | None:
    """Go's big.Int.SetString(text, base) for 2 <= base <= 62; None when it fails."""
    s = text
    negative = False
    if s[:1] in ("+", "-"):
        negative = s[0] == "-"
        s = s[1:]
    if not s:
        return None
    value = 0
    for ch in s:
        idx = _DIGITS.find(ch)
        if base <= 36 and "A" <= ch <= "Z":
            idx = ord(ch) - ord("A") + 10
        if idx < 0 or idx >= base:
            return None
        value = value * base + idx
    return -value if negative else value


def _parseint_type(args: Sequence[Value]) -> Type:
    t = args[0].type
    if t != STRING:
        raise FunctionError(f"first argument must be a string, not {t.friendly_name()}", 0)
    return NUMBER


def _parseint(args: Sequence[Value], ret: Type) -> Value:
    num_arg, num_marks = args[0].unmark()
    base_arg, base_marks = args[1].unmark()
    marks = num_marks | base_marks
    if not num_arg.is_known or not base_arg.is_known:
        return unknown(NUMBER).with_marks(marks)
    if num_arg.v is None:
        raise FunctionError("argument must not be null", 0)
    base = whole_int(base_arg, 1)
    if base < 2 or base > 62:
        raise FunctionError("base must be a whole number between 2 and 62 inclusive", 1)
    parsed = parse_go_int(num_arg.v, base)
    if parsed is None:
        quoted = '"' + num_arg.v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        # terraform 1.11 does not redact these (its marks are removed before the check)
        raise FunctionError(f"cannot parse {quoted} as a base {base} integer", 0)
    return number(parsed).with_marks(marks)


def _unary(name: str, impl: object, description: str) -> Function:
    return Function(
        name=name,
        params=(Param("num", NUMBER),),
        impl=impl,  # type: ignore[arg-type]
        return_type=static_return(NUMBER),
        description=description,
    )


FUNCTIONS: list[Function] = refine_results([
    _unary("abs", _abs, "Returns the absolute value of the given number."),
    _unary("ceil", _ceil, "Returns the closest whole number greater than or equal to the value."),
    _unary("floor", _floor, "Returns the closest whole number less than or equal to the value."),
    _unary("signum", _signum, "Returns -1, 0 or 1 for the sign of the given whole number."),
    Function(
        name="log",
        params=(Param("num", NUMBER), Param("base", NUMBER)),
        impl=_log,
        return_type=static_return(NUMBER),
        description="Returns the logarithm of a number in a given base.",
    ),
    Function(
        name="pow",
        params=(Param("num", NUMBER), Param("power", NUMBER)),
        impl=_pow,
        return_type=static_return(NUMBER),
        description="Raises a number to a power.",
    ),
    _extreme("max", True),
    _extreme("min", False),
    Function(
        name="parseint",
        params=(
            Param("number", DYNAMIC, allow_marked=True, allow_unknown=True),
            Param("base", NUMBER, allow_marked=True, allow_unknown=True),
        ),
        impl=_parseint,
        return_type=_parseint_type,
        description="Parses a string as an integer in the given base.",
    ),
])
