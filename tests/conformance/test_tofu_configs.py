"""OpenTofu's configuration fixtures as a corpus: terraform and groundplan must agree.

tofu_configs/ holds OpenTofu's `internal/configs/testdata` fixtures (MPL-2.0, see
tofu_configs/LICENSE): each file of `*-files` is one configuration (copied under its own
name, so `.tofu` and `.tf.json` files keep their meaning), each directory of `*-modules` is
one. Both tools run `validate -json` on it, in an uninitialised directory as a user would
first do; the verdict and every diagnostic (severity, summary, file, start and end of its
range) must be the same (terraform's order is its concurrent walk's: not compared).

Fixtures on which the two do not agree yet are listed in EXPECTED_DIFFERENCES with the reason;
the test asserts that the differing set is exactly that list, so it fails when one gets fixed
(remove it from the list) or another one breaks.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conformance.harness import Run, run_groundplan, run_terraform

pytestmark = pytest.mark.slow

CORPUS = Path(__file__).parent / "tofu_configs"

# fixture -> why groundplan does not agree with terraform on it yet (each one a gap to close;
# none is the encryption or backend helpers' — this corpus has no such fixture)
EXPECTED_DIFFERENCES: dict[str, str] = {}


def fixtures() -> list[str]:
    """Every fixture, as a path relative to CORPUS."""
    out: list[str] = []
    for group in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        for entry in sorted(group.iterdir()):
            single_file = group.name.endswith("-files") and entry.is_file()
            if single_file or (group.name.endswith("-modules") and entry.is_dir()):
                out.append(f"{group.name}/{entry.name}")
    return out


def _normalize(summary: str) -> str:
    if summary.startswith("Cycle: "):
        return "Cycle: " + ", ".join(sorted(summary[len("Cycle: "):].split(", ")))
    return summary


def verdict(run: Run) -> tuple[Any, ...]:
    """(valid, sorted diagnostics) of a `validate -json` run."""
    try:
        doc = json.loads(run.stdout)
    except json.JSONDecodeError:
        return ("not JSON", run.code, run.stdout[-300:], run.stderr[-300:])
    diags = []
    for d in doc["diagnostics"]:
        rng = d.get("range") or {}
        start, end = rng.get("start") or {}, rng.get("end") or {}
        diags.append((d["severity"], _normalize(d["summary"]), rng.get("filename"),
                      start.get("line"), start.get("column"), end.get("line"), end.get("column")))
    return (doc["valid"], sorted(diags, key=repr))


def _copy(fixture: str, dest: Path) -> None:
    src = CORPUS / fixture
    if src.is_dir():
        shutil.copytree(src, dest)
    else:
        dest.mkdir(parents=True)
        shutil.copy(src, dest / src.name)


def compare(fixture: str, tmp: Path) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(terraform's verdict, groundplan's) on `fixture`."""
    _copy(fixture, tmp / "tf")
    _copy(fixture, tmp / "gp")
    return (verdict(run_terraform(tmp / "tf", "validate", "-json")),
            verdict(run_groundplan(tmp / "gp", "validate", "-json")))


def test_corpus_is_vendored() -> None:
    assert (CORPUS / "LICENSE").read_text().startswith("Copyright (c) The OpenTofu Authors")
    assert len(fixtures()) >= 120
    assert set(EXPECTED_DIFFERENCES) <= set(fixtures())


def test_fixtures_agree_with_terraform(tmp_path: Path) -> None:
    differing: dict[str, tuple[Any, Any]] = {}
    for i, fixture in enumerate(fixtures()):
        want, got = compare(fixture, tmp_path / str(i))
        if want != got:
            differing[fixture] = (want, got)
    unexpected = {k: v for k, v in differing.items() if k not in EXPECTED_DIFFERENCES}
    fixed = sorted(set(EXPECTED_DIFFERENCES) - set(differing))
    assert not unexpected, "new differences (terraform, groundplan):\n" + "\n".join(
        f"{k}:\n  tf {v[0]}\n  gp {v[1]}" for k, v in sorted(unexpected.items()))
    assert not fixed, f"now agreeing with terraform: remove from EXPECTED_DIFFERENCES: {fixed}"
