"""The v4 state file: Go-compatible JSON, round trips, and the local persistence policy."""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

from engine.gocompat import json as gojson
from engine.states import (
    CheckResult,
    LocalState,
    OutputValue,
    Resource,
    ResourceInstance,
    ResourceInstanceObject,
    State,
    StateFile,
    read_state,
    write_state,
)
from engine.values import list_, number, object_, string, tuple_
from engine.values.types import NUMBER

# Written by terraform 1.11.4 (apply of outputs x = 1, y = "a<b>&c\u2028").
TERRAFORM_STATE = """{
  "version": 4,
  "terraform_version": "1.11.4",
  "serial": 2,
  "lineage": "4982239a-f3ce-0da7-0ab2-2f33368351ea",
  "outputs": {
    "x": {
      "value": 1,
      "type": "number"
    },
    "y": {
      "value": "a\\u003cb\\u003e\\u0026c\\u2028",
      "type": "string"
    }
  },
  "resources": [],
  "check_results": null
}
"""


def test_gojson_escapes_like_go() -> None:
    assert gojson.dumps("a<b>&c\u2028\x01") == '"a\\u003cb\\u003e\\u0026c\\u2028\\u0001"'
    assert gojson.dumps({"a": [], "b": {}}) == '{\n  "a": [],\n  "b": {}\n}'
    assert gojson.dumps([1, gojson.RawNumber("2.5")], indent=None) == "[1,2.5]"


def test_reads_and_rewrites_terraform_state_byte_for_byte() -> None:
    sf, diags = read_state(TERRAFORM_STATE)
    assert not diags.has_errors and sf is not None
    assert sf.serial == 2 and sf.lineage.startswith("4982239a")
    assert sf.state.outputs["y"].value == string("a<b>&c\u2028")
    assert write_state(sf) == TERRAFORM_STATE


def test_exact_numbers_survive() -> None:
    big = number("123456789012345678901234567890.125")
    st = State(outputs={"n": OutputValue(big), "f": OutputValue(number(Fraction(1, 4)))})
    text = write_state(StateFile(st, lineage="l", serial=1))
    assert '"value": 123456789012345678901234567890.125' in text
    back, _ = read_state(text)
    assert back is not None and back.state.outputs["n"].value == big
    assert back.state.outputs["n"].value.type == NUMBER


def test_resources_are_modelled_and_sorted() -> None:
    obj = ResourceInstanceObject(
        schema_version=1,
        attributes={"id": "x", "n": gojson.RawNumber("3")},
        sensitive_attributes=[[{"type": "get_attr", "value": "id"}]],
        dependencies=["a.b"],
        create_before_destroy=True,
    )
    st = State(
        resources=[
            Resource("managed", "z_t", "b", 'provider["registry.terraform.io/hashicorp/z"]',
                     instances=[ResourceInstance("k2", obj), ResourceInstance("k1", obj)]),
            Resource("data", "a_t", "a", 'provider["registry.terraform.io/hashicorp/a"]',
                     instances=[ResourceInstance(None, ResourceInstanceObject())]),
        ],
        check_results=[CheckResult("output", "output.x", "pass", None)],
    )
    text = write_state(StateFile(st, lineage="l", serial=3))
    doc = json.loads(text)
    assert [r["mode"] for r in doc["resources"]] == ["data", "managed"]
    inst = doc["resources"][1]["instances"]
    assert [i["index_key"] for i in inst] == ["k1", "k2"]
    assert inst[0]["create_before_destroy"] is True
    assert "index_key" not in doc["resources"][0]["instances"][0]
    assert doc["check_results"][0]["objects"] is None
    back, diags = read_state(text)
    assert not diags.has_errors and back is not None
    assert write_state(back) == text


def test_bad_state_is_a_diagnostic() -> None:
    sf, diags = read_state("{not json")
    assert sf is None and diags.has_errors
    sf, diags = read_state('{"version": 3, "modules": "none"}')
    assert sf is None and diags.errors[0].summary == "Invalid state file format"


def test_local_state_policy(tmp_path: Path) -> None:
    path = str(tmp_path / "terraform.tfstate")
    st = State(outputs={"a": OutputValue(tuple_([number(1), string("x")]))})
    ls = LocalState(path)
    sf, diags = ls.write(st)
    assert not diags.has_errors and sf is not None and sf.serial == 1
    assert not os.path.exists(path + ".backup")
    lineage = sf.lineage

    # Same content: nothing written, serial kept.
    ls2 = LocalState(path)
    before = Path(path).read_text()
    sf2, _ = ls2.write(State(outputs={"a": OutputValue(tuple_([number(1), string("x")]))}))
    assert sf2 is not None and sf2.serial == 1 and Path(path).read_text() == before

    # Changed content: serial + 1, same lineage, backup holds the previous file.
    ls3 = LocalState(path)
    m = object_({"k": list_([string("v")])})
    sf3, _ = ls3.write(State(outputs={"a": OutputValue(m, sensitive=True)}))
    assert sf3 is not None and sf3.serial == 2 and sf3.lineage == lineage
    assert Path(path + ".backup").read_text() == before
    doc = json.loads(Path(path).read_text())
    assert doc["outputs"]["a"]["sensitive"] is True
    assert doc["outputs"]["a"]["type"] == ["object", {"k": ["list", "string"]}]
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".tmp-")]


def test_terraform_state_with_resources_round_trips() -> None:
    # Written by terraform 1.11.4: two terraform_data instances (count) with dynamic values
    # and a sensitive attribute; attribute JSON must keep the provider's key order.
    text = (Path(__file__).parent / "terraform_data.tfstate").read_text(encoding="utf-8")
    sf, diags = read_state(text)
    assert not diags.has_errors and sf is not None
    res = sf.state.resources[0]
    assert (res.mode, res.type, res.name) == ("managed", "terraform_data", "a")
    assert [i.index_key for i in res.instances] == [0, 1]
    assert write_state(sf) == text


def test_empty_state_file_is_no_state(tmp_path: Path) -> None:
    path = tmp_path / "terraform.tfstate"
    path.write_text("", encoding="utf-8")  # what taking the lock leaves behind
    ls = LocalState(str(path))
    sf, _ = ls.read()
    assert sf is None
    sf, _ = ls.write(State(outputs={"a": OutputValue(string("x"))}))
    assert sf is not None and sf.serial == 1
    assert not (tmp_path / "terraform.tfstate.backup").exists()



def test_write_file_keeps_the_given_lineage_and_serial(tmp_path: Path) -> None:
    """`LocalState.write_file` (state push): the snapshot is stored as given, the replaced
    file backed up once, and writing the same snapshot again changes nothing."""
    from engine.states.local import LocalState
    from engine.states.state import OutputValue, State, StateFile

    path = tmp_path / "terraform.tfstate"
    written, diags = LocalState(str(path)).write(State())
    assert not diags.has_errors and written is not None and written.serial == 1
    original = path.read_text()
    storage = LocalState(str(path))
    storage.read()
    pushed = StateFile(State(outputs={"o": OutputValue(string("x"))}), "other-lineage", 7)
    got, diags = storage.write_file(pushed)
    assert not diags.has_errors and got is not None
    again = LocalState(str(path)).read()[0]
    assert again is not None and (again.lineage, again.serial) == ("other-lineage", 7)
    assert (tmp_path / "terraform.tfstate.backup").read_text() == original
    before = path.read_text()
    (tmp_path / "terraform.tfstate.backup").unlink()
    got, diags = storage.write_file(pushed)
    assert not diags.has_errors and path.read_text() == before
    assert not (tmp_path / "terraform.tfstate.backup").exists()


def test_write_file_of_the_same_contents_under_another_lineage_makes_no_backup(
    tmp_path: Path,
) -> None:
    from engine.states.local import LocalState
    from engine.states.state import State, StateFile

    path = tmp_path / "terraform.tfstate"
    LocalState(str(path)).write(State())
    storage = LocalState(str(path))
    storage.read()
    got, diags = storage.write_file(StateFile(State(), "forced", 3))
    assert not diags.has_errors and got is not None and got.lineage == "forced"
    assert not (tmp_path / "terraform.tfstate.backup").exists()
