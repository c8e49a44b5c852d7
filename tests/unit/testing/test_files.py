"""Decoding test files: the shapes and terraform's diagnostics for malformed ones."""

from __future__ import annotations

from pathlib import Path

from engine.hcl import parse_file
from engine.testing.files import decode_test_body
from engine.testing.loading import list_test_files, run_module_path


def _decode(text: str):  # type: ignore[no-untyped-def]
    parsed, diags = parse_file(text, "t.tftest.hcl")
    assert not diags.has_errors, diags
    return decode_test_body("t.tftest.hcl", parsed.body)


def test_runs_and_their_settings() -> None:
    tf, diags = _decode('''
variables { a = 1 }
provider "aws" { region = "x" }
provider "aws" {
  alias  = "b"
  region = "y"
}
mock_provider "random" {
  mock_resource "random_string" {
    defaults = { result = "r" }
  }
}
run "one" {
  command = plan
  variables { b = run.zero.x }
  plan_options {
    mode    = refresh-only
    target  = [terraform_data.x]
    replace = [terraform_data.y]
  }
  expect_failures = [var.a, output.o]
  state_key = "k"
  assert {
    condition     = var.a == 1
    error_message = "m"
  }
  assert {
    condition     = true
    error_message = "n"
  }
}
run "two" {
  module { source = "./setup" }
}
''')
    assert not diags.has_errors, list(diags)
    assert set(tf.variables) == {"a"}
    assert set(tf.providers) == {"aws", "aws.b"}
    assert set(tf.mocks) == {"random"}
    assert set(tf.mocks["random"].resources) == {"random_string"}
    one, two = tf.runs
    assert one.command == "plan" and one.options.mode == "refresh-only"
    assert len(one.options.target) == 1 and len(one.options.replace) == 1
    assert len(one.expect_failures) == 2 and one.state_key == "k" and len(one.asserts) == 2
    assert two.command == "apply" and two.module is not None and two.module.source == "./setup"


def test_bad_command_keyword() -> None:
    _tf, diags = _decode('run "x" {\n  command = "plan"\n}\n')
    assert [d.summary for d in diags.errors] == ['Invalid "command" keyword']
    assert diags.errors[0].subject is not None and diags.errors[0].subject.start.line == 2


def test_duplicate_runs_and_unknown_blocks() -> None:
    _tf, diags = _decode('run "x" {}\nrun "x" {}\nresource "a" "b" {}\n')
    summaries = sorted(d.summary for d in diags.errors)
    assert summaries == ['Duplicate "run" block names', "Unsupported block type"]


def test_bad_mode_and_incompatible_options() -> None:
    _tf, diags = _decode('run "x" {\n  plan_options {\n    mode = sideways\n  }\n}\n')
    assert [d.summary for d in diags.errors] == ['Invalid "mode" keyword']
    _tf, diags = _decode('run "x" {\n  plan_options {\n    mode    = refresh-only\n'
                         '    refresh = false\n  }\n}\n')
    assert [d.summary for d in diags.errors] == ["Incompatible plan options"]


def test_module_block_needs_a_source() -> None:
    _tf, diags = _decode('run "x" {\n  module {}\n}\n')
    assert [d.summary for d in diags.errors] == ['Missing "source" attribute for module block']


def test_override_needs_target_and_object() -> None:
    _tf, diags = _decode('override_resource {\n  values = {}\n}\n'
                         'override_data {\n  target = data.a.b\n  values = 1\n}\n')
    assert sorted(d.summary for d in diags.errors) == ["Invalid values attribute",
                                                      "Missing target attribute"]


def test_found_in_module_and_test_directory(tmp_path: Path) -> None:
    # as terraform's dirFiles: the test directory is not searched below its top level, and
    # hidden or editor files are skipped
    (tmp_path / "tests" / "sub").mkdir(parents=True)
    for rel in ("a.tftest.hcl", "tests/b.tftest.hcl", "tests/sub/c.tftest.json", "tests/x.tf",
                ".h.tftest.hcl", "tests/d.tftest.json", "tests/e.tftest.hcl~"):
        (tmp_path / rel).write_text("")
    names, diags = list_test_files(str(tmp_path))
    assert names == ["a.tftest.hcl", "tests/b.tftest.hcl", "tests/d.tftest.json"]
    assert not diags


def test_missing_test_directory() -> None:
    # only a directory other than the default one is expected to exist
    names, diags = list_test_files("/nonexistent-root", "tests")
    assert (names, list(diags)) == ([], [])
    names, diags = list_test_files("/nonexistent-root", "checks")
    assert [(d.summary, d.detail) for d in diags] == [
        ("Test directory does not exist", "Requested test directory checks does not exist.")]
    assert list_test_files("/nonexistent-root", "")[0] == []


def test_run_module_keys() -> None:
    # terraform trims only ".tftest.hcl" from the file name
    assert run_module_path("main.tftest.hcl", "setup") == ("test", "main", "setup")
    assert run_module_path("tests/a/b.tftest.hcl", "x") == ("test", "tests", "a", "b", "x")
    assert run_module_path("c.tftest.json", "x") == ("test", "c.tftest.json", "x")
