"""Number semantics; every expected string was printed by terraform 1.11.4 (`terraform console`)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.values.numbers import (
    NumberError,
    add,
    div,
    format_g10,
    format_number,
    mod,
    mul,
    neg,
    normalize,
    parse_number,
    sub,
)

THIRD = "0." + "3" * 154 + "5"


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("1", "1"),
        ("3.0", "3"),
        ("1.50", "1.5"),
        ("0.1", "0.1"),
        ("-0.5", "-0.5"),
        ("1e30", "1" + "0" * 30),
        ("1e-30", "0." + "0" * 29 + "1"),
        ("1e300", "1" + "0" * 300),
        ("1e-400", "0." + "0" * 399 + "1"),
        ("1e400", "1" + "0" * 400),
        ("1e21", "1000000000000000000000"),
        ("2e-5", "0.00002"),
        ("1e-7", "0.0000001"),
        ("2.5e-3", "0.0025"),
        ("123456789012345678901234567890", "123456789012345678901234567890"),
        ("+5", "5"),
        (".5", "0.5"),
        ("5.", "5"),
        ("-.5e1", "-5"),
        ("1E2", "100"),
        ("1p3", "8"),
        ("Inf", "+Inf"),
        ("-inf", "-Inf"),
    ],
)
def test_parse_and_format(text: str, printed: str) -> None:
    assert format_number(parse_number(text)) == printed


@pytest.mark.parametrize("bad", ["", " 1", "0x10", "1_0", ".", "1e", "abc", "1.2.3"])
def test_parse_rejects(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_number(bad)


def test_division_and_rounding() -> None:
    assert format_number(div(1, 3)) == THIRD
    assert format_number(div(2, 3)) == "0." + "6" * 153 + "7"
    assert format_number(div(-1, 3)) == "-" + THIRD
    assert format_number(add(parse_number("0.1"), parse_number("0.2"))) == "0.3"
    assert div(10, 4) == Fraction(5, 2)
    assert format_number(mul(parse_number("1e-400"), parse_number("1e400"))) == "1"
    assert isinstance(div(6, 3), int)


def test_payload_is_rounded_to_512_bits() -> None:
    big = (1 << 600) + 1
    n = normalize(big)
    assert isinstance(n, int) and n == 1 << 600
    q = div(1, 3)
    assert isinstance(q, Fraction) and q.numerator.bit_length() <= 512
    assert q.denominator & (q.denominator - 1) == 0


def test_infinities_and_negative_zero() -> None:
    # terraform: 1/0 => +Inf, -1/0 => -Inf, 1/0+1 => +Inf, -0 => -0, 0 * -1 => -0
    assert format_number(div(1, 0)) == "+Inf"
    assert format_number(div(-1, 0)) == "-Inf"
    assert format_number(add(div(1, 0), 1)) == "+Inf"
    assert format_number(neg(0)) == "-0"
    assert format_number(mul(0, -1)) == "-0"
    assert neg(0) == 0


@pytest.mark.parametrize(
    ("op", "message"),
    [
        (lambda: div(0, 0), "can't divide zero by zero or infinity by infinity"),
        (lambda: sub(div(1, 0), div(1, 0)), "can't subtract infinity from itself"),
        (lambda: add(div(1, 0), div(-1, 0)), "can't compute sum of opposing infinities"),
        (lambda: mul(0, div(1, 0)), "can't multiply zero by infinity"),
    ],
)
def test_undefined_operations(op: object, message: str) -> None:
    with pytest.raises(NumberError) as exc:
        op()  # type: ignore[operator]
    assert exc.value.message == message


def test_modulo_like_cty() -> None:
    # terraform: -7 % 3 => -1, 7 % -3 => 1, -7.5 % 2 => -1.5, 5.5 % 2 => 1.5, 1 % 0 => 1
    assert mod(-7, 3) == -1
    assert mod(7, -3) == 1
    assert format_number(mod(parse_number("-7.5"), 2)) == "-1.5"
    assert format_number(mod(parse_number("5.5"), 2)) == "1.5"
    assert mod(1, 0) == 1
    assert mod(9, 3) == 0


def test_g10_hash_format() -> None:
    assert format_g10(parse_number("1e30")) == "1e+30"
    assert format_g10(parse_number("0.000001")) == "1e-06"
    assert format_g10(123456789012345678901234567890) == "1.23456789e+29"
    assert format_g10(div(1, 3)) == "0.3333333333"
    assert format_g10(15) == "15"
