"""Diagnostics as people read them, side by side with terraform.

terraform's human views sort a command's diagnostics (warnings first, then by file, start
and end of their subject), fold warnings that share a summary into the first one ("(and 2
more similar warnings elsewhere)"; never a check block's warnings), and with
`-compact-warnings` list warnings alone by summary. The cases below are configurations whose
diagnostics are reported out of source order (a check block's "Zero assert blocks" after its
assertion's error), repeat (a redundant `ignore_changes` path on several resources) or mix
kinds; each is run through both tools' `validate` and `plan` (with and without colour, with
and without `-compact-warnings`) and the whole output compared, and `validate -json` compared
diagnostic by diagnostic (JSON keeps every diagnostic, in the order found: terraform's validate walk is concurrent,
so that order is not compared).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.harness import run_groundplan, run_terraform, shown_json_diagnostics

pytestmark = pytest.mark.slow

IGNORED_ID = 'resource "terraform_data" "%s" {\n  lifecycle { ignore_changes = [id] }\n}\n'
CHECK = 'check "%s" {\n  assert {\n    condition     = %s\n    error_message = "%s failed"\n  }\n}\n'

CASES: dict[str, dict[str, str]] = {
    # the assertion's error is reported before its check's "Zero assert blocks"
    "check_blocks_out_of_order": {"main.tf": "".join(
        CHECK % (n, c, n) for n, c in
        (("a", 'timestamp() == "x"'), ("b", 'timestamp() == "y"'), ("c", "1 == 2")))},
    "redundant_ignore_once": {"main.tf": IGNORED_ID % "a"},
    "redundant_ignore_twice": {"main.tf": IGNORED_ID % "a" + IGNORED_ID % "b"},
    "redundant_ignore_three_files": {
        "b.tf": IGNORED_ID % "b", "a.tf": IGNORED_ID % "a", "sub.tf": IGNORED_ID % "c"},
    "ignore_changes_unsupported": {"main.tf": (
        'resource "terraform_data" "a" {\n'
        '  lifecycle { ignore_changes = [nope, input.x, triggers_replace] }\n}\n')},
    "ignore_changes_error_and_warning": {"main.tf": (
        IGNORED_ID % "a" + 'resource "terraform_data" "b" {\n'
        '  lifecycle { ignore_changes = [inptu] }\n}\n')},
    "ignore_changes_index": {"main.tf": (
        'resource "terraform_data" "a" {\n  input = { k = 1 }\n'
        '  lifecycle { ignore_changes = [input["k"], output.x] }\n}\n')},
    # failed check assertions are warnings terraform never folds together
    "failing_checks_not_folded": {"main.tf": (
        'resource "terraform_data" "r" {\n  input = 1\n}\n'
        + CHECK % ("p", "terraform_data.r.input == 2", "p")
        + CHECK % ("q", "terraform_data.r.input == 3", "q"))},
    "warnings_and_errors": {"main.tf": (
        IGNORED_ID % "a" + IGNORED_ID % "b"
        + 'resource "terraform_data" "c" {\n  lifecycle { ignore_changes = [nope] }\n}\n')},
}

COMMANDS: list[tuple[str, ...]] = [
    ("validate", "-no-color"),
    ("validate",),
    ("validate", "-compact-warnings", "-no-color"),
    ("validate", "-compact-warnings"),
    ("plan", "-no-color"),
    ("plan", "-compact-warnings", "-no-color"),
]


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("case", sorted(CASES))
def test_human_diagnostics_match_terraform(case: str, tmp_path: Path) -> None:
    tf_dir, gp_dir = tmp_path / "tf", tmp_path / "gp"
    for d in (tf_dir, gp_dir):
        _write(d, CASES[case])
    for args in COMMANDS:
        tf = run_terraform(tf_dir, *args)
        gp = run_groundplan(gp_dir, *args)
        assert (gp.code, gp.stdout, gp.stderr) == (tf.code, tf.stdout, tf.stderr), args


@pytest.mark.parametrize("case", sorted(CASES))
def test_json_diagnostics_match_terraform(case: str, tmp_path: Path) -> None:
    tf_dir, gp_dir = tmp_path / "tf", tmp_path / "gp"
    for d in (tf_dir, gp_dir):
        _write(d, CASES[case])
    tf = shown_json_diagnostics(run_terraform(tf_dir, "validate", "-json"), terraform=True,
                                sort=True)
    gp = shown_json_diagnostics(run_groundplan(gp_dir, "validate", "-json"), terraform=False,
                                sort=True)
    assert gp == tf
