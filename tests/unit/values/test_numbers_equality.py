"""Number equality follows cty's rawNumberEqual (checked against terraform 1.11.4 console)."""

from __future__ import annotations

from engine.values.numbers import add, div, equal, parse_number


def test_decimal_text_equality() -> None:
    # terraform: 0.1 + 0.2 == 0.3 is true
    assert equal(add(parse_number("0.1"), parse_number("0.2")), parse_number("0.3"))


def test_integers_and_fractions() -> None:
    assert equal(1, parse_number("1.0"))
    assert not equal(1, parse_number("1.5"))
    assert not equal(div(1, 3), parse_number("0.3333333333333333"))
    assert equal(parse_number("-0"), 0)
