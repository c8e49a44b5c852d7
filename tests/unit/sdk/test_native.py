from __future__ import annotations

from fractions import Fraction

import pytest

from engine.plugin.sdk.native import UNKNOWN, state_from_json, to_native, to_value
from engine.values import BOOL, NUMBER, STRING, ListType, MapType, ObjectType, SetType

T = ObjectType({"n": NUMBER, "s": STRING, "b": BOOL, "l": ListType(STRING),
                "m": MapType(NUMBER), "set": SetType(STRING)})


def test_round_trip_keeps_python_data() -> None:
    data = {"n": 3, "s": "x", "b": True, "l": ["a", "b"], "m": {"k": Fraction(1, 2)},
            "set": ["b", "a"]}
    v = to_value(data, T)
    back = to_native(v)
    assert back["n"] == 3 and back["m"] == {"k": Fraction(1, 2)}
    assert back["set"] == ["a", "b"]  # canonical set order


def test_missing_attributes_are_null_and_unknown_survives() -> None:
    v = to_value({"n": UNKNOWN}, T)
    assert v.v["n"].is_known is False
    assert v.v["s"].is_null
    assert to_native(v)["n"] is UNKNOWN


def test_wrong_types_name_the_path() -> None:
    with pytest.raises(TypeError, match=r"\.l\[1\]"):
        to_value({"l": ["a", 1]}, T)
    with pytest.raises(TypeError, match="no attribute 'zz'"):
        to_value({"zz": 1}, T)


def test_state_from_json_is_lenient() -> None:
    v = state_from_json('{"n": 1.5, "gone": true, "l": ["x"]}', T)
    assert to_native(v)["n"] == Fraction(3, 2)
    assert to_native(v)["l"] == ["x"]
    assert v.v["b"].is_null
