"""Load-time and reference diagnostics compared with what terraform 1.11.4 reported.

validate_cases.json holds, per case, a one-file configuration (`main.tf` or `main.tf.json`) and the diagnostics that
`terraform validate -json` gave for it (severity, summary, detail, start line and column),
recorded from the real binary. The conformance test at the bottom re-asks terraform.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.product_name import as_groundplan
from tests.unit.configs.helpers import summarize, validate_here, write

CASES: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "validate_cases.json").read_text(encoding="utf-8")
)


def _recorded(name: str) -> list[tuple[Any, ...]]:
    """terraform's diagnostics for the case, in its own words."""
    rows = [tuple(r) for r in CASES[name]["expected"]]
    return sorted(rows, key=lambda t: (t[3] or 0, t[4] or 0, t[1], t[2], t[0]))


def _expected(name: str) -> list[tuple[Any, ...]]:
    """What groundplan reports: terraform's diagnostics with the product name substituted in
    their summary and detail (`tests.product_name`)."""
    rows = [(sev, as_groundplan(summary, message=True),
             None if detail is None else as_groundplan(detail, message=True), line, col)
            for sev, summary, detail, line, col in _recorded(name)]
    return sorted(rows, key=lambda t: (t[3] or 0, t[4] or 0, t[1], t[2], t[0]))


def test_enough_cases() -> None:
    assert len(CASES) >= 90
    assert sum(1 for c in CASES.values() if c["expected"]) >= 80


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_recorded_terraform(name: str, tmp_path: Path) -> None:
    write(tmp_path, {CASES[name]["filename"]: CASES[name]["config"]})
    assert summarize(validate_here(tmp_path)) == _expected(name)


@pytest.mark.conformance
def test_recorded_expectations_still_match_terraform() -> None:
    """Re-run terraform on a spread of the cases: the recorded expectations are its answers."""
    from tests.conformance.harness import run_terraform

    names = sorted(CASES)[::7]
    for name in names:
        with tempfile.TemporaryDirectory(prefix="gp-configs-") as tmp:
            work = write(Path(tmp), {CASES[name]["filename"]: CASES[name]["config"]})
            run = run_terraform(work, "validate", "-json")
            data = json.loads(run.stdout)
            got = sorted(
                (
                    (
                        d["severity"],
                        d["summary"],
                        d["detail"],
                        d.get("range", {}).get("start", {}).get("line"),
                        d.get("range", {}).get("start", {}).get("column"),
                    )
                    for d in data["diagnostics"]
                ),
                key=lambda t: (t[3] or 0, t[4] or 0, t[1], t[2], t[0]),
            )
            assert got == _recorded(name), name
