"""engine.operations.state_edit: `state mv` / `state rm` on in-memory states, as the CLI and
the control plane use them (what they print and persist is tested beside terraform in
tests/conformance/test_state_commands.py)."""

from __future__ import annotations

import json
from typing import Any

from engine.operations import state_edit
from engine.states.edit import copy_state_file
from engine.states.state import StateFile
from engine.states.statefile import read_state, state_to_json


def _instance(attrs: dict[str, Any], key: Any = None) -> dict[str, Any]:
    inst: dict[str, Any] = {"schema_version": 0, "attributes": attrs,
                            "sensitive_attributes": [], "dependencies": ["terraform_data.a"]}
    if key is not None:
        inst["index_key"] = key
    return inst


def _state() -> StateFile:
    provider = 'provider["terraform.io/builtin/terraform"]'
    doc = {"version": 4, "terraform_version": "1.11.0", "serial": 3, "lineage": "l-1",
           "outputs": {}, "check_results": None, "resources": [
               {"mode": "managed", "type": "terraform_data", "name": "a", "provider": provider,
                "instances": [_instance({"id": "a"})]},
               {"mode": "managed", "type": "terraform_data", "name": "b", "provider": provider,
                "instances": [_instance({"id": "b0"}, 0), _instance({"id": "b1"}, 1)]},
               {"mode": "managed", "type": "terraform_data", "name": "c", "module": "module.m",
                "provider": provider, "instances": [_instance({"id": "c"})]}]}
    sf, diags = read_state(json.dumps(doc))
    assert sf is not None and not diags.has_errors
    return sf


def _addresses(sf: StateFile) -> list[str]:
    out = []
    for rs in state_to_json(sf)["resources"]:
        prefix = f"{rs['module']}." if rs.get("module") else ""
        for inst in rs["instances"]:
            key = f"[{json.dumps(inst['index_key'])}]" if "index_key" in inst else ""
            out.append(f"{prefix}{rs['type']}.{rs['name']}{key}")
    return out


def test_move_a_resource_an_instance_and_a_module() -> None:
    sf = copy_state_file(_state())
    done = state_edit.move(sf.state, sf.state, "terraform_data.a", "terraform_data.z[2]")
    assert (done.moves, done.failed) == ([("terraform_data.a", "terraform_data.z[2]")], False)
    done = state_edit.move(sf.state, sf.state, "terraform_data.b", "terraform_data.x")
    assert done.moves == [("terraform_data.b", "terraform_data.x")]
    done = state_edit.move(sf.state, sf.state, "module.m", "module.n")
    assert done.moves == [("module.m", "module.n")]
    assert sorted(_addresses(sf)) == ["module.n.terraform_data.c", "terraform_data.x[0]",
                                      "terraform_data.x[1]", "terraform_data.z[2]"]


def test_a_dry_run_changes_nothing() -> None:
    sf = copy_state_file(_state())
    before = state_to_json(sf)
    done = state_edit.move(sf.state, sf.state, "terraform_data.b[1]", "terraform_data.b[5]",
                           dry_run=True)
    assert done.moves == [("terraform_data.b[1]", "terraform_data.b[5]")]
    gone = state_edit.remove(sf.state, ["terraform_data.b"], dry_run=True)
    assert [str(a) for a in gone.removed] == ["terraform_data.b[0]", "terraform_data.b[1]"]
    assert state_to_json(sf) == before


def test_refusals_carry_terraforms_diagnostics() -> None:
    sf = copy_state_file(_state())
    taken = state_edit.move(sf.state, sf.state, "terraform_data.b", "terraform_data.a")
    assert taken.failed and taken.moves == []
    assert [d.summary for d in taken.diagnostics] == ["Invalid target address"]
    missing = state_edit.move(sf.state, sf.state, "terraform_data.q", "terraform_data.r")
    assert "does not match anything" in missing.diagnostics.errors[0].detail
    typed = state_edit.move(sf.state, sf.state, "terraform_data.a", "null_resource.a")
    assert typed.diagnostics.errors[0].summary == "Invalid state move request"
    bad = state_edit.move(sf.state, sf.state, "terraform_data.a[", "terraform_data.b")
    assert bad.failed
    module = state_edit.move(sf.state, sf.state, "module.m", "module.m")
    assert module.refused == "destination module already exists"
    assert sorted(_addresses(sf)) == sorted(_addresses(_state()))


def test_remove_selects_per_address_and_forgets() -> None:
    sf = copy_state_file(_state())
    gone = state_edit.remove(sf.state, ["terraform_data.b[1]", "module.m", "terraform_data.q"])
    assert [str(a) for a in gone.removed] == ["terraform_data.b[1]",
                                              "module.m.terraform_data.c"]
    assert not gone.nothing_matched
    assert _addresses(sf) == ["terraform_data.a", "terraform_data.b[0]"]
    assert state_edit.remove(sf.state, ["terraform_data.q"]).nothing_matched
