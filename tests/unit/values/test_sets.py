"""Set order and identity; expected orders printed by terraform 1.11.4 `toset([...])`."""

from __future__ import annotations

from engine.values import (
    NUMBER,
    STRING,
    Value,
    boolean,
    list_,
    number,
    object_,
    set_,
    string,
    unknown,
)


def test_strings_lexical_by_bytes() -> None:
    s = set_([string(x) for x in ["b", "B", "a", "é", "10", "9", "a"]])
    assert [e.v for e in s.v] == ["10", "9", "B", "a", "b", "é"]


def test_numbers_numeric_with_negative_zero() -> None:
    s = set_([number(3), number(1), number(2), number("1.5"), number(-1), number(1)])
    assert [e.v for e in s.v] == [-1, 1, 1.5, 2, 3]
    z = set_([number(0), Value(NUMBER, -0.0)])
    assert [repr(e.v) for e in z.v] == ["-0.0", "0"]


def test_bools_and_structures() -> None:
    assert [e.v for e in set_([boolean(True), boolean(False)]).v] == [False, True]
    ls = set_([list_([number(1)]), list_([number(0)])])
    assert [e.v[0].v for e in ls.v] == [0, 1]
    objs = set_([object_({"a": number(1)}), object_({"a": number(0)})])
    assert [e.v["a"].v for e in objs.v] == [0, 1]


def test_unknowns_kept_and_last() -> None:
    s = set_([unknown(STRING), string("a"), unknown(STRING)])
    assert len(s.v) == 3
    assert s.v[0] == string("a")
    assert not s.v[1].is_known and not s.v[2].is_known
