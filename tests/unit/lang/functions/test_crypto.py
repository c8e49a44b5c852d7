"""Hash and crypto functions. Expected values and messages were produced by the real terraform
v1.11.4 (`terraform console`); bcrypt's digest is checked in tests/unit/gocompat."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.lang import EvalContext
from engine.lang.functions import function_table
from engine.lang.functions.base import call
from engine.lang.functions.crypto import FUNCTIONS, parse_uuid
from engine.values import STRING, string
from tests.unit.lang.helpers import default_vars, only_error, show, value

FILES = Path(__file__).resolve().parents[3] / "conformance" / "cases" / "files"


def fctx() -> EvalContext:
    return EvalContext(default_vars(), function_table(str(FILES.parent)))


CASES = [
    ('md5("é")', '"66ddcd97cfdeabb2f6fb8a999b4bc76f"'),
    ('sha1("")', '"da39a3ee5e6b4b0d3255bfef95601890afd80709"'),
    ('sha256("hello world")', '"b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"'),
    ('base64sha512("x")',
     '"pKvURIxJVi2CgRXROh/M6pJ/UrTVRZKX+LQ+QtqJI4vBNibkPcs43bCCSIkn7JBPtCBXRDmD6IWFF51QVRr+Yg=="'),
    ('base64sha256("")', '"47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="'),
    ('uuidv5("dns", "www.terraform.io")', '"a5008fae-b28c-5ba5-96cd-82b4c53552d6"'),
    ('uuidv5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "x")', '"05b16a01-46c6-56dd-bd6e-c6dfb4a1427a"'),
    ('uuidv5("6ba7b8109dad11d180b400c04fd430c8", "x")', '"05b16a01-46c6-56dd-bd6e-c6dfb4a1427a"'),
    ('uuidv5("{6ba7b810-9dad-11d1-80b4-00c04fd430c8}", "x")', '"05b16a01-46c6-56dd-bd6e-c6dfb4a1427a"'),
    ('rsadecrypt(file("files/secret.b64"), file("files/key.pem"))', '"top secret"'),
]


@pytest.mark.parametrize(("src", "want"), CASES)
def test_crypto_values(src: str, want: str) -> None:
    assert show(src, fctx()) == want


ERRORS = [
    ('uuidv5("foo", "x")', "Error in function call",
     'Call to function "uuidv5" failed: uuidv5() doesn\'t support namespace foo (invalid UUID length: 3).'),
    ('uuidv5("6ba7b810-9dad-11d1-80b4-00c04fd430cz", "x")', "Error in function call",
     'Call to function "uuidv5" failed: uuidv5() doesn\'t support namespace '
     '6ba7b810-9dad-11d1-80b4-00c04fd430cz (invalid UUID format).'),
    ('bcrypt("x", 32)', "Error in function call",
     'Call to function "bcrypt" failed: error occured generating password crypto/bcrypt: cost 32 is outside allowed range (4,31).'),
    ('bcrypt("x", 4, 5)', "Error in function call",
     'Call to function "bcrypt" failed: bcrypt() takes no more than two arguments.'),
    ('bcrypt("x", 4.5)', "Error in function call",
     'Call to function "bcrypt" failed: value must be a whole number, between -9223372036854775808 and 9223372036854775807.'),
    ('rsadecrypt("aGVsbG8=", "garbage")', "Invalid function argument",
     'Invalid value for "privatekey" parameter: invalid private key: ssh: no key found.'),
    ('rsadecrypt("!!", "garbage")', "Invalid function argument",
     'Invalid value for "ciphertext" parameter: failed to decode input "!!": cipher text must be base64-encoded.'),
    ('rsadecrypt("aGVsbG8=", file("files/key.pem"))', "Error in function call",
     'Call to function "rsadecrypt" failed: failed to decrypt: crypto/rsa: decryption error.'),
]


@pytest.mark.parametrize(("src", "summary", "detail"), ERRORS)
def test_crypto_errors(src: str, summary: str, detail: str) -> None:
    d = only_error(src, fctx())
    assert (d.summary, d.detail) == (summary, detail)


def test_bcrypt_result_shape_and_low_cost_default() -> None:
    c = fctx()
    assert re.fullmatch(r"\$2a\$10\$[./A-Za-z0-9]{53}", value('bcrypt("pw")', c).v)
    assert value('bcrypt("pw", 3)', c).v.startswith("$2a$10$")
    assert value('bcrypt("pw", 5)', c).v.startswith("$2a$05$")


def test_uuid_is_impure_and_random() -> None:
    fn = {f.name: f for f in FUNCTIONS}["uuid"]
    assert fn.impure
    assert not call(fn, [], plan_phase=True).is_known
    a, b = call(fn, []).v, call(fn, []).v
    assert a != b and re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", a)


def test_parse_uuid_forms() -> None:
    assert str(parse_uuid("urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8")) == "6ba7b810-9dad-11d1-80b4-00c04fd430c8"
    with pytest.raises(ValueError, match="invalid UUID format"):
        parse_uuid("6ba7b810x9dad-11d1-80b4-00c04fd430c8")


def test_unknown_and_sensitive_propagate() -> None:
    c = fctx()
    assert show("sha256(var.us)", c) == "(known after apply)"
    assert value("md5(var.secret)", c).is_sensitive
    assert value("md5(var.secret)", c).type == STRING
    assert call({f.name: f for f in FUNCTIONS}["sha1"], [string("a")]).v == "86f7e437faa5a7fce15d1ddcb9eaeaea377667b8"
