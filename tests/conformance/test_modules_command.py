"""`modules` (and `modules -json`) beside terraform's, after `init` of the same files.

terraform lists siblings below the top level, and every level of its JSON, in Go map order
(at random); the cases give each nested module at most one child, and the JSON records are
compared as sorted lists.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conformance.harness import run_groundplan, run_terraform

pytestmark = pytest.mark.slow

CALL = 'module "%s" {\n  source = "%s"\n}\n'

CASES: dict[str, dict[str, str]] = {
    "nested": {
        "main.tf": CALL % ("b", "./mods/b") + CALL % ("a", "./mods/a/"),
        "mods/a/main.tf": CALL % ("inner", "../c"),
        "mods/b/main.tf": "",
        "mods/c/main.tf": CALL % ("leaf", "./../b"),
    },
    "none": {"main.tf": 'output "o" {\n  value = 1\n}\n'},
    "repeated_call": {
        "main.tf": 'module "x" {\n  source = "./m"\n  count = 2\n}\n'
                   'module "y" {\n  source = "./m"\n  for_each = toset(["k"])\n}\n',
        "m/main.tf": "",
    },
    "required_version": {
        "main.tf": CALL % ("a", "./m"),
        "m/main.tf": 'terraform {\n  required_version = "< 1.0"\n}\n',
    },
}


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _json(text: str) -> object:
    doc = json.loads(text)
    if doc.get("modules"):
        doc["modules"] = sorted(doc["modules"], key=lambda r: (r["key"], r["source"]))
    return doc


@pytest.mark.parametrize("case", sorted(CASES))
def test_modules_after_init_match_terraform(case: str, tmp_path: Path) -> None:
    tf_dir, gp_dir = tmp_path / "tf", tmp_path / "gp"
    for d in (tf_dir, gp_dir):
        _write(d, CASES[case])
    tf_init, gp_init = run_terraform(tf_dir, "init"), run_groundplan(gp_dir, "init")
    assert gp_init.code == tf_init.code
    tf, gp = run_terraform(tf_dir, "modules"), run_groundplan(gp_dir, "modules")
    assert (gp.code, gp.stdout, gp.stderr) == (tf.code, tf.stdout, tf.stderr)
    tf, gp = run_terraform(tf_dir, "modules", "-json"), run_groundplan(gp_dir, "modules", "-json")
    assert (gp.code, gp.stderr) == (tf.code, tf.stderr)
    if tf.code == 0:
        assert _json(gp.stdout) == _json(tf.stdout)


def test_modules_not_installed_and_arguments(tmp_path: Path) -> None:
    tf_dir, gp_dir = tmp_path / "tf", tmp_path / "gp"
    for d in (tf_dir, gp_dir):
        _write(d, {"main.tf": CALL % ("a", "./m") + CALL % ("z", "./m"), "m/main.tf": ""})
    for args in (("modules",), ("modules", "-json"), ("modules", "extra"), ("modules", "-bogus")):
        tf, gp = run_terraform(tf_dir, *args), run_groundplan(gp_dir, *args)
        assert (gp.code, gp.stdout, gp.stderr) == (tf.code, tf.stdout, tf.stderr), args
