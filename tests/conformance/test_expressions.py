"""Expressions and function calls: terraform and groundplan evaluate the same outputs.

Each case is one expression. Cases are evaluated in batches (one configuration with an output
per case, `apply -auto-approve` then `output -json`), by terraform and by groundplan, and each
case's value and type must be equal. A batch that fails is re-run case by case, so one failing
expression names itself.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conformance.harness import (
    CASES_DIR,
    Run,
    load_cases,
    outputs_config,
    run_groundplan,
    run_terraform,
)

CASE_FILES = [n for n in ("expressions.txt", "functions_a.txt", "functions_b.txt", "marks_deep.txt")
              if (CASES_DIR / n).exists()]
CASES = load_cases(*CASE_FILES)
BATCH = 80

Runner = Callable[..., Run]
Outcome = tuple[str, Any]


def _apply_outputs(runner: Runner, exprs: list[str]) -> list[Outcome] | Outcome:
    """Outcomes for each expression, or one error outcome for the whole batch."""
    with tempfile.TemporaryDirectory(prefix="gp-conf-") as tmp:
        work = Path(tmp)
        (work / "main.tf").write_text(outputs_config(exprs), encoding="utf-8")
        files = CASES_DIR / "files"
        if files.is_dir():
            shutil.copytree(files, work / "files")
        applied = runner(work, "apply", "-auto-approve", "-input=false", "-no-color")
        if applied.code != 0:
            return ("error", (applied.stdout + applied.stderr).strip()[-2000:])
        out = runner(work, "output", "-json")
        if out.code != 0:
            return ("error", out.stderr.strip()[-2000:])
        data = out.json()
        results: list[Outcome] = []
        for i in range(len(exprs)):
            item = data.get(f"o{i}")
            if item is None:  # a null output is not recorded
                results.append(("ok", None))
            else:
                results.append(("ok", {"type": item["type"], "value": item["value"]}))
        return results


def _evaluate_all(runner: Runner) -> dict[str, Outcome]:
    results: dict[str, Outcome] = {}
    for start in range(0, len(CASES), BATCH):
        batch = CASES[start : start + BATCH]
        outcome = _apply_outputs(runner, [e for _, e in batch])
        if isinstance(outcome, list):
            results.update({cid: o for (cid, _), o in zip(batch, outcome)})
            continue
        for cid, expr in batch:
            single = _apply_outputs(runner, [expr])
            results[cid] = single[0] if isinstance(single, list) else single
    return results


_cache: dict[str, dict[str, Outcome]] = {}


def _results(which: str) -> dict[str, Outcome]:
    if which not in _cache:
        _cache[which] = _evaluate_all(run_terraform if which == "terraform" else run_groundplan)
    return _cache[which]


def test_enough_cases() -> None:
    assert len(CASES) >= 400, f"only {len(CASES)} expression cases"


@pytest.mark.parametrize(("case_id", "expr"), CASES, ids=[c for c, _ in CASES])
def test_expression_matches_terraform(case_id: str, expr: str) -> None:
    expected = _results("terraform")[case_id]
    assert expected[0] == "ok", f"terraform rejected the case {expr!r}: {expected[1]}"
    actual = _results("groundplan")[case_id]
    assert actual[0] == "ok", f"groundplan failed on {expr!r}: {actual[1]}"
    assert actual[1] == expected[1], f"{expr!r}"
