"""The configurations `make demo` runs plan the same in terraform and in groundplan.

examples/resources is applied, then examples/refactor is copied over it (a `moved` block and
an `import` block): the saved plan's resource changes (address, previous address, actions,
importing) and its output changes equal terraform's, the human plan text equals terraform's
once object ids are normalised, and after applying it both tools find nothing to change.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conformance.harness import Run, run_groundplan, run_terraform

pytestmark = pytest.mark.conformance

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
Tool = Any


def _ok(run: Run, what: str) -> Run:
    assert run.code == 0, (what, run.stdout, run.stderr)
    return run


def _changes(plan: Any) -> list[tuple[Any, ...]]:
    return sorted(
        (rc["address"], rc.get("previous_address"), tuple(rc["change"]["actions"]),
         rc["change"].get("importing", {}).get("id"))
        for rc in plan["resource_changes"]
    )


def _refactor_plan(tool: Tool, work: Path) -> tuple[Any, str]:
    shutil.copytree(EXAMPLES / "resources", work)
    _ok(tool(work, "init", "-no-color"), "init")
    _ok(tool(work, "apply", "-auto-approve", "-no-color"), "first apply")
    shutil.copytree(EXAMPLES / "refactor", work, dirs_exist_ok=True)
    text = _ok(tool(work, "plan", "-out=tfplan", "-no-color"), "plan").stdout
    plan = _ok(tool(work, "show", "-json", "tfplan"), "show -json").json()
    _ok(tool(work, "apply", "-no-color", "tfplan"), "apply of the saved plan")
    assert tool(work, "plan", "-detailed-exitcode", "-no-color").code == 0
    return plan, text


def _actions_section(text: str) -> str:
    start = text.index("groundplan will perform the following actions:")
    return UUID.sub("<id>", text[start:])


def test_refactor_example_plans_a_move_and_an_import_as_terraform(tmp_path: Path) -> None:
    tf_plan, tf_text = _refactor_plan(run_terraform, tmp_path / "terraform")
    gp_plan, gp_text = _refactor_plan(run_groundplan, tmp_path / "groundplan")
    assert _changes(gp_plan) == _changes(tf_plan)
    assert ("terraform_data.vpc", "terraform_data.network", ("no-op",), None) in _changes(gp_plan)
    assert ("terraform_data.dns", None, ("no-op",), "dns-zone-0001") in _changes(gp_plan)
    assert gp_plan["output_changes"] == tf_plan["output_changes"]
    assert _actions_section(gp_text) == _actions_section(tf_text)
