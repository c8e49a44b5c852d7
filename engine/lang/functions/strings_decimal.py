"""Decimal rendering of exact binary numbers, as Go's `math/big.Float` formats them.

`format`'s `%e %E %f %g %G %v` verbs hand a 512-bit `big.Float` to Go's formatter; this module
reproduces that: the exact decimal expansion of the number, Go's rounding (half to even only on
an exact tie, and never up when rounding to zero digits), the shortest form that still reads
back as the same 512-bit number, and the `fmtE`/`fmtF`/`%g` layouts. `render_float` then applies
Go's `big.Float.Format` width and flag handling; `render_int` applies `big.Int.Format`'s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

PRECISION_BITS = 512
"""Mantissa precision of cty numbers (decimal literals are parsed at this precision)."""


@dataclass(slots=True)
class Decimal:
    """A non-negative decimal `0.<mant> * 10**exp`; `mant` has no trailing zeros ("" is 0)."""

    mant: str
    exp: int

    def at(self, i: int) -> str:
        return self.mant[i] if 0 <= i < len(self.mant) else "0"

    def round(self, n: int) -> None:
        if n < 0 or n >= len(self.mant):
            return
        if self._should_round_up(n):
            self.round_up(n)
        else:
            self.round_down(n)

    def _should_round_up(self, n: int) -> bool:
        if self.mant[n] == "5" and n + 1 == len(self.mant):
            return n > 0 and (ord(self.mant[n - 1]) - 48) & 1 == 1
        return self.mant[n] >= "5"

    def round_up(self, n: int) -> None:
        if n < 0 or n >= len(self.mant):
            return
        while n > 0 and self.mant[n - 1] >= "9":
            n -= 1
        if n == 0:
            self.mant = "1"
            self.exp += 1
            return
        self.mant = self.mant[: n - 1] + chr(ord(self.mant[n - 1]) + 1)

    def round_down(self, n: int) -> None:
        if n < 0 or n >= len(self.mant):
            return
        self.mant = self.mant[:n].rstrip("0")


def decimal_of(value: Fraction) -> Decimal:
    """The exact decimal expansion of a non-negative dyadic rational."""
    if value == 0:
        return Decimal("", 0)
    num, den = value.numerator, value.denominator
    shift = den.bit_length() - 1  # den is a power of two
    if den != 1 << shift:
        raise ValueError("not a binary fraction")
    digits = str(num * 5**shift)
    exp = len(digits) - shift
    return Decimal(digits.rstrip("0"), exp)


def _split(value: Fraction) -> tuple[int, int]:
    """`(mant, exp)` with `value == mant * 2**exp` and `mant` odd (value > 0)."""
    num, den = value.numerator, value.denominator
    exp = -(den.bit_length() - 1)
    tz = (num & -num).bit_length() - 1
    return num >> tz, exp + tz


def round_shortest(d: Decimal, value: Fraction, prec: int = PRECISION_BITS) -> None:
    """Shorten `d` (the exact expansion of `value`) to the fewest digits that still identify
    `value` among numbers of `prec` mantissa bits (Go's `roundShortest`)."""
    if not d.mant:
        return
    mant, exp = _split(value)
    s = mant.bit_length() - (prec + 1)
    if s < 0:
        mant <<= -s
    elif s > 0:
        mant >>= s
    exp += s
    lower = decimal_of(Fraction(mant - 1) * Fraction(2) ** exp)
    upper = decimal_of(Fraction(mant + 1) * Fraction(2) ** exp)
    inclusive = mant & 2 == 0
    for i, m in enumerate(d.mant):
        lo = lower.at(i)
        up = upper.at(i)
        okdown = lo != m or (inclusive and i + 1 == len(lower.mant))
        okup = m != up and (inclusive or chr(ord(m) + 1) < up or i + 1 < len(upper.mant))
        if okdown and okup:
            d.round(i + 1)
            return
        if okdown:
            d.round_down(i + 1)
            return
        if okup:
            d.round_up(i + 1)
            return


def _fmt_e(fmt: str, prec: int, d: Decimal) -> str:
    out = d.mant[0] if d.mant else "0"
    if prec > 0:
        frac = d.mant[1 : prec + 1]
        out += "." + frac + "0" * (prec - len(frac))
    exp = d.exp - 1 if d.mant else 0
    sign = "-" if exp < 0 else "+"
    return f"{out}{fmt}{sign}{abs(exp):02d}"


def _fmt_f(prec: int, d: Decimal) -> str:
    if d.exp > 0:
        whole = d.mant[: d.exp]
        out = whole + "0" * (d.exp - len(whole))
    else:
        out = "0"
    if prec > 0:
        out += "." + "".join(d.at(d.exp + i) for i in range(prec))
    return out


def float_text(value: Fraction | int, fmt: str, prec: int) -> str:
    """Go's `big.Float.Text(fmt, prec)` for a finite number (fmt in e E f g G; prec < 0 is
    shortest), sign included when negative."""
    value = Fraction(value)
    neg = value < 0
    mag = -value if neg else value
    d = decimal_of(mag)
    shortest = prec < 0
    if shortest:
        round_shortest(d, mag)
        if fmt in "eE":
            prec = len(d.mant) - 1
        elif fmt == "f":
            prec = max(len(d.mant) - d.exp, 0)
        else:
            prec = len(d.mant)
    elif fmt in "eE":
        d.round(1 + prec)
    elif fmt == "f":
        d.round(d.exp + prec)
    else:
        if prec == 0:
            prec = 1
        d.round(prec)
    if fmt in "eE":
        body = _fmt_e(fmt, prec, d)
    elif fmt == "f":
        body = _fmt_f(prec, d)
    else:
        eprec = prec
        if eprec > len(d.mant) and len(d.mant) >= d.exp:
            eprec = len(d.mant)
        if shortest:
            eprec = 6
        exp = d.exp - 1
        if exp < -4 or exp >= eprec:
            if prec > len(d.mant):
                prec = len(d.mant)
            body = _fmt_e("e" if fmt == "g" else "E", prec - 1, d)
        else:
            if prec > d.exp:
                prec = len(d.mant)
            body = _fmt_f(max(prec - d.exp, 0), d)
    return ("-" if neg else "") + body


def number_text(value: object, fmt: str, prec: int) -> str:
    """`float_text`, also accepting infinities (`+Inf`, `-Inf`) as Go prints them."""
    if isinstance(value, float):
        if math.isinf(value):
            return "+Inf" if value > 0 else "-Inf"
        return "-" + float_text(0, fmt, prec)  # negative zero
    assert isinstance(value, (int, Fraction))
    return float_text(value, fmt, prec)


@dataclass(slots=True)
class Flags:
    """The flags, width and precision of one format verb (-1: not given)."""

    zero: bool = False
    sharp: bool = False
    plus: bool = False
    minus: bool = False
    space: bool = False
    width: int = -1
    prec: int = -1


def render_float(value: object, verb: str, f: Flags) -> str:
    """Go's `fmt.Sprintf("%<flags><width>.<prec><verb>", *big.Float)` for e E f g G."""
    prec = f.prec
    if prec < 0:
        prec = -1 if verb in "gG" else 6
    text = number_text(value, verb, prec)
    is_inf = text.endswith("Inf")
    sign = ""
    if text.startswith("-"):
        sign, text = "-", text[1:]
    elif text.startswith("+"):
        sign, text = ("+" if not f.space else " "), text[1:]
    elif f.plus:
        sign = "+"
    elif f.space:
        sign = " "
    padding = max(f.width - len(sign) - len(text), 0) if f.width >= 0 else 0
    if f.zero and not is_inf:
        return sign + "0" * padding + text
    if f.minus:
        return sign + text + " " * padding
    return " " * padding + sign + text


_BASES = {"b": 2, "o": 8, "d": 10, "x": 16, "X": 16}


def _digits(n: int, base: int) -> str:
    if base == 10:
        return str(n)
    if base == 16:
        return format(n, "x")
    if base == 8:
        return format(n, "o")
    return format(n, "b")


def render_int(value: int, verb: str, f: Flags) -> str:
    """Go's `fmt.Sprintf` of a `*big.Int` for the verbs b o d x X."""
    sign = "-" if value < 0 else "+" if f.plus else " " if f.space else ""
    prefix = ""
    if f.sharp:
        prefix = {"b": "0b", "o": "0", "x": "0x", "X": "0X"}.get(verb, "")
    digits = _digits(abs(value), _BASES[verb])
    if verb == "X":
        digits = digits.upper()
    zeros = left = right = 0
    if f.prec >= 0:
        if len(digits) < f.prec:
            zeros = f.prec - len(digits)
        elif digits == "0" and f.prec == 0:
            return ""
    length = len(sign) + len(prefix) + zeros + len(digits)
    if f.width >= 0 and length < f.width:
        pad = f.width - length
        if f.minus:
            right = pad
        elif f.zero and f.prec < 0:
            zeros = pad
        else:
            left = pad
    return " " * left + sign + prefix + "0" * zeros + digits + " " * right
