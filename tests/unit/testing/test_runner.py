"""The test command in-process: states shared and destroyed, overrides, mocks, verdicts."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from engine.cli import main as cli_main
from engine.cli.ui import Ui

CONFIG = """\
variable "n" {
  type    = number
  default = 1
}

resource "terraform_data" "a" {
  count = var.n
  input = "a${count.index}"
}

module "m" {
  source = "./m"
}

output "ids" {
  value = terraform_data.a[*].id
}

output "m" {
  value = module.m.v
}
"""


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli_main.run(argv, Ui(out, err, io.StringIO(""), color=False))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture()
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "main.tf").write_text(CONFIG)
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "main.tf").write_text('output "v" {\n  value = "real"\n}\n')
    (tmp_path / ".terraform" / "modules").mkdir(parents=True)
    (tmp_path / ".terraform" / "modules" / "modules.json").write_text(json.dumps(
        {"Modules": [{"Key": "", "Source": "", "Dir": "."},
                     {"Key": "m", "Source": "./m", "Dir": "m"}]}))
    (tmp_path / "tests").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _test_file(workdir: Path, text: str) -> None:
    (workdir / "tests" / "t.tftest.hcl").write_text(text)


def test_runs_share_state_and_ids_survive(workdir: Path) -> None:
    _test_file(workdir, """
run "one" {}

run "two" {
  variables {
    n = 2
  }
  assert {
    condition     = output.ids[0] == run.one.ids[0]
    error_message = "the first object was replaced"
  }
}
""")
    code, out, err = _run(["test"])
    assert code == 0, out + err
    assert 'run "two"... pass' in out
    assert out.endswith("Success! 2 passed, 0 failed.\n")


def test_override_module_and_resource(workdir: Path) -> None:
    _test_file(workdir, """
override_module {
  target  = module.m
  outputs = { v = "fake" }
}

run "one" {
  override_resource {
    target = terraform_data.a
    values = { id = "fixed" }
  }
  assert {
    condition     = output.m == "fake" && output.ids == ["fixed"]
    error_message = "not overridden"
  }
}
""")
    code, out, err = _run(["test"])
    assert code == 0, out + err


def test_failure_exit_code_and_json(workdir: Path) -> None:
    _test_file(workdir, """
run "one" {
  command = plan
  assert {
    condition     = var.n == 2
    error_message = "n is ${var.n}"
  }
}
""")
    code, out, err = _run(["test"])
    assert code == 1
    assert "Failure! 0 passed, 1 failed." in out
    assert "Error: Test assertion failed" in err and "n is 1" in err
    code, out, _err = _run(["test", "-json"])
    assert code == 1
    msgs = [json.loads(line) for line in out.splitlines()]
    types = [m["type"] for m in msgs]
    assert types[:3] == ["version", "test_abstract", "test_file"]
    diag = next(m for m in msgs if m["type"] == "diagnostic")
    assert diag["@testrun"] == "one" and diag["diagnostic"]["detail"] == "n is 1"
    assert msgs[-1]["test_summary"] == {"status": "fail", "passed": 0, "failed": 1,
                                        "errored": 0, "skipped": 0}


def test_filter_names_unknown_files(workdir: Path) -> None:
    _test_file(workdir, 'run "one" {\n  command = plan\n}\n')
    code, out, _err = _run(["test", "-filter=tests/nope.tftest.hcl"])
    assert code == 0
    assert "Warning: Unknown test file" in out
    assert "Executed 0 tests." in out
