from __future__ import annotations

import base64

from engine.plugin import protocol as p
from engine.plugin.sdk import UNKNOWN, SDKProvider
from providers.random import RandomProvider
from providers.random.bcrypt_ import bcrypt_check, bcrypt_hash
from providers.random.shuffle import shuffle
from providers.random.strings import LOWER, NUMERIC, UPPER, generate
from tests.unit.sdk.helpers import create, native, plan

PROV = SDKProvider(RandomProvider())


def _import(type_name: str, id: str) -> p.ImportResourceStateResponse:
    return PROV.import_resource_state(p.ImportResourceStateRequest(type_name, id))


def test_random_integer_in_range_and_import_format() -> None:
    s = native(create(PROV, "random_integer", {"min": 3, "max": 5}))
    assert 3 <= s["result"] <= 5 and s["id"] == str(s["result"])
    got = _import("random_integer", "15,1,100,seed")
    assert not got.diagnostics
    assert native(got.imported_resources[0].state) == {
        "id": "15", "keepers": None, "max": 100, "min": 1, "result": 15, "seed": "seed"}
    assert _import("random_integer", "15,1").diagnostics.has_errors


def test_random_integer_seed_is_deterministic() -> None:
    a = native(create(PROV, "random_integer", {"min": 1, "max": 10**9, "seed": "x"}))
    b = native(create(PROV, "random_integer", {"min": 1, "max": 10**9, "seed": "x"}))
    assert a["result"] == b["result"]


def test_keepers_change_forces_replacement() -> None:
    state = create(PROV, "random_pet", {"keepers": {"a": "1"}})
    same = plan(PROV, "random_pet", {"keepers": {"a": "1"}}, prior=state)
    assert same.requires_replace == []
    changed = plan(PROV, "random_pet", {"keepers": {"a": "2"}}, prior=state)
    assert [str(x) for x in changed.requires_replace] == ["keepers"]


def test_random_pet_defaults_and_prefix() -> None:
    planned = native(plan(PROV, "random_pet", {}).planned_state)
    assert planned["length"] == 2 and planned["separator"] == "-" and planned["id"] is UNKNOWN
    s = native(create(PROV, "random_pet", {"length": 3, "prefix": "p", "separator": "_"}))
    assert s["id"].startswith("p_") and len(s["id"].split("_")) == 4


def test_random_id_encodings_and_import() -> None:
    s = native(create(PROV, "random_id", {"byte_length": 8, "prefix": "x-"}))
    raw = base64.urlsafe_b64decode(s["id"] + "=")
    assert len(raw) == 8 and s["hex"] == "x-" + raw.hex()
    assert s["dec"] == "x-" + str(int.from_bytes(raw, "big"))
    got = native(_import("random_id", "pre,p-9hUg").imported_resources[0].state)
    assert got["byte_length"] == 4 and got["prefix"] == "pre" and got["b64_url"] == "prep-9hUg"


def test_random_string_classes_and_minimums() -> None:
    s = native(create(PROV, "random_string", {"length": 16, "special": False,
                                               "min_numeric": 4, "min_upper": 4}))
    r = s["result"]
    assert len(r) == 16 and s["id"] == r
    assert sum(c in NUMERIC for c in r) >= 4 and sum(c in UPPER for c in r) >= 4
    assert all(c in NUMERIC + UPPER + LOWER for c in r)
    assert s["number"] is True and s["numeric"] is True
    only_lower = generate(10, upper=False, numeric=False, special=False)
    assert set(only_lower) <= set(LOWER)


def test_random_string_validation_points_at_length() -> None:
    from engine.plugin.sdk import to_value
    from tests.unit.sdk.helpers import object_type

    cfg = to_value({"length": 2, "min_upper": 3}, object_type(PROV, "random_string"))
    resp = PROV.validate_resource_config(p.ValidateResourceConfigRequest("random_string", cfg))
    assert resp.diagnostics.has_errors
    assert str(resp.diagnostics.items[0].attribute_path) == "length"  # type: ignore[attr-defined]


def test_random_password_is_hashed_and_imported() -> None:
    s = native(create(PROV, "random_password", {"length": 12}))
    assert s["id"] == "none" and len(s["result"]) == 12
    assert bcrypt_check(s["result"], s["bcrypt_hash"])
    schema = PROV.get_provider_schema().resource_types["random_password"]
    assert schema.version == 3 and schema.block.attributes["result"].sensitive
    got = native(_import("random_password", "secret").imported_resources[0].state)
    assert got["result"] == "secret" and got["length"] == 6 and got["id"] == "none"


def test_bcrypt_known_vectors() -> None:
    # OpenBSD's test vectors
    assert bcrypt_check("U*U", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW")
    assert bcrypt_check("", "$2a$06$DCq7YPn5Rq63x1Lad4cll.TV4S6ytwfsfvkgY8jIucDrjc8deX1s.")
    assert not bcrypt_check("U*V", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW")
    h = bcrypt_hash("pw", cost=4)
    assert h.startswith("$2a$04$") and len(h) == 60 and bcrypt_check("pw", h)


def test_shuffle_counts_and_seed() -> None:
    assert sorted(shuffle(["a", "b", "c"], None, None)) == ["a", "b", "c"]
    assert len(shuffle(["a", "b"], 5, None)) == 5
    assert shuffle(list("abcdefgh"), None, "s") == shuffle(list("abcdefgh"), None, "s")
    s = native(create(PROV, "random_shuffle", {"input": ["a", "b", "c"], "result_count": 2}))
    assert len(s["result"]) == 2 and s["id"] == "-"


def test_random_uuid_shape_and_import() -> None:
    s = native(create(PROV, "random_uuid", {}))
    assert len(s["result"]) == 36 and s["id"] == s["result"]
    assert _import("random_uuid", "nope").diagnostics.has_errors


def test_upgrade_old_random_string_state() -> None:
    old = b'{"id":"abc","length":3,"number":false,"result":"abc","special":true,' \
          b'"upper":true,"lower":true,"min_numeric":0,"min_upper":0,"min_lower":0,' \
          b'"min_special":0,"override_special":"","keepers":null}'
    resp = PROV.upgrade_resource_state(p.UpgradeResourceStateRequest(
        "random_string", 1, raw_state_json=old))
    assert not resp.diagnostics
    got = native(resp.upgraded_state)
    assert got["numeric"] is False and got["result"] == "abc"
