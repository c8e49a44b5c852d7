"""Terraform numbers: Go `big.Float` with a 512-bit mantissa, rounding to nearest even.

Payload representation (the `v` of a NUMBER Value):
- `int` when the value is integral (exact; ints whose magnitude needs more than 512 significant
  bits are rounded to 512 bits, so they stay ints);
- `fractions.Fraction` with a power-of-two denominator otherwise, rounded to 512 bits;
- `float` only for the three values a Fraction cannot hold: `inf`, `-inf` and `-0.0`
  (Terraform yields `+Inf` for `1/0` and `-0` for `-0` / `0 * -1`).

Arithmetic rounds once to 512 bits, as big.Float does when both operands carry that precision.
Operations that big.Float refuses (0/0, inf-inf, ...) raise `NumberError` with the message cty's
operator functions report ("can't divide zero by zero or infinity by infinity").
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

PREC = 512
Num = int | Fraction | float

_LIMIT = 1 << PREC
_MAX_EXP = 1 << 22  # binary exponents beyond this would need absurd amounts of memory

_DECIMAL_RE = re.compile(
    r"([+-]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:([eEpP])([+-]?\d+))?\Z"
)
_INF_RE = re.compile(r"([+-]?)[iI]nf\Z")

POS_INF = math.inf
NEG_INF = -math.inf
NEG_ZERO = -0.0


class NumberError(ArithmeticError):
    """An arithmetic operation with no defined result (big.Float's ErrNaN), e.g. `0/0`."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# ------------------------------------------------------------------------------ rounding
def _round_ratio(a: int, b: int, prec: int) -> int | Fraction:
    """Round the positive rational a/b to `prec` significant bits, nearest even."""
    shift = a.bit_length() - b.bit_length() - prec
    # want q = a / (b * 2**shift) with 2**(prec-1) <= q < 2**prec
    if shift >= 0:
        num, den = a, b << shift
    else:
        num, den = a << -shift, b
    if num < (den << (prec - 1)):
        shift -= 1
        num <<= 1
    q, r = divmod(num, den)
    twice = r << 1
    if twice > den or (twice == den and q & 1):
        q += 1
    if shift >= 0:
        return q << shift
    return Fraction(q, 1 << -shift) if q & ((1 << -shift) - 1) else q >> -shift


def round_prec(x: int | Fraction, prec: int = PREC) -> int | Fraction:
    """`x` rounded to `prec` significant bits (nearest even); int when integral."""
    if isinstance(x, int):
        if -(1 << prec) < x < (1 << prec):
            return x
        neg = x < 0
        r = _round_ratio(-x if neg else x, 1, prec)
        return -r if neg else r
    if x.denominator == 1:
        return round_prec(x.numerator, prec)
    n, d = x.numerator, x.denominator
    if n == 0:
        return 0
    neg = n < 0
    r = _round_ratio(-n if neg else n, d, prec)
    return -r if neg else r


def normalize(x: Num) -> Num:
    """Round a number to 512 bits; an int when integral. Floats are taken exactly."""
    if isinstance(x, bool):
        raise TypeError("bool is not a number")
    if isinstance(x, int):
        if -_LIMIT < x < _LIMIT:
            return x
        return round_prec(x)
    if isinstance(x, float):
        if math.isinf(x) or (x == 0 and math.copysign(1.0, x) < 0):
            return x
        if math.isnan(x):
            raise ValueError("NaN is not a number")
        return round_prec(Fraction(x))
    return round_prec(x)


# ------------------------------------------------------------------------------ parsing
def _pow5(n: int) -> int | Fraction:
    """5**n as big.Float.pow5 computes it at 576 bits (exact up to n = 248)."""
    if n <= 27:
        return 5**n
    z: int | Fraction = 5**27
    f: int | Fraction = 5
    n -= 27
    while n > 0:
        if n & 1:
            z = round_prec(z * f, PREC + 64)
        f = round_prec(f * f, PREC + 128)
        n >>= 1
    return z


def parse_number(text: str) -> Num:
    """Parse a number as `big.ParseFloat(text, 10, 512, ToNearestEven)` does (cty's
    ParseNumberVal): optional sign, decimal digits with optional point, optional `e`/`p`
    exponent, or `Inf`. Raises ValueError on bad syntax."""
    m = _INF_RE.match(text)
    if m:
        return NEG_INF if m.group(1) == "-" else POS_INF
    m = _DECIMAL_RE.match(text)
    if not m:
        raise ValueError(f"invalid number {text!r}")
    sign, ipart, fpart, only_frac, emark, exp_text = m.groups()
    if only_frac is not None:
        ipart, fpart = "", only_frac
    fpart = fpart or ""
    mant = int((ipart or "") + fpart or "0")
    neg = sign == "-"
    if mant == 0:
        return NEG_ZERO if neg else 0
    exp = int(exp_text) if exp_text else 0
    exp2 = -len(fpart)
    exp5 = -len(fpart)
    if emark in ("e", "E"):
        exp5 += exp
        exp2 += exp
    else:
        exp2 += exp
    if abs(exp2) > _MAX_EXP or abs(exp5) > _MAX_EXP:
        raise ValueError(f"number {text!r} is out of range")
    value: int | Fraction
    scaled: int | Fraction = mant << exp2 if exp2 >= 0 else Fraction(mant, 1 << -exp2)
    if exp5 == 0:
        value = round_prec(scaled)
    elif exp5 > 0:
        value = round_prec(scaled * _pow5(exp5))
    else:
        value = round_prec(Fraction(scaled) / _pow5(-exp5))
    return -value if neg else value


# ------------------------------------------------------------------------------ predicates
def is_inf(x: Num) -> bool:
    return isinstance(x, float) and math.isinf(x)


def is_neg_zero(x: Num) -> bool:
    return isinstance(x, float) and x == 0


def is_integer(x: Num) -> bool:
    """Whether `x` is a finite whole number."""
    return isinstance(x, int) or (isinstance(x, float) and x == 0)


def sign(x: Num) -> int:
    return (x > 0) - (x < 0)


def _signbit(x: Num) -> bool:
    if isinstance(x, float):
        return math.copysign(1.0, x) < 0
    return x < 0


def _exact(x: Num) -> int | Fraction:
    """A finite payload as an exact rational (-0 becomes 0)."""
    if isinstance(x, float):
        return 0
    return x


# ------------------------------------------------------------------------------ arithmetic
def neg(x: Num) -> Num:
    if isinstance(x, float):
        return -x
    if x == 0:
        return NEG_ZERO
    return -x


def add(a: Num, b: Num) -> Num:
    if type(a) is int and type(b) is int:
        r = a + b
        return r if -_LIMIT < r < _LIMIT else round_prec(r)
    if is_inf(a) or is_inf(b):
        if is_inf(a) and is_inf(b) and _signbit(a) != _signbit(b):
            raise NumberError("can't compute sum of opposing infinities")
        return a if is_inf(a) else b
    if isinstance(a, float) and isinstance(b, float):
        return NEG_ZERO  # -0 + -0
    return normalize(_exact(a) + _exact(b))


def sub(a: Num, b: Num) -> Num:
    if type(a) is int and type(b) is int:
        r = a - b
        return r if -_LIMIT < r < _LIMIT else round_prec(r)
    if is_inf(a) or is_inf(b):
        if is_inf(a) and is_inf(b) and _signbit(a) == _signbit(b):
            raise NumberError("can't subtract infinity from itself")
        return a if is_inf(a) else -b
    if isinstance(a, float) and b == 0 and not _signbit(b):
        return NEG_ZERO  # -0 - 0
    return normalize(_exact(a) - _exact(b))


def mul(a: Num, b: Num) -> Num:
    if type(a) is int and type(b) is int:
        r = a * b
        if r == 0 and (a < 0 or b < 0):
            return NEG_ZERO
        return r if -_LIMIT < r < _LIMIT else round_prec(r)
    negative = _signbit(a) != _signbit(b)
    if is_inf(a) or is_inf(b):
        if a == 0 or b == 0:
            raise NumberError("can't multiply zero by infinity")
        return NEG_INF if negative else POS_INF
    r2 = _exact(a) * _exact(b)
    if r2 == 0:
        return NEG_ZERO if negative else 0
    return normalize(r2)


def div(a: Num, b: Num) -> Num:
    """a / b; division of a nonzero number by zero gives an infinity, as in Terraform."""
    a_zero, b_zero = a == 0, b == 0
    negative = _signbit(a) != _signbit(b)
    if (a_zero and b_zero) or (is_inf(a) and is_inf(b)):
        raise NumberError("can't divide zero by zero or infinity by infinity")
    if b_zero or is_inf(a):
        return NEG_INF if negative else POS_INF
    if a_zero or is_inf(b):
        return NEG_ZERO if negative else 0
    ea, eb = _exact(a), _exact(b)
    if type(ea) is int and type(eb) is int and ea % eb == 0:
        return normalize(ea // eb)
    return normalize(Fraction(ea) / Fraction(eb))


def mod(a: Num, b: Num) -> Num:
    """a % b as cty's Modulo: truncated division (sign follows `a`); `a % 0` is `a`."""
    if is_inf(a) or is_inf(b):
        if a == 0 or b == 0:
            raise NumberError("can't use modulo with zero and infinity")
        if is_inf(a):
            raise NumberError("can't use modulo with an infinite dividend")
        return mul(a, b)
    if b == 0:
        return a
    if type(a) is int and type(b) is int:
        r = abs(a) % abs(b)
        if r == 0 and a < 0:
            return NEG_ZERO
        return -r if a < 0 else r
    quotient = div(a, b)
    q = int(_exact(quotient))  # truncates toward zero, like big.Float.Int
    work = normalize(_exact(b) * q)
    res = sub(a, work)
    return res


def compare(a: Num, b: Num) -> int:
    """-1, 0 or 1; -0 equals 0."""
    if a == b:
        return 0
    return -1 if a < b else 1


def less(a: Num, b: Num) -> bool:
    return compare(a, b) < 0


def equal(a: Num, b: Num) -> bool:
    """cty's number equality: integers compare exactly; otherwise two numbers are equal when
    their shortest decimal texts are (so `0.1 + 0.2 == 0.3`), and -0 equals 0."""
    if type(a) is int and type(b) is int:
        return a == b
    if _is_integral(a) != _is_integral(b):
        return False
    if _is_integral(a):
        return compare(a, b) == 0
    ta, tb = format_number(a), format_number(b)
    return (ta if ta != "-0" else "0") == (tb if tb != "-0" else "0")


def _is_integral(x: Num) -> bool:
    if isinstance(x, int):
        return True
    if isinstance(x, float):
        return x == 0.0  # -0.0; infinities are not exact integers
    return x.denominator == 1


# ------------------------------------------------------------------------------ floats
def to_float(x: Num) -> float:
    """The nearest float64 (like big.Float.Float64)."""
    return float(x)


def from_float(f: float) -> Num:
    """A float64 taken exactly (NaN is rejected)."""
    return normalize(f)


def to_int(x: Num) -> int:
    """The integer part, truncated toward zero; infinities raise OverflowError."""
    if is_inf(x):
        raise OverflowError("infinity has no integer value")
    return int(_exact(x))


# ------------------------------------------------------------------------------ formatting
def _decimal_digits(x: int | Fraction) -> tuple[str, int]:
    """Exact decimal of positive x: (digits without trailing zeros, decimal point position)."""
    if isinstance(x, int) or x.denominator == 1:
        s = str(int(x))
        e = len(s)
    else:
        k = x.denominator.bit_length() - 1  # denominator is 2**k
        s = str(x.numerator * 5**k)
        e = len(s) - k
    stripped = s.rstrip("0")
    return stripped, e


def _mant_exp(x: int | Fraction, bits: int) -> tuple[int, int]:
    """(M, e) with x == M * 2**e exactly and M.bit_length() == bits (x > 0, <= bits bits)."""
    if isinstance(x, int) or x.denominator == 1:
        n = int(x)
        tz = (n & -n).bit_length() - 1
        n >>= tz
        e = tz
    else:
        n = x.numerator
        e = -(x.denominator.bit_length() - 1)
    s = bits - n.bit_length()
    return n << s, e - s


def _round_digits(digits: str, exp: int, n: int, mode: str) -> tuple[str, int]:
    """Round decimal (digits, exp) to n digits: mode 'down', 'up' or 'nearest' (Go's rules)."""
    if mode == "nearest":
        if n < len(digits) and (
            digits[n] > "5"
            or (digits[n] == "5" and (n + 1 < len(digits) or (n > 0 and int(digits[n - 1]) & 1)))
        ):
            mode = "up"
        else:
            mode = "down"
    if n >= len(digits):
        return digits, exp
    if mode == "down":
        return digits[:n].rstrip("0"), exp
    head = digits[:n]
    i = n - 1
    while i >= 0 and head[i] == "9":
        i -= 1
    if i < 0:
        return "1", exp + 1
    return head[:i] + str(int(head[i]) + 1), exp


def _shortest(x: int | Fraction, prec: int) -> tuple[str, int]:
    """Shortest decimal digits that read back as x at `prec` bits (Go's roundShortest)."""
    digits, exp = _decimal_digits(x)
    mant, e2 = _mant_exp(x, prec + 1)
    lo = Fraction(mant - 1) * Fraction(2) ** e2
    hi = Fraction(mant + 1) * Fraction(2) ** e2
    ldig = _decimal_digits(lo)[0] if lo else ""
    udig = _decimal_digits(hi)[0]
    inclusive = mant & 2 == 0
    # Go's decimal.at(i) indexes each digit string from its own start (no alignment)
    for i, m in enumerate(digits):
        lch = ldig[i] if i < len(ldig) else "0"
        uch = udig[i] if i < len(udig) else "0"
        okdown = lch != m or (inclusive and i + 1 == len(ldig))
        okup = m != uch and (inclusive or int(m) + 1 < int(uch) or i + 1 < len(udig))
        if okdown and okup:
            return _round_digits(digits, exp, i + 1, "nearest")
        if okdown:
            return _round_digits(digits, exp, i + 1, "down")
        if okup:
            return _round_digits(digits, exp, i + 1, "up")
    return digits, exp


def _fmt_f(digits: str, exp: int) -> str:
    if exp > 0:
        intpart = digits[:exp] + "0" * max(0, exp - len(digits))
    else:
        intpart = "0"
    frac_len = max(len(digits) - exp, 0)
    if frac_len == 0:
        return intpart
    frac = "".join(
        digits[exp + i] if 0 <= exp + i < len(digits) else "0" for i in range(frac_len)
    )
    return intpart + "." + frac


def _binary(x: int | Fraction, bits: int) -> int | Fraction:
    """Positive `x` as a binary floating-point value of at most `bits` significant bits
    (nearest, ties to even), as a big.Float of that precision holds it; exact values that
    already fit are returned unchanged."""
    if isinstance(x, int) or x.denominator == 1:
        n = int(x)
        if n.bit_length() <= bits:
            return x
        shift = n.bit_length() - bits
        return round(Fraction(n, 1 << shift)) << shift
    den = x.denominator
    if den & (den - 1) == 0 and x.numerator.bit_length() <= bits:
        return x
    e = x.numerator.bit_length() - den.bit_length() - bits
    while True:
        scaled = x / Fraction(2) ** e
        m = round(scaled)
        if m.bit_length() > bits:
            e += 1
        elif m.bit_length() < bits and m != 0 and Fraction(m) != scaled:
            e -= 1
        else:
            break
    return Fraction(m) * Fraction(2) ** e


def format_number(x: Num) -> str:
    """The number as Terraform prints it: big.Float.Text('f', -1) at 512 bits."""
    if type(x) is int and -_LIMIT < x < _LIMIT:
        return str(x)
    if isinstance(x, float):
        if math.isinf(x):
            return "+Inf" if x > 0 else "-Inf"
        return "-0"
    if x == 0:
        return "0"
    negative = x < 0
    ax = _binary(-x if negative else x, PREC)
    digits, exp = _shortest(ax, PREC)
    out = _fmt_f(digits, exp)
    return "-" + out if negative else out


def format_g10(x: Num) -> str:
    """big.Float.String(): Text('g', 10); used for cty's set hashing order."""
    if isinstance(x, float):
        if math.isinf(x):
            return "+Inf" if x > 0 else "-Inf"
        return "-0"
    if x == 0:
        return "0"
    negative = x < 0
    ax = -x if negative else x
    digits, exp = _decimal_digits(ax)
    digits, exp = _round_digits(digits, exp, 10, "nearest")
    prec = 10
    eprec = prec
    if eprec > len(digits) and len(digits) >= exp:
        eprec = len(digits)
    e = exp - 1
    if e < -4 or e >= eprec:
        p = min(prec, len(digits)) - 1
        body = digits[0]
        if p > 0:
            body += "." + "".join(digits[i] if i < len(digits) else "0" for i in range(1, p + 1))
        esign = "-" if e < 0 else "+"
        body += "e" + esign + (f"{abs(e):02d}")
        out = body
    else:
        p = len(digits) if prec > exp else prec
        frac_len = max(p - exp, 0)
        intpart = (digits[:exp] + "0" * max(0, exp - len(digits))) if exp > 0 else "0"
        out = intpart
        if frac_len:
            out += "." + "".join(
                digits[exp + i] if 0 <= exp + i < len(digits) else "0" for i in range(frac_len)
            )
    return "-" + out if negative else out
