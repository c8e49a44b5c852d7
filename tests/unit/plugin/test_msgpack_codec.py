"""The msgpack/JSON DynamicValue codec against the bytes cty writes."""

from __future__ import annotations

from fractions import Fraction

import msgpack
import pytest

from engine.plugin.msgpack_codec import (
    CodecError,
    decode,
    decode_dynamic_value,
    decode_json,
    encode,
    encode_json,
)
from engine.values import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    ListType,
    MapType,
    ObjectType,
    SetType,
    TupleType,
    Value,
    boolean,
    list_,
    map_,
    null,
    number,
    object_,
    set_,
    string,
    tuple_,
    unknown,
)
from engine.values.refinement import refine, refine_not_null, value_range


def test_unknown_is_extension_zero() -> None:
    assert encode(unknown(STRING), STRING) == b"\xd4\x00\x00"
    assert encode(unknown(DYNAMIC), DYNAMIC) == b"\xd4\x00\x00"
    v = decode(b"\xd4\x00\x00", ListType(STRING))
    assert not v.is_known and v.type == ListType(STRING)


def test_any_other_extension_reads_as_unknown() -> None:
    data = msgpack.packb(msgpack.ExtType(7, b"\x81\x01\xc3"))
    v = decode(data, NUMBER)
    assert not v.is_known and v.refinement is None


def test_null_is_nil() -> None:
    assert encode(null(STRING), STRING) == b"\xc0"
    assert decode(b"\xc0", MapType(NUMBER)).is_null


@pytest.mark.parametrize(
    ("n", "wire"),
    [
        (0, 0),
        (-5, -5),
        ((1 << 63) - 1, (1 << 63) - 1),
        (-(1 << 63), -(1 << 63)),
        (1 << 70, float(1 << 70)),  # beyond int64 but exactly a float64
        (Fraction(1, 2), 0.5),
        (Fraction(3, 1 << 60), 3 / (1 << 60)),
        (float("inf"), float("inf")),
        (-0.0, 0),
    ],
)
def test_numbers_as_cty_writes_them(n: int | Fraction | float, wire: object) -> None:
    got = msgpack.unpackb(encode(number(n), NUMBER))
    assert got == wire and type(got) is type(wire)


def test_inexact_numbers_are_decimal_strings() -> None:
    third = number("0.1")  # not a float64: 512-bit binary fraction
    raw = msgpack.unpackb(encode(third, NUMBER))
    assert raw == "0.1"  # shortest text that reads back as the same 512-bit number
    assert decode(encode(third, NUMBER), NUMBER) == third
    big = number((1 << 80) + 1)  # not int64, not exactly float64
    assert msgpack.unpackb(encode(big, NUMBER)) == str((1 << 80) + 1)
    assert decode(encode(big, NUMBER), NUMBER) == big


def test_number_decoding_accepts_all_forms() -> None:
    assert decode(msgpack.packb(7), NUMBER) == number(7)
    assert decode(msgpack.packb(1.5), NUMBER) == number(Fraction(3, 2))
    assert decode(msgpack.packb("12.25"), NUMBER) == number(Fraction(49, 4))
    assert decode(msgpack.packb(1 << 64 - 1), NUMBER) == number(1 << 64 - 1)
    with pytest.raises(CodecError, match="invalid number"):
        decode(msgpack.packb("twelve"), NUMBER)


def test_object_has_every_attribute_sorted() -> None:
    t = ObjectType({"b": STRING, "a": NUMBER, "c": ListType(STRING)})
    v = Value(t, {"a": number(1), "b": null(STRING), "c": Value(ListType(STRING), [])})
    data = encode(v, t)
    assert data == msgpack.packb({"a": 1, "b": None, "c": []})
    assert list(msgpack.unpackb(data)) == ["a", "b", "c"]
    assert decode(data, t) == v


def test_object_attribute_errors_name_the_path() -> None:
    t = ObjectType({"tags": MapType(STRING)})
    bad = Value(t, {"tags": Value(MapType(STRING), {"k": number(1)})})
    with pytest.raises(CodecError, match=r"\.tags\['k'\]: string required"):
        encode(bad, t)
    with pytest.raises(CodecError, match="missing attribute 'tags'"):
        decode(msgpack.packb({}), t)
    with pytest.raises(CodecError, match="unsupported attribute 'x'"):
        decode(msgpack.packb({"tags": None, "x": 1}), t)


def test_collections_round_trip() -> None:
    t = ObjectType(
        {
            "l": ListType(NUMBER),
            "s": SetType(STRING),
            "m": MapType(BOOL),
            "t": TupleType([STRING, NUMBER]),
        }
    )
    v = object_(
        {
            "l": list_([number(3), unknown(NUMBER)]),
            "m": map_({"z": boolean(True), "y": null(BOOL)}),
            "s": set_([string("b"), string("a")]),
            "t": tuple_([string("x"), number(2)]),
        }
    )
    back = decode(encode(v, t), t)
    assert back == v
    assert [e.v for e in back.v["s"].v] == ["a", "b"]


def test_dynamic_values_are_type_value_pairs() -> None:
    v = list_([string("a")])
    data = encode(v, DYNAMIC)
    raw = msgpack.unpackb(data, raw=False)
    assert raw == [b'["list","string"]', ["a"]]
    assert decode(data, DYNAMIC) == v
    # null and unknown dynamic values are plain
    assert encode(null(DYNAMIC), DYNAMIC) == b"\xc0"
    assert decode(b"\xc0", DYNAMIC).is_null
    # a str type JSON is accepted too
    assert decode(msgpack.packb(['"number"', 4]), DYNAMIC) == number(4)


def test_marks_do_not_travel() -> None:
    v = string("secret").mark("sensitive")
    assert decode(encode(v, STRING), STRING) == string("secret")


def test_known_value_of_wrong_kind_is_an_error() -> None:
    with pytest.raises(CodecError, match="bool required"):
        encode(string("x"), BOOL)
    with pytest.raises(CodecError, match="EOF"):
        decode(b"", STRING)


def test_json_form() -> None:
    t = ObjectType({"id": STRING, "n": NUMBER, "tags": MapType(STRING)})
    v = decode_json(b'{"id": "x", "n": 1.5}', t)
    assert v.v["id"] == string("x") and v.v["n"] == number(Fraction(3, 2))
    assert v.v["tags"].is_null
    assert encode_json(object_({"a": number(1)})) == b'{"a":1}'
    with pytest.raises(CodecError):
        decode_json(b'{"id": 1, "zzz": 2}', t)


def test_dynamic_value_picks_present_form() -> None:
    assert decode_dynamic_value(b"", b"", STRING).is_null
    assert decode_dynamic_value(msgpack.packb("a"), b"", STRING) == string("a")
    assert decode_dynamic_value(b"", b'"j"', STRING) == string("j")


# ------------------------------------------------------------------------------ refinements
#: What terraform 1.11 sends a provider for `"ab-${timestamp()}"` (captured from a plan): the
#: extension type 12 (fixext 8) holding {1: false (not null), 2: "ab-"}.
TERRAFORM_REFINED_PREFIX = bytes.fromhex("d70c8201c202a361622d")


def test_refined_unknown_as_terraform_sends_it() -> None:
    v = decode(TERRAFORM_REFINED_PREFIX, STRING)
    rng = value_range(v)
    assert not v.is_known and rng.definitely_not_null() and rng.string_prefix() == "ab-"
    assert encode(v, STRING) == TERRAFORM_REFINED_PREFIX


def test_refined_numbers_and_lengths_round_trip() -> None:
    n = refine(unknown(NUMBER)).not_null().number_lower_bound(0, True)
    n = n.number_upper_bound(Fraction(5, 2), False).new_value()
    wire = encode(n, NUMBER)
    assert msgpack.unpackb(wire[3:], strict_map_key=False) == {1: False, 3: [0, True], 4: [2.5, False]}
    back = value_range(decode(wire, NUMBER))
    assert back.number_lower_bound() == (0, True)
    assert back.number_upper_bound() == (Fraction(5, 2), False)
    lst = refine(unknown(ListType(STRING))).length_lower_bound(1).length_upper_bound(3)
    got = value_range(decode(encode(lst.new_value(), ListType(STRING)), ListType(STRING)))
    assert (got.length_lower_bound(), got.length_upper_bound()) == (1, 3)


def test_unrefined_and_dynamic_unknowns_stay_extension_zero() -> None:
    assert encode(unknown(STRING), STRING) == b"\xd4\x00\x00"
    refined = refine_not_null(unknown(STRING))
    assert encode(object_({"a": refined}), DYNAMIC)  # its own type carries the refinement
    assert decode(TERRAFORM_REFINED_PREFIX, DYNAMIC).refinement is None


def test_long_prefixes_are_cut_to_256_bytes() -> None:
    v = refine(unknown(STRING)).string_prefix_full("a-" * 200).new_value()
    prefix = value_range(decode(encode(v, STRING), STRING)).string_prefix()
    assert len(prefix.encode()) <= 256 and ("a-" * 200).startswith(prefix)


def test_refinements_that_name_a_null_or_nothing_known() -> None:
    is_null = msgpack.packb(msgpack.ExtType(12, msgpack.packb({1: True})))
    assert decode(is_null, STRING).is_null
    other_keys = msgpack.packb(msgpack.ExtType(12, msgpack.packb({99: "x"})))
    assert decode(other_keys, STRING).refinement is None


def test_malformed_refinements_are_codec_errors() -> None:
    for payload in ({1: "no"}, {3: [1]}, {5: -1}, {5: 3, 6: 1}):
        data = msgpack.packb(msgpack.ExtType(12, msgpack.packb(payload)))
        with pytest.raises(CodecError):
            decode(data, ListType(STRING) if 5 in payload else NUMBER)
