"""Invalid configurations: `terraform validate -json` and `groundplan validate -json` must agree.

For each configuration in invalid/cases.json both tools must give the same verdict and the
same errors: the same summaries, at the same lines, in the same order.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.conformance.harness import Run, run_groundplan, run_terraform

CASES: dict[str, str] = json.loads(
    (Path(__file__).parent / "invalid" / "cases.json").read_text(encoding="utf-8")
)


def _normalize(summary: str) -> str:
    """terraform lists a cycle's members in a random order from run to run: sort them."""
    if summary.startswith("Cycle: "):
        return "Cycle: " + ", ".join(sorted(summary[len("Cycle: ") :].split(", ")))
    return summary


def _errors(run: Run) -> tuple[bool, list[tuple[str, Any]]]:
    try:
        data = json.loads(run.stdout)
    except json.JSONDecodeError:
        raise AssertionError(
            f"not JSON (exit {run.code}): {run.stdout[:500]} {run.stderr[:500]}"
        ) from None
    errors = [
        (_normalize(d["summary"]), d.get("range", {}).get("start", {}).get("line"))
        for d in data["diagnostics"]
        if d["severity"] == "error"
    ]
    return data["valid"], errors


def test_enough_invalid_cases() -> None:
    invalid = [n for n in CASES if n != "div_zero"]
    assert len(invalid) >= 50


@pytest.mark.parametrize("name", sorted(CASES))
def test_validate_matches_terraform(name: str) -> None:
    with tempfile.TemporaryDirectory(prefix="gp-invalid-") as tmp:
        work = Path(tmp)
        (work / "main.tf").write_text(CASES[name], encoding="utf-8")
        expected = _errors(run_terraform(work, "validate", "-json"))
        actual = _errors(run_groundplan(work, "validate", "-json"))
    assert actual == expected
