"""Flag parsing in Go's style, global options, the approval prompt and the crash guard."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from engine.cli import main as cli_main
from engine.cli.args import FlagError, FlagSet
from engine.cli.ui import Ui, wrap_detail


def test_flags_go_style() -> None:
    fs = FlagSet().boolean("json").text("state").multi("var").multi("var-file").integer("n")
    rest = fs.parse(
        ["-json", "--state=x", "-var", "a=1", "-var-file=f", "-var=b=2", "-n", "0x10", "pos", "-json"]
    )
    assert rest == ["pos", "-json"]
    assert fs.get("json") is True and fs.get("state") == "x" and fs.get("n") == 16
    assert fs.ordered == [("var", "a=1"), ("var-file", "f"), ("var", "b=2")]
    assert FlagSet().boolean("x").parse(["-x=false", "--", "-y"]) == ["-y"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-nope"], "flag provided but not defined: -nope"),
        (["-state"], "flag needs an argument: -state"),
        (["-json=maybe"], 'invalid boolean value "maybe" for -json: parse error'),
        (["---x"], "bad flag syntax: ---x"),
    ],
)
def test_flag_errors(argv: list[str], message: str) -> None:
    with pytest.raises(FlagError, match=message.replace("(", r"\(")):
        FlagSet().boolean("json").text("state").parse(argv)


def test_wrap_detail() -> None:
    text = "word " * 30 + "\n    preformatted " + "x" * 90
    wrapped = wrap_detail(text.strip(), 77)
    assert all(len(line) <= 77 for line in wrapped.split("\n")[:-1])
    assert wrapped.split("\n")[-1].startswith("    preformatted")


def make_ui(stdin: str = "") -> tuple[Ui, io.StringIO, io.StringIO]:
    out, err = io.StringIO(), io.StringIO()
    return Ui(out, err, io.StringIO(stdin), color=False), out, err


def test_unknown_command_and_help() -> None:
    ui, out, err = make_ui()
    assert cli_main.run(["frob"], ui) == 1
    assert 'has no command named "frob"' in err.getvalue()
    ui, out, err = make_ui()
    assert cli_main.run([], ui) == 127
    ui, out, err = make_ui()
    assert cli_main.run(["-help"], ui) == 0 and "Usage:" in out.getvalue()


def test_chdir_and_apply_prompt(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text('output "x" { value = 1 }\n', encoding="utf-8")
    cwd = os.getcwd()
    try:
        ui, out, err = make_ui("no\n")
        assert cli_main.run([f"-chdir={tmp_path}", "apply"], ui) == 1
        assert out.getvalue().endswith("  Enter a value: \nApply cancelled.\n")
        assert not (tmp_path / "terraform.tfstate").exists()

        ui, out, err = make_ui("")
        assert cli_main.run(["apply"], ui) == 1
        assert "error asking for approval: EOF" in err.getvalue()

        ui, out, err = make_ui("yes\n")
        assert cli_main.run(["apply"], ui) == 0
        assert out.getvalue().endswith(
            "Apply complete! Resources: 0 added, 0 changed, 0 destroyed.\n\nOutputs:\n\nx = 1\n"
        )
        assert (tmp_path / "terraform.tfstate").exists()

        ui, out, err = make_ui()
        assert cli_main.run(["plan", "-detailed-exitcode"], ui) == 0
        assert "No changes." in out.getvalue()
    finally:
        os.chdir(cwd)


def test_chdir_to_missing_directory() -> None:
    ui, _out, err = make_ui()
    assert cli_main.run(["-chdir=/definitely/not/here", "plan"], ui) == 1
    assert err.getvalue().startswith("Error handling -chdir option: chdir /definitely/not/here:")


def test_crash_guard(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def boom(name: str) -> object:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(cli_main, "load_command", boom)
    monkeypatch.delenv("GROUNDPLAN_TRACEBACK", raising=False)
    assert cli_main.main(["plan", "-no-color"]) == 1
    captured = capsys.readouterr()
    assert "groundplan crashed!" in captured.err and "RuntimeError: kaboom" in captured.err
    assert "Traceback" not in captured.err


def test_version_json() -> None:
    ui, out, _err = make_ui()
    assert cli_main.run(["version", "-json"], ui) == 0
    assert '"terraform_version": "1.11.4"' in out.getvalue()


def test_required_variable_prompt(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(
        'variable "name" {\n  type        = string\n  description = "Who."\n}\n'
        'output "o" { value = var.name }\n',
        encoding="utf-8",
    )
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        ui, out, err = make_ui("bob\n")
        assert cli_main.run(["plan"], ui) == 0
        assert out.getvalue().startswith("var.name\n  Who.\n\n  Enter a value: \n")
        assert '+ o = "bob"' in out.getvalue()

        ui, out, err = make_ui("bob")  # no newline: end of input, as in terraform
        assert cli_main.run(["plan"], ui) == 1
        assert "No value for required variable" in err.getvalue()

        ui, out, err = make_ui("")
        assert cli_main.run(["plan", "-input=false"], ui) == 1
        assert "Enter a value" not in out.getvalue()
    finally:
        os.chdir(cwd)


def test_tf_cli_args_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TF_CLI_ARGS", "-no-color")
    monkeypatch.setenv("TF_CLI_ARGS_plan", "-var 'a=b c' -input=false")
    assert cli_main.env_args("plan", ["-detailed-exitcode"]) == [
        "-no-color", "-var", "a=b c", "-input=false", "-detailed-exitcode",
    ]
    assert cli_main.env_args("output", []) == ["-no-color"]


def test_resources_are_planned_without_writing_state(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(
        'resource "terraform_data" "a" {}\noutput "o" { value = 1 }\n', encoding="utf-8"
    )
    ui, out, _err = make_ui()
    cwd = os.getcwd()
    try:
        assert cli_main.run([f"-chdir={tmp_path}", "plan", "-detailed-exitcode"], ui) == 2
    finally:
        os.chdir(cwd)
    assert "# terraform_data.a will be created" in out.getvalue()
    assert "Plan: 1 to add, 0 to change, 0 to destroy." in out.getvalue()
    assert not (tmp_path / "terraform.tfstate").exists() or (
        tmp_path / "terraform.tfstate"
    ).read_text() == ""
