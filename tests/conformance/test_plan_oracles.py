"""The stored plan-rendering oracles (tests/unit/plans/oracle/<case>) are still what terraform
prints: each case's prior state (rebuilt from the recorded `show -json` document: its prior
state's resources where they were before `moved` and `import` blocks, and the outputs'
values before the change) is planned by the terraform
binary with the case's configuration, and `show -no-color` of that plan must be the stored
`show.txt` byte for byte, and `show -json` must give the stored changes. The unit tests
(tests/unit/plans/test_render_human.py) compare groundplan's rendering with these files, so
they cannot drift from terraform unnoticed."""

from __future__ import annotations

import copy
import json
import shutil
import uuid
from pathlib import Path
from typing import Any

import pytest

from engine.states.state import OutputValue
from engine.states.statefile import write_state
from engine.values import implied_type
from engine.values.json import value_from_json
from tests.conformance.harness import run_terraform
from tests.unit.plans.oracle_plans import ORACLE, load_doc, state_from_doc

#: terraform plan arguments a case needs beyond its configuration and prior state.
ARGS = {"destroy": ["-destroy"], "forcerepl": ["-replace=terraform_data.a"]}
CASES = sorted(p.name for p in ORACLE.iterdir() if (p / "show.txt").is_file())


def _before_the_plan(doc: dict[str, Any]) -> dict[str, Any]:
    """`doc` with its prior state as it was before planning: terraform records it with the
    `moved` blocks applied and the imported objects added; move them back, drop those."""
    doc = copy.deepcopy(doc)
    changes = {c["address"]: c for c in doc.get("resource_changes", [])}

    def walk(mod: dict[str, Any]) -> None:
        kept = []
        for r in mod.get("resources", []):
            change = changes.get(r["address"], {})
            if change.get("change", {}).get("importing"):
                continue
            if change.get("previous_address"):
                r["address"] = change["previous_address"]
                r["name"] = change["previous_address"].rsplit(".", 1)[1].split("[", 1)[0]
            kept.append(r)
        mod["resources"] = kept
        for child in mod.get("child_modules", []):
            walk(child)

    if doc.get("prior_state"):
        walk(doc["prior_state"].get("values", {}).get("root_module", {}))
    return doc


def _prior_state(doc: dict[str, Any]) -> str | None:
    sf = state_from_doc(_before_the_plan(doc))
    if sf is None:
        return None
    sf.lineage = str(uuid.uuid4())
    sf.state.outputs.clear()
    for name, change in doc.get("output_changes", {}).items():
        if "create" in change["actions"]:
            continue
        before = change["before"]
        sf.state.outputs[name] = OutputValue(
            value_from_json(before, implied_type(before)), bool(change.get("before_sensitive")))
    return write_state(sf)


def _changes(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    return sorted((c["address"], c["change"]["actions"], c.get("action_reason"),
                   c.get("previous_address")) for c in doc.get("resource_changes", []))


def test_every_case_is_checked() -> None:
    assert len(CASES) >= 14


@pytest.mark.parametrize("case", CASES)
def test_stored_oracle_is_what_terraform_prints(case: str, tmp_path: Path) -> None:
    doc = load_doc(case)
    work = tmp_path / case
    shutil.copytree(ORACLE / case, work)
    for name in ("show.txt", "show.json", "state_show.json", "applied_state.json"):
        (work / name).unlink(missing_ok=True)
    state = _prior_state(doc)
    if state is not None:
        (work / "terraform.tfstate").write_text(state, encoding="utf-8")
    init = run_terraform(work, "init", "-no-color", raw=True)
    assert init.code == 0, init
    plan = run_terraform(work, "plan", "-no-color", "-out=p", *ARGS.get(case, []), raw=True)
    assert plan.code == 0, plan
    shown = run_terraform(work, "show", "-no-color", "p", raw=True)
    assert shown.code == 0, shown
    assert shown.stdout == (ORACLE / case / "show.txt").read_text(encoding="utf-8")
    fresh = json.loads(run_terraform(work, "show", "-json", "p", raw=True).stdout)
    assert _changes(fresh) == _changes(doc)
