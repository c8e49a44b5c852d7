"""`get` beside terraform's: the same module lines, exit codes, errors and modules.json."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.harness import run_groundplan, run_terraform

pytestmark = pytest.mark.slow

CALL = 'module "%s" {\n  source = "%s"\n}\n'

CASES: dict[str, dict[str, str]] = {
    "nested": {"main.tf": CALL % ("a", "./m") + CALL % ("b", "./m"),
               "m/main.tf": CALL % ("inner", "../n"), "n/main.tf": ""},
    "no_calls": {"main.tf": 'output "o" {\n  value = 1\n}\n'},
    "empty_dir": {},
    "syntax_error": {"main.tf": 'output "o" {\n  value =\n'},
    "missing_directory": {"main.tf": CALL % ("gone", "./nowhere")},
}

RUNS: list[tuple[str, ...]] = [("get",), ("get",), ("get", "-update"), ("get", "-no-color", "x"),
                               ("get", "-bogus")]


def _write(root: Path, files: dict[str, str]) -> None:
    root.mkdir(parents=True)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _manifest(root: Path) -> str | None:
    path = root / ".terraform" / "modules" / "modules.json"
    return path.read_text(encoding="utf-8") if path.exists() else None


@pytest.mark.parametrize("case", sorted(CASES))
def test_get_matches_terraform(case: str, tmp_path: Path) -> None:
    tf_dir, gp_dir = tmp_path / "tf", tmp_path / "gp"
    _write(tf_dir, CASES[case])
    _write(gp_dir, CASES[case])
    for args in RUNS:
        tf, gp = run_terraform(tf_dir, *args), run_groundplan(gp_dir, *args)
        assert (gp.code, gp.stdout, gp.stderr) == (tf.code, tf.stdout, tf.stderr), args
        assert _manifest(gp_dir) == _manifest(tf_dir), args


RUN_MODULE = 'run "r" {\n  module {\n    source = "%s"\n  }\n}\n'


@pytest.mark.parametrize("args", [("get", "-test-directory=checks"), ("get", "-test-directory", "none"),
                                  ("get",)])
def test_get_installs_run_block_modules_as_terraform(args: tuple[str, ...], tmp_path: Path) -> None:
    """The modules test files' run blocks name are installed from the test directory given,
    with their own calls, as terraform's get installs them."""
    files = {"main.tf": CALL % ("a", "./m"), "m/main.tf": "", "fixture/main.tf": CALL % ("x", "../m"),
             "checks/s.tftest.hcl": RUN_MODULE % "./fixture",
             "tests/t.tftest.hcl": RUN_MODULE % "./m"}
    tf_dir, gp_dir = tmp_path / "tf", tmp_path / "gp"
    _write(tf_dir, files)
    _write(gp_dir, files)
    tf, gp = run_terraform(tf_dir, *args), run_groundplan(gp_dir, *args)
    assert (gp.code, gp.stdout, gp.stderr) == (tf.code, tf.stdout, tf.stderr)
    assert _manifest(gp_dir) == _manifest(tf_dir)
