"""Go's encoding/json output through the one writer, its syntax errors, and bcrypt."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from engine.gocompat.bcrypt import (
    BcryptError,
    compare_hash_and_password,
    encode_salt,
    generate_from_password,
)
from engine.gocompat.json import GoJSONWriter, RawNumber, dumps, loads, quote, sort_keys
from engine.gocompat.json_syntax import go_syntax_error


def test_quote_escapes_like_go() -> None:
    # Go 1.22+ writes \b and \f as short escapes (terraform 1.11's state files do)
    assert quote("\b\f\x01\u2029<>&") == '"\\b\\f\\u0001\\u2029\\u003c\\u003e\\u0026"'
    assert quote("é\u2028\ud800") == '"é\\u2028\\ufffd"'
    assert quote('"\\\n\r\t') == '"\\"\\\\\\n\\r\\t"'


def test_ordered_dumps_is_marshal_indent() -> None:
    assert dumps({"b": [], "a": {}}) == '{\n  "b": [],\n  "a": {}\n}'
    assert dumps({"x": [1, {"y": None}]}, indent="\t", prefix="> ") == (
        '{\n> \t"x": [\n> \t\t1,\n> \t\t{\n> \t\t\t"y": null\n> \t\t}\n> \t]\n> }')
    assert dumps([1, RawNumber("2.50"), True, False, None, "s"], indent=None) == (
        '[1,2.50,true,false,null,"s"]')
    assert dumps((1.0, 2.5, 10**30), indent=None) == "[1,2.5,1000000000000000000000000000000]"


def test_loads_keeps_number_text() -> None:
    data = loads('{"n": 1.50, "i": 12345678901234567890123}')
    assert data == {"n": "1.50", "i": "12345678901234567890123"}
    assert all(type(v) is RawNumber for v in data.values())
    assert dumps(data, indent=None) == '{"n":1.50,"i":12345678901234567890123}'
    assert sort_keys({"b": 1, "a": [{"d": 1, "c": 2}]}) == {"a": [{"c": 2, "d": 1}], "b": 1}
    assert list(sort_keys({"b": 1, "a": 2})) == ["a", "b"]


def test_writer_parameters() -> None:
    def fallback(obj: object) -> object:
        if isinstance(obj, (int, Fraction)):
            return RawNumber(f"<{obj}>")
        raise TypeError("no")

    w = GoJSONWriter(sort_keys=True, int_limit=100, fallback=fallback)
    assert w.dumps({"b": 99, "a": 100}) == '{"a":<100>,"b":99}'
    assert w.dumps([Fraction(1, 2)], indent=" ") == "[\n <1/2>\n]"
    with pytest.raises(TypeError):
        w.dumps(object())
    with pytest.raises(ValueError):
        dumps(math.inf)


def test_go_syntax_error_messages_and_offsets() -> None:
    assert go_syntax_error(b'{"a": 1}') is None
    err = go_syntax_error(b'{"a": tru}')
    assert err is not None and err.msg == "invalid character '}' in literal true (expecting 'e')"
    assert err.offset == 10
    err = go_syntax_error(b'{"a": 1')
    assert err is not None and err.msg == "unexpected end of JSON input"


def test_bcrypt_openbsd_vector_and_go_rules() -> None:
    known = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
    assert compare_hash_and_password(known, b"U*U")
    assert not compare_hash_and_password(known, b"U*V")
    assert not compare_hash_and_password("not a hash", b"U*U")
    assert encode_salt(bytes(16)) == "......................"
    fixed = generate_from_password(b"pw", 4, bytes(16))
    assert fixed.startswith("$2a$04$......................") and len(fixed) == 60
    assert generate_from_password(b"pw", 4, bytes(16)) == fixed
    assert compare_hash_and_password(fixed, b"pw")
    assert generate_from_password(b"pw", 3).startswith("$2a$10$")
    with pytest.raises(BcryptError, match=r"cost 32 is outside allowed range \(4,31\)"):
        generate_from_password(b"pw", 32)
    with pytest.raises(BcryptError, match="password length exceeds 72 bytes"):
        generate_from_password(b"x" * 73, 4)
