"""State files are checked on read as terraform checks them (side by side with terraform).

Hand-written v4 states of `terraform_data.a` (count = 2 in the configuration): two entries of
the same resource with different instances (merged, nothing lost), the same instance twice
(refused: "Duplicate resource instance in state"), `attributes` that are not an object
("missing expected {"), and objects of a newer schema version than the provider's ("Resource
instance managed by newer provider version"). `state list` and `plan` must give terraform's
exit code and output; a refused state is left as it was, and applying over the merged one
keeps both objects.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conformance.harness import run_groundplan, run_terraform

CONFIG = 'resource "terraform_data" "a" {\n  count = 2\n}\n'
PROVIDER = 'provider["terraform.io/builtin/terraform"]'


def _inst(i: int, schema_version: int = 0, attrs: Any = None) -> dict[str, Any]:
    if attrs is None:
        attrs = {"id": f"id{i}", "input": None, "output": None, "triggers_replace": None}
    return {"index_key": i, "schema_version": schema_version, "attributes": attrs,
            "sensitive_attributes": []}


def _state(*entries: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "version": 4, "terraform_version": "1.11.4", "serial": 3,
        "lineage": "9b3c1f4e-0000-4000-8000-000000000000", "outputs": {},
        "resources": [{"mode": "managed", "type": "terraform_data", "name": "a",
                       "provider": PROVIDER, "instances": insts} for insts in entries],
        "check_results": None,
    }


STATES = {
    "merged_entries": _state([_inst(0)], [_inst(1)]),
    "duplicate_instance": _state([_inst(0)], [_inst(0)]),
    "duplicate_in_one_entry": _state([_inst(0), _inst(0)]),
    "attributes_list": _state([_inst(0, attrs=[1, 2])]),
    "attributes_string": _state([_inst(0, attrs="x")]),
    "schema_versions_mixed": _state([_inst(0), _inst(1, schema_version=1)]),
    "schema_version_newer": _state([_inst(0, schema_version=5)]),
}


def _workdir(base: Path, name: str) -> Path:
    base.mkdir(parents=True)
    (base / "main.tf").write_text(CONFIG, encoding="utf-8")
    (base / "terraform.tfstate").write_text(json.dumps(STATES[name], indent=2), encoding="utf-8")
    return base


def _text(out: str) -> str:
    """Output without colour codes (terraform colours `state list` errors), each run of
    "Refreshing state..." lines sorted: instances refresh in parallel, in either tool in
    no fixed order."""
    import re

    lines = re.sub(r"\x1b\[[0-9;]*m", "", out).strip().split("\n")
    out_lines: list[str] = []
    run: list[str] = []
    for line in [*lines, ""]:
        if ": Refreshing state..." in line:
            run.append(line)
            continue
        out_lines.extend(sorted(run))
        run = []
        out_lines.append(line)
    return "\n".join(out_lines[:-1])


@pytest.mark.parametrize("command", [("state", "list"), ("plan", "-no-color")])
@pytest.mark.parametrize("name", sorted(STATES))
def test_read_checks_match_terraform(name: str, command: tuple[str, ...], tmp_path: Path) -> None:
    tf = _workdir(tmp_path / "tf", name)
    gp = _workdir(tmp_path / "gp", name)
    want = run_terraform(tf, *command)
    got = run_groundplan(gp, *command)
    assert (got.code, _text(got.stdout), _text(got.stderr)) == (
        want.code, _text(want.stdout), _text(want.stderr))
    # nothing read is ever written back
    assert json.loads((gp / "terraform.tfstate").read_text()) == STATES[name]


def test_duplicated_entry_loses_no_object(tmp_path: Path) -> None:
    """An apply over a state whose resource is split over two entries keeps both objects
    (terraform merges the entries; so does groundplan) and writes them as one resource."""
    for tool, run in (("tf", run_terraform), ("gp", run_groundplan)):
        work = _workdir(tmp_path / tool, "merged_entries")
        res = run(work, "apply", "-auto-approve", "-no-color")
        assert res.code == 0, res.stdout + res.stderr
        assert "0 added, 0 changed, 0 destroyed" in res.stdout
        doc = json.loads((work / "terraform.tfstate").read_text())
        entries = [r for r in doc["resources"] if r["type"] == "terraform_data"]
        assert len(entries) == 1, tool
        ids = sorted(i["attributes"]["id"] for i in entries[0]["instances"])
        assert ids == ["id0", "id1"], tool


def test_refused_state_is_not_overwritten_by_apply(tmp_path: Path) -> None:
    gp = _workdir(tmp_path / "gp", "duplicate_instance")
    res = run_groundplan(gp, "apply", "-auto-approve", "-no-color")
    assert res.code == 1
    assert "Duplicate resource instance in state" in res.stdout + res.stderr
    assert json.loads((gp / "terraform.tfstate").read_text()) == STATES["duplicate_instance"]
