"""`groundplan test` beside `terraform test` on the same modules and test files.

Three modules under tests/conformance/test_command/: `basic` (terraform_data, a child module, a
setup module, conditions and a check block), `random` (the repository's Python random
provider, with an aliased configuration) and `aws` (`mock_provider "aws"` over the real
hashicorp/aws 3.39.0 schema; no moto server runs, so any real call would fail). Every test
file runs alone (`-filter`) through both tools: stdout (the per-run verdicts, the file verdict
and the summary line) must be identical, the exit codes equal, and the error summaries on
stderr the same. A whole-directory run compares the combined output too.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from engine.plugin.sdk.package import package
from tests.conformance.harness import Run, require_terraform, run_groundplan, run_terraform

CASES = Path(__file__).resolve().parent / "test_command"
PLATFORM = "linux_amd64"


def _files(module: str) -> list[str]:
    return sorted(f"tests/{p.name}" for p in (CASES / module / "tests").glob("*.tftest.hcl"))


def _aws_binary() -> Path:
    from tests.functional.conftest import _fetch_aws_provider, _provider_cache_dir

    return _fetch_aws_provider(_provider_cache_dir())


@pytest.fixture(scope="module")
def mirror(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("testcmd-mirror")
    package("random", "3.6.3", root)
    binary = _aws_binary()
    pkg = root / "registry.terraform.io/hashicorp/aws/3.39.0" / PLATFORM
    pkg.mkdir(parents=True)
    try:
        os.link(binary, pkg / binary.name)
    except OSError:
        shutil.copy2(binary, pkg / binary.name)
    return root


@pytest.fixture(scope="module")
def workdirs(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    require_terraform()
    base = tmp_path_factory.mktemp("testcmd")
    out: dict[str, tuple[Path, Path]] = {}
    for module in ("basic", "random", "aws"):
        pair = []
        for tool, runner in (("tf", run_terraform), ("gp", run_groundplan)):
            d = base / module / tool
            shutil.copytree(CASES / module, d)
            init = runner(d, "init", "-no-color", f"-plugin-dir={mirror}")
            assert init.code == 0, init.stdout + init.stderr
            pair.append(d)
        out[module] = (pair[0], pair[1])
    return out


def _error_summaries(run: Run) -> list[str]:
    return sorted(set(re.findall(r"^Error: (.+)$", run.stderr, re.M)))


def _compare(tf: Run, gp: Run) -> None:
    assert gp.stdout == tf.stdout, f"stdout differs\n--- terraform\n{tf.stdout}\n--- groundplan\n{gp.stdout}\n--- gp stderr\n{gp.stderr}"
    assert gp.code == tf.code, (tf.code, gp.code, gp.stderr)
    assert _error_summaries(gp) == _error_summaries(tf), (tf.stderr, gp.stderr)


CASE_IDS = [(m, f) for m in ("basic", "random", "aws") for f in _files(m)]


def test_enough_test_files() -> None:
    assert len(CASE_IDS) >= 40


@pytest.mark.parametrize(("module", "name"), CASE_IDS, ids=[f"{m}/{f}" for m, f in CASE_IDS])
def test_file_matches_terraform(workdirs: dict[str, tuple[Path, Path]], module: str,
                                name: str) -> None:
    tf_dir, gp_dir = workdirs[module]
    tf = run_terraform(tf_dir, "test", "-no-color", f"-filter={name}", timeout=300)
    gp = run_groundplan(gp_dir, "test", "-no-color", f"-filter={name}", timeout=300)
    _compare(tf, gp)


def test_whole_directory_with_variables(workdirs: dict[str, tuple[Path, Path]]) -> None:
    tf_dir, gp_dir = workdirs["basic"]
    args = ["test", "-no-color", "-var=limit=2", "-filter=tests/a01_pass_apply.tftest.hcl",
            "-filter=tests/a12_multiple_asserts.tftest.hcl",
            "-filter=tests/a05_vars_across.tftest.hcl"]
    _compare(run_terraform(tf_dir, *args), run_groundplan(gp_dir, *args))


def test_json_messages(workdirs: dict[str, tuple[Path, Path]]) -> None:
    """-json: every message equals terraform's but for its timestamp (and random ids)."""
    tf_dir, gp_dir = workdirs["basic"]
    args = ["test", "-json", "-filter=tests/a02_fail_apply.tftest.hcl",
            "-filter=tests/a05_vars_across.tftest.hcl", "-filter=tests/a13_error_skips.tftest.hcl"]
    tf, gp = run_terraform(tf_dir, *args), run_groundplan(gp_dir, *args)
    assert gp.code == tf.code == 1

    def docs(run: Run) -> list[str]:
        import json

        out = []
        for line in run.stdout.splitlines():
            msg = json.loads(line)
            msg.pop("@timestamp")
            out.append(re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
                              "<uuid>", json.dumps(msg, sort_keys=True)))
        return out

    assert docs(gp) == docs(tf)


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("example", ["basic", "resources"])
def test_example_test_files(example: str, tmp_path: Path) -> None:
    """The module examples' own test files pass, in both tools, with the same output."""
    runs = []
    for tool, runner in (("tf", run_terraform), ("gp", run_groundplan)):
        d = tmp_path / tool
        shutil.copytree(EXAMPLES / example, d)
        runs.append(runner(d, "test", "-no-color"))
    tf, gp = runs
    _compare(tf, gp)
    assert gp.code == 0, gp.stdout + gp.stderr
    assert "Success!" in gp.stdout


BAD_FILES = {
    "keyword": 'run "x" {\n  command = destroy\n  foo     = 1\n}\n',
    "duplicate": 'run "x" {}\n\nrun "x" {}\n',
    "syntax": 'run "x" {\n  command = \n}\n',
    "plan_options": 'run "x" {\n  plan_options {\n    mode = sideways\n  }\n}\n',
    "parallel_is_1_12": 'run "x" {\n  parallel = true\n}\n',
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_malformed_test_file(case: str, tmp_path: Path) -> None:
    """A test file that cannot be decoded stops the command with terraform's diagnostics."""
    runs = []
    for tool, runner in (("tf", run_terraform), ("gp", run_groundplan)):
        d = tmp_path / tool
        (d / "tests").mkdir(parents=True)
        (d / "main.tf").write_text('resource "terraform_data" "x" {}\n')
        (d / "tests" / "bad.tftest.hcl").write_text(BAD_FILES[case])
        runs.append(runner(d, "test", "-no-color"))
    tf, gp = runs
    assert gp.code == tf.code == 1
    assert gp.stdout.strip() == tf.stdout.strip()
    assert _error_summaries(gp) == _error_summaries(tf), (tf.stderr, gp.stderr)
    assert re.findall(r"line \d+", gp.stderr) == re.findall(r"line \d+", tf.stderr)


UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def test_verbose_prints_plans_and_states(workdirs: dict[str, tuple[Path, Path]]) -> None:
    """-verbose: the plan of a plan run and the state of an apply run, as terraform prints
    them (object ids are random UUIDs in both tools)."""
    tf_dir, gp_dir = workdirs["basic"]
    args = ["test", "-no-color", "-verbose", "-filter=tests/a03_plan_pass.tftest.hcl",
            "-filter=tests/a18_refresh_only.tftest.hcl"]
    tf, gp = run_terraform(tf_dir, *args), run_groundplan(gp_dir, *args)
    assert gp.code == tf.code == 0, gp.stderr
    assert UUID.sub("<uuid>", gp.stdout) == UUID.sub("<uuid>", tf.stdout)


LEFTOVER = """\
resource "terraform_data" "stuck" {
  input = "x"
  provisioner "local-exec" {
    when    = destroy
    command = "exit 1"
  }
}

resource "terraform_data" "fine" {}
"""


def test_failed_destroy_names_the_leftovers(tmp_path: Path) -> None:
    """A destroy that fails at the end of a file: terraform's error text, the diagnostic and
    the list of resources left in state, exit 1."""
    runs = []
    for tool, runner in (("tf", run_terraform), ("gp", run_groundplan)):
        d = tmp_path / tool
        (d / "tests").mkdir(parents=True)
        (d / "main.tf").write_text(LEFTOVER)
        (d / "tests" / "l.tftest.hcl").write_text('run "create" {}\n')
        runs.append(runner(d, "test", "-no-color"))
    tf, gp = runs
    assert gp.code == tf.code == 1
    assert gp.stdout == tf.stdout
    marker = "groundplan encountered an error destroying"
    assert gp.stderr[gp.stderr.index(marker):] == tf.stderr[tf.stderr.index(marker):]
    assert "  - terraform_data.stuck\n" in gp.stderr


REQUIRED = 'variable "req" {\n  type = string\n}\n\nresource "terraform_data" "x" {\n  input = var.req\n}\n'
STANDALONE = {
    "required_missing": (REQUIRED, 'run "x" {\n  command = plan\n}\n', []),
    "var_file": (REQUIRED, 'run "x" {\n  assert {\n    condition     = terraform_data.x.input'
                 ' == "fromfile"\n    error_message = "var file"\n  }\n}\n',
                 ["-var-file=vals.tfvars"]),
    "cli_var_loses_to_file": (REQUIRED, 'variables {\n  req = "test"\n}\n\nrun "x" {\n'
                              '  command = plan\n  assert {\n    condition     = var.req == '
                              '"test"\n    error_message = "precedence"\n  }\n}\n',
                              ["-var=req=cli"]),
}


@pytest.mark.parametrize("case", sorted(STANDALONE))
def test_variables_from_the_command_line(case: str, tmp_path: Path) -> None:
    main, test_file, args = STANDALONE[case]
    runs = []
    for tool, runner in (("tf", run_terraform), ("gp", run_groundplan)):
        d = tmp_path / tool
        (d / "tests").mkdir(parents=True)
        (d / "main.tf").write_text(main)
        (d / "vals.tfvars").write_text('req = "fromfile"\n')
        (d / "tests" / "t.tftest.hcl").write_text(test_file)
        runs.append(runner(d, "test", "-no-color", *args))
    _compare(*runs)
