"""`groundplan fmt` against `terraform fmt`: byte-identical output, listings, diffs and exit
codes.

Every file in fmt_cases/ goes through `fmt -` (stdin) of both tools, as bytes (CRLF input
included); a directory tree with formatted, unformatted, ignored, nested and broken files
goes through the flag combinations, each tool in its own copy of the tree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conformance.harness import ROOT, require_terraform
from tests.product_name import as_groundplan

pytestmark = pytest.mark.conformance

CASES = Path(__file__).resolve().parent / "fmt_cases"
CASE_FILES = sorted(p for p in CASES.iterdir() if p.suffix in (".tf", ".tfvars"))


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(TF_CLI_CONFIG_FILE=os.devnull, CHECKPOINT_DISABLE="1", PYTHONPATH=str(ROOT))
    env.pop("TF_LOG", None)
    return env


def _run(tool: str, cwd: Path, *args: str, stdin: bytes = b"") -> tuple[int, bytes, bytes]:
    """(exit code, stdout, stderr). terraform's messages (stderr, and the `-help` text) pass
    through the product-name substitution; its other stdout is the user's formatted source
    (or a diff of it) and stays as it is."""
    if tool == "terraform":
        argv = [require_terraform(), *args]
    else:
        argv = [sys.executable, "-m", "engine.cli.main", *args]
    proc = subprocess.run(argv, cwd=cwd, env=_env(), input=stdin, capture_output=True, timeout=120)
    out, err = proc.stdout, proc.stderr
    if tool == "terraform":
        err = as_groundplan(err.decode("utf-8")).encode("utf-8")
        if "-help" in args:
            out = as_groundplan(out.decode("utf-8")).encode("utf-8")
    return proc.returncode, out, err


def test_there_are_enough_cases() -> None:
    assert len(CASE_FILES) >= 60


@pytest.mark.parametrize("case", CASE_FILES, ids=lambda p: p.name)
def test_stdin_output_is_identical(case: Path, tmp_path: Path) -> None:
    src = case.read_bytes()
    tf = _run("terraform", tmp_path, "fmt", "-no-color", "-", stdin=src)
    gp = _run("groundplan", tmp_path, "fmt", "-no-color", "-", stdin=src)
    assert tf[0] == 0, tf[2].decode()
    assert gp == tf


def _tree(root: Path) -> None:
    (root / "sub" / "deep").mkdir(parents=True)
    (root / ".hidden").mkdir()
    files = {
        "a.tf": "a=1\n",
        "b.tf": "b = 1\n",
        "c.tfvars": "x=1\ny = [1,2]\n",
        "j.tf.json": '{"a":1}',
        ".w.tf": "w=1\n",
        "e.tf~": "e=1\n",
        "#e.tf#": "e=1\n",
        "notes.txt": "n=1\n",
        "sub/s.tf": 'resource aws_instance x {\nami="${var.a}"\n}\n',
        "sub/m.tfmock.hcl": "m=1\n",
        "sub/deep/z.tftest.hcl": 'run "t" {\ncommand=plan\n}\n',
        ".hidden/h.tf": "h=1\n",
    }
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")


def _compare_in_trees(tmp_path: Path, *args: str, extra: dict[str, str] | None = None) -> int:
    results = []
    for tool in ("terraform", "groundplan"):
        root = tmp_path / tool
        _tree(root)
        for name, text in (extra or {}).items():
            (root / name).write_text(text, encoding="utf-8")
        code, out, err = _run(tool, root, "fmt", "-no-color", *args)
        contents = {
            str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
        }
        results.append((code, out, err, contents))
    assert results[1] == results[0]
    return results[0][0]


@pytest.mark.parametrize(
    "args, code",
    [
        ((), 0),
        (("-check",), 3),
        (("-check", "-list=false"), 3),
        (("-check", "-diff"), 3),
        (("-check", "-recursive"), 3),
        (("-list=false", "-write=false", "-diff"), 0),
        (("-write=false", "-recursive"), 0),
        (("-recursive",), 0),
        (("-write=false", "sub/s.tf", "a.tf"), 0),
        (("-write=false", "sub/m.tfmock.hcl"), 0),
        (("-write=false", "sub"), 0),
        (("-write=false", "j.tf.json", "a.tf"), 2),
        (("-write=false", "a.tf", "nope", "c.tfvars"), 2),
        (("-bogus",), 1),
        (("-list=maybe",), 1),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, tuple) else str(v),
)
def test_directory_flags(tmp_path: Path, args: tuple[str, ...], code: int) -> None:
    assert _compare_in_trees(tmp_path, *args) == code


def test_check_on_formatted_tree_exits_zero(tmp_path: Path) -> None:
    for tool in ("terraform", "groundplan"):
        root = tmp_path / tool
        root.mkdir()
        (root / "main.tf").write_text('resource "a" "b" {\n  x = 1\n}\n', encoding="utf-8")
        assert _run(tool, root, "fmt", "-check")[:2] == (0, b"")


@pytest.mark.parametrize("color", [True, False], ids=["color", "no-color"])
def test_syntax_error_is_reported_and_nothing_written(tmp_path: Path, color: bool) -> None:
    extra = {"bad.tf": 'resource "a" "b" {\n  x = 1 2\n}\n', "bad2.tfvars": 'a = "x\n'}
    results = []
    for tool in ("terraform", "groundplan"):
        root = tmp_path / tool
        _tree(root)
        for name, text in extra.items():
            (root / name).write_text(text, encoding="utf-8")
        args = ["fmt"] if color else ["fmt", "-no-color"]
        code, out, err = _run(tool, root, *args)
        results.append((code, out, err, (root / "bad.tf").read_text(encoding="utf-8")))
    assert results[0][0] == 2
    assert results[1] == results[0]


def test_stdin_syntax_error_shows_source(tmp_path: Path) -> None:
    src = b'a = 1; b = "x"\n'
    tf = _run("terraform", tmp_path, "fmt", "-no-color", "-", stdin=src)
    gp = _run("groundplan", tmp_path, "fmt", "-no-color", "-", stdin=src)
    assert tf[0] == 2
    assert gp == tf


@pytest.mark.parametrize(
    "args", [("-check", "-"), ("-diff", "-"), ("-check", "-diff", "-"), ("-list=true", "-")]
)
def test_stdin_modes(tmp_path: Path, args: tuple[str, ...]) -> None:
    src = b"a=1\n"
    tf = _run("terraform", tmp_path, "fmt", "-no-color", *args, stdin=src)
    gp = _run("groundplan", tmp_path, "fmt", "-no-color", *args, stdin=src)
    assert gp == tf


def test_diff_of_a_larger_change(tmp_path: Path) -> None:
    big = "".join((CASES / n).read_text(encoding="utf-8") for n in ("misaligned_eq.tf", "long_object.tf"))
    assert _compare_in_trees(tmp_path, "-diff", "-write=false", extra={"big.tf": big}) == 0


def test_workdir_is_untouched_by_write_false(tmp_path: Path) -> None:
    _tree(tmp_path)
    before = (tmp_path / "a.tf").read_bytes()
    assert _run("groundplan", tmp_path, "fmt", "-write=false")[0] == 0
    assert (tmp_path / "a.tf").read_bytes() == before
    assert shutil.which("diff") is not None  # -diff uses the system diff, as terraform does


def test_help_is_terraforms(tmp_path: Path) -> None:
    tf = _run("terraform", tmp_path, "fmt", "-help")
    gp = _run("groundplan", tmp_path, "fmt", "-help")
    assert gp == tf and b"-recursive" in gp[1]
