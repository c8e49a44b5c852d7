"""Test files' run-block modules (`run { module { source = ... } }`) beside terraform.

terraform's `init` installs the module a run block names, keyed `test.<dirs>.<file>.<run>` in
`.terraform/modules/modules.json`, with the module calls below it; its `validate` loads the
test files with the configuration and validates each local run-block module as a
configuration of its own; `test` runs the modules `init` installed. Each case runs through
both tools in its own directory:

- init: stdout (the "- KEY in DIR" lines of one walk sorted: terraform visits test files in
  map order), exit code, error summaries and details, and modules.json byte for byte;
- validate -json: the verdict and every diagnostic (severity, summary, detail, file, start and
  end), in any order (terraform's walk is concurrent), before and after init;
- test: stdout and exit code.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conformance.harness import Run, run_groundplan, run_terraform
from tests.product_name import as_groundplan

pytestmark = pytest.mark.slow

Files = dict[str, str]

SETUP = ('variable "v" {\n  type    = string\n  default = "s"\n}\n'
         'resource "terraform_data" "s" {\n  input = var.v\n}\n'
         'output "o" {\n  value = terraform_data.s.output\n}\n')
NESTED = ('variable "v" {\n  type    = string\n  default = "n"\n}\n'
          'module "child" {\n  source = "./other"\n  v      = var.v\n}\n'
          'output "o" {\n  value = module.child.o\n}\n')
ROOT = ('variable "x" {\n  type    = string\n  default = "a"\n}\n'
        'resource "terraform_data" "r" {\n  input = var.x\n}\n'
        'output "o" {\n  value = terraform_data.r.output\n}\n')


def run_module(name: str, source: str, extra: str = "") -> str:
    return f'run "{name}" {{\n  module {{\n    source = "{source}"\n  }}\n{extra}}}\n'


CHECK = ('run "check" {\n  assert {\n    condition     = output.o == "a"\n'
         '    error_message = "bad"\n  }\n}\n')

CASES: dict[str, Files] = {
    # a run block's module, one nested below another, a second test file in tests/, a module
    # call of the root, and the same module named twice (once with a trailing slash)
    "local": {
        "main.tf": ROOT + 'module "a" {\n  source = "./mod"\n}\n',
        "mod/main.tf": 'output "m" {\n  value = 1\n}\n',
        "setup/main.tf": SETUP,
        "nested/main.tf": NESTED,
        "nested/other/main.tf": SETUP,
        "main.tftest.hcl": run_module("setup", "./setup") + run_module("deep", "./nested")
        + CHECK,
        "tests/more.tftest.hcl": run_module("again", "./setup/"),
    },
    "only_tests": {
        "main.tf": ROOT,
        "setup/main.tf": SETUP,
        "main.tftest.hcl": run_module("setup", "./setup") + CHECK,
    },
    "root_dir_module": {
        "main.tf": ROOT,
        "main.tftest.hcl": run_module("self", "./") + CHECK,
    },
    "missing_dir": {
        "main.tf": ROOT,
        "main.tftest.hcl": run_module("gone", "./nope"),
    },
    "broken": {
        "main.tf": ROOT,
        "setup/main.tf": 'output "o" {\n  value = var.undeclared\n}\n'
        'resource "terraform_data" "x" {\n  input = local.nope\n}\n',
        # the same module twice: terraform validates it once
        "main.tftest.hcl": run_module("one", "./setup") + run_module("two", "./setup"),
    },
    "broken_nested": {
        "main.tf": ROOT,
        "nested/main.tf": NESTED,
        "nested/other/main.tf": 'variable "v" {}\noutput "o" {\n  value = 1 + "a"\n}\n'
        'resource "terraform_data" "r" {\n  count = -1\n}\n',
        "main.tftest.hcl": run_module("deep", "./nested"),
    },
    "nested_syntax_error": {
        "main.tf": ROOT,
        "nested/main.tf": NESTED,
        "nested/other/main.tf": 'output "o" {\n  value = \n}\n',
        "main.tftest.hcl": run_module("deep", "./nested"),
    },
    "import_in_run_module": {
        "main.tf": ROOT,
        "setup/main.tf": SETUP + 'import {\n  to = terraform_data.s\n  id = "x"\n}\n',
        "main.tftest.hcl": run_module("setup", "./setup"),
    },
    "bad_sources": {
        "main.tf": ROOT,
        "main.tftest.hcl": run_module("git", "git::https://example.com/x.git")
        + run_module("bare", "setup")
        + 'run "versioned" {\n  module {\n    source  = "./setup"\n    version = "1.0.0"\n'
        "  }\n}\n"
        + 'run "nosource" {\n  module {\n  }\n}\n',
    },
    "registry": {
        "main.tf": ROOT,
        "main.tftest.hcl": 'run "reg" {\n  module {\n    source  = "hashicorp/consul/aws"\n'
        '    version = "0.1.0"\n  }\n}\n',
    },
    "run_checks": {
        "main.tf": ROOT + 'locals {\n  l = 1\n}\n',
        "setup/main.tf": SETUP,
        "main.tftest.hcl": 'override_resource {\n  target = terraform_data.nowhere\n}\n'
        'override_resource {\n  target = terraform_data.s\n}\n'
        + run_module("setup", "./setup",
                     '  override_resource {\n    target = terraform_data.r\n  }\n'
                     '  expect_failures = [local.l]\n')
        + 'run "main" {\n  expect_failures = [var.x, module.m, output.o, check.c]\n'
        '  override_resource {\n    target = terraform_data.r\n  }\n'
        '  override_module {\n    target = module.nope\n  }\n}\n',
    },
    "run_warnings": {
        "main.tf": ROOT + 'locals {\n  l = 1\n}\n',
        "setup/main.tf": SETUP,
        "main.tftest.hcl": 'run "a" {\n  command = plan\n'
        '  override_resource {\n    target = terraform_data.nowhere\n  }\n}\n'
        + run_module("b", "./setup", '  command = plan\n'
                     '  override_resource {\n    target = terraform_data.r\n  }\n')
        + 'run "c" {\n  command = plan\n  expect_failures = [local.l]\n}\n',
    },
    "test_file_error": {
        "main.tf": ROOT,
        "main.tftest.hcl": 'run "x" {\n  bogus = 1\n}\n',
    },
    "json_test_file": {
        "main.tf": ROOT,
        "setup/main.tf": SETUP,
        "main.tftest.json": json.dumps({"run": {"j": {"command": "plan",
                                                      "module": {"source": "./setup"},
                                                      "plan_options": {"mode": "refresh-only"}}}}),
    },
}


def _write(work: Path, files: Files) -> None:
    for rel, text in files.items():
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        (work / rel).write_text(text, encoding="utf-8")


def _init_view(run: Run) -> tuple[int, str, list[tuple[str, str]]]:
    """(exit code, stdout with each run of "- " lines sorted, error (summary, detail) pairs
    in order of appearance)."""
    lines = run.stdout.splitlines()
    out: list[str] = []
    block: list[str] = []
    for line in [*lines, ""]:
        if line.startswith("- ") and " in " in line:
            block.append(line)
            continue
        out.extend(sorted(block))
        block = []
        out.append(line)
    errors = []
    for m in re.finditer(r"^Error: (.+?)\n\n(.*?)(?=\n\nError: |\n*\Z)", run.stderr, re.M | re.S):
        detail = re.sub(r"^  on .*?\n(   ?\d+:.*\n)+\n", "", m.group(2), flags=re.M)
        errors.append((m.group(1), " ".join(detail.split())))
    return run.code, "\n".join(out[:-1]), errors


def _manifest(work: Path) -> str | None:
    path = work / ".terraform" / "modules" / "modules.json"
    return path.read_text() if path.exists() else None


def _validate_view(run: Run, terraform: bool) -> tuple[Any, ...]:
    try:
        doc = json.loads(run.stdout)
    except json.JSONDecodeError:
        return ("not JSON", run.code, run.stdout[-500:], run.stderr[-500:])

    def text(s: str) -> str:
        return as_groundplan(s, message=True) if terraform else s

    diags = []
    for d in doc["diagnostics"]:
        rng = d.get("range") or {}
        start, end = rng.get("start") or {}, rng.get("end") or {}
        diags.append((d["severity"], text(d["summary"]), text(d.get("detail", "")),
                      rng.get("filename"), start.get("line"), start.get("column"),
                      end.get("line"), end.get("column")))
    return doc["valid"], sorted(diags, key=repr)


def _pair(tmp_path: Path, files: Files) -> tuple[Path, Path]:
    tf, gp = tmp_path / "tf", tmp_path / "gp"
    _write(tf, files)
    _write(gp, files)
    return tf, gp


def _both(tf: Path, gp: Path, *args: str) -> tuple[Run, Run]:
    return run_terraform(tf, *args), run_groundplan(gp, *args)


INIT_CASES = ["local", "only_tests", "root_dir_module", "missing_dir", "broken",
              "broken_nested", "nested_syntax_error", "test_file_error", "json_test_file"]


@pytest.mark.parametrize("name", INIT_CASES)
def test_init_installs_run_block_modules(name: str, tmp_path: Path) -> None:
    tf, gp = _pair(tmp_path, CASES[name])
    want, got = _both(tf, gp, "init", "-no-color", "-backend=false")
    assert _init_view(got) == _init_view(want), (want.stdout, want.stderr, got.stdout, got.stderr)
    assert _manifest(gp) == _manifest(tf)
    # a second init keeps what is installed, silently
    want, got = _both(tf, gp, "init", "-no-color", "-backend=false")
    assert _init_view(got) == _init_view(want), (want.stdout, want.stderr, got.stdout, got.stderr)
    assert _manifest(gp) == _manifest(tf)


def test_init_reinstalls_when_a_source_changes(tmp_path: Path) -> None:
    files = dict(CASES["local"])
    tf, gp = _pair(tmp_path, files)
    _both(tf, gp, "init", "-no-color", "-backend=false")
    for work in (tf, gp):
        (work / "main.tftest.hcl").write_text(run_module("setup", "./nested") + CHECK)
    want, got = _both(tf, gp, "init", "-no-color", "-backend=false")
    assert _init_view(got) == _init_view(want), (want.stdout, got.stdout, got.stderr)
    assert _manifest(gp) == _manifest(tf)
    want, got = _both(tf, gp, "init", "-no-color", "-backend=false", "-upgrade")
    assert _init_view(got) == _init_view(want), (want.stdout, got.stdout, got.stderr)
    assert _manifest(gp) == _manifest(tf)


def test_init_registry_run_module_is_an_install_error(tmp_path: Path) -> None:
    """No registry is reachable from here: both fail installing it (the details name the
    network error, which groundplan does not reproduce)."""
    tf, gp = _pair(tmp_path, CASES["registry"])
    want, got = _both(tf, gp, "init", "-no-color", "-backend=false")
    w, g = _init_view(want), _init_view(got)
    assert (g[0], g[1], [s for s, _ in g[2]]) == (w[0], w[1], [s for s, _ in w[2]])
    assert w[2][0][0] == "Error accessing remote module registry"
    assert _manifest(gp) == _manifest(tf)


def test_init_test_directory_flag(tmp_path: Path) -> None:
    files = {**CASES["only_tests"], "checks/x.tftest.hcl": run_module("other", "./setup")}
    tf, gp = _pair(tmp_path, files)
    want, got = _both(tf, gp, "init", "-no-color", "-backend=false", "-test-directory=checks")
    assert _init_view(got) == _init_view(want), (want.stdout, got.stdout, got.stderr)
    assert _manifest(gp) == _manifest(tf)
    assert '"test.checks.x.other"' in (_manifest(tf) or "")


VALIDATE_CASES = ["local", "only_tests", "missing_dir", "broken", "broken_nested",
                  "nested_syntax_error", "import_in_run_module", "bad_sources", "run_checks",
                  "run_warnings",
                  "test_file_error", "json_test_file", "root_dir_module"]


@pytest.mark.parametrize("name", VALIDATE_CASES)
def test_validate_loads_run_block_modules(name: str, tmp_path: Path) -> None:
    tf, gp = _pair(tmp_path, CASES[name])
    # not initialised: the run blocks' modules are not installed
    want, got = _both(tf, gp, "validate", "-json")
    assert _validate_view(got, False) == _validate_view(want, True)
    want, got = _both(tf, gp, "validate", "-json", "-no-tests")
    assert _validate_view(got, False) == _validate_view(want, True)
    _both(tf, gp, "init", "-no-color", "-backend=false")
    want, got = _both(tf, gp, "validate", "-json")
    assert _validate_view(got, False) == _validate_view(want, True)


def test_validate_after_the_module_changed_or_went(tmp_path: Path) -> None:
    tf, gp = _pair(tmp_path, CASES["local"])
    _both(tf, gp, "init", "-no-color", "-backend=false")
    for work in (tf, gp):
        (work / "tests" / "more.tftest.hcl").write_text(run_module("again", "./nested"))
        shutil.rmtree(work / "nested" / "other")
    want, got = _both(tf, gp, "validate", "-json")
    view = _validate_view(want, True)
    assert {d[1] for d in view[1]} == {"Module source has changed", "Module not installed"}
    assert _validate_view(got, False) == view


def test_validate_test_directory_flag(tmp_path: Path) -> None:
    files = {**CASES["broken"], "main.tftest.hcl": "", "checks/x.tftest.hcl":
             run_module("other", "./setup")}
    tf, gp = _pair(tmp_path, files)
    _both(tf, gp, "init", "-no-color", "-backend=false", "-test-directory=checks")
    for args in (("-test-directory=checks",), ("-test-directory=absent",), ()):
        want, got = _both(tf, gp, "validate", "-json", *args)
        assert _validate_view(got, False) == _validate_view(want, True), args


def test_validate_verdicts_are_not_vacuous(tmp_path: Path) -> None:
    """terraform's own verdicts on three cases, so the comparisons above can fail."""
    seen = {}
    for name in ("local", "broken", "only_tests"):
        work = tmp_path / name
        _write(work, CASES[name])
        seen[name, "bare"] = _validate_view(run_terraform(work, "validate", "-json"), True)[0]
        run_terraform(work, "init", "-backend=false")
        seen[name, "init"] = _validate_view(run_terraform(work, "validate", "-json"), True)[0]
    assert seen == {("local", "bare"): False, ("local", "init"): True,
                    ("broken", "bare"): False, ("broken", "init"): False,
                    ("only_tests", "bare"): False, ("only_tests", "init"): True}


@pytest.mark.parametrize("name", ["local", "only_tests", "root_dir_module", "json_test_file",
                                  "run_warnings"])
def test_test_command_runs_installed_modules(name: str, tmp_path: Path) -> None:
    tf, gp = _pair(tmp_path, CASES[name])
    # before init: "Module not installed", from both
    want, got = _both(tf, gp, "test", "-no-color")
    assert (got.code, _init_view(got)[2]) == (want.code, _init_view(want)[2])
    _both(tf, gp, "init", "-no-color", "-backend=false")
    want, got = _both(tf, gp, "test", "-no-color")
    assert (got.code, got.stdout) == (want.code, want.stdout), (want.stdout, got.stdout,
                                                                 got.stderr)
    assert (_init_view(got)[2]) == (_init_view(want)[2])
    if name != "run_warnings":
        assert want.code == 0 and "passed, 0 failed" in want.stdout
