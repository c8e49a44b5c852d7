"""Running the same configuration through the real terraform binary and through groundplan.

terraform is the oracle. When it is missing, `require_terraform()` fails the calling test with
a loud message: conformance tests never pass (or skip) silently.

`run_terraform` returns terraform's output as groundplan would print it: the product name
substituted by `tests.product_name.as_groundplan` (the one documented substitution; JSON
output is left alone), so every comparison with `run_groundplan` sees the same names.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.product_name import as_groundplan

ROOT = Path(__file__).resolve().parents[2]
CASES_DIR = Path(__file__).resolve().parent / "cases"


def require_terraform() -> str:
    """The terraform binary's path; fails the test loudly when terraform is not on PATH."""
    path = shutil.which("terraform")
    if path is None:
        pytest.fail(
            "CONFORMANCE TESTS NEED TERRAFORM: the `terraform` binary (v1.11) is not on PATH, "
            "so groundplan cannot be compared with its oracle. Install terraform 1.11.",
            pytrace=False,
        )
    return path


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["TF_CLI_CONFIG_FILE"] = os.devnull
    env["TF_IN_AUTOMATION"] = "1"
    env["CHECKPOINT_DISABLE"] = "1"
    env.pop("TF_LOG", None)
    return env


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout, parse_float=Decimal, parse_int=Decimal)


def shown_json_diagnostics(run: Run, terraform: bool, sort: bool = False) -> tuple[int, Any, str]:
    """(exit code, stdout, stderr) of a command whose output may be `-json`: a JSON document
    is parsed and terraform's human fields in its diagnostics (summary, detail) go through the
    product-name substitution; with `sort`, the diagnostics are sorted (terraform's validate
    walk is concurrent, so its JSON lists them in the order they were found)."""
    if not run.stdout.startswith("{"):
        return run.code, run.stdout, run.stderr
    doc = json.loads(run.stdout)
    for d in doc.get("diagnostics", []):
        for k in ("summary", "detail"):
            if terraform and k in d:
                d[k] = as_groundplan(d[k], message=True)
    if sort:
        doc["diagnostics"] = sorted(doc.get("diagnostics", []), key=repr)
    return run.code, doc, run.stderr


def run_terraform(
    workdir: Path, *args: str, stdin: str | None = None, timeout: float = 120, raw: bool = False
) -> Run:
    """terraform's exit code and output; stdout and stderr pass through `as_groundplan`
    unless `raw` (for tests that read terraform's own words). Output bytes that are not
    UTF-8 (a snippet of such a source line) come back as lone surrogates."""
    tf = require_terraform()
    proc = subprocess.run(
        [tf, *args],
        cwd=workdir,
        env=_env(),
        input=stdin,
        capture_output=True,
        text=True,
        errors="surrogateescape",
        timeout=timeout,
    )
    if raw:
        return Run(proc.returncode, proc.stdout, proc.stderr)
    return Run(proc.returncode, as_groundplan(proc.stdout), as_groundplan(proc.stderr))


def run_groundplan(
    workdir: Path, *args: str, stdin: str | None = None, timeout: float = 120
) -> Run:
    proc = subprocess.run(
        [sys.executable, "-m", "engine.cli.main", *args],
        cwd=workdir,
        env={**_env(), "PYTHONPATH": str(ROOT)},
        input=stdin,
        capture_output=True,
        text=True,
        errors="surrogateescape",
        timeout=timeout,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


def load_cases(*names: str) -> list[tuple[str, str]]:
    """(case id, expression) pairs from the named case files; `#` lines are comments."""
    cases: list[tuple[str, str]] = []
    for name in names:
        path = CASES_DIR / name
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            expr = line.strip()
            if not expr or expr.startswith("#"):
                continue
            cases.append((f"{name}:{lineno}", expr))
    return cases


def outputs_config(exprs: list[str]) -> str:
    """A configuration with one output per expression, named o0, o1, ..."""
    return "".join(f'output "o{i}" {{\n  value = {e}\n}}\n\n' for i, e in enumerate(exprs))
