"""engine.cli.help: the texts `main.run` serves for -help, -help CMD and unknown commands."""

from __future__ import annotations

import io

from engine.cli import main as cli_main
from engine.cli.help import HELP, unknown_command
from engine.cli.ui import Ui


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli_main.run(list(argv), Ui(out, err, io.StringIO(), color=False))
    return code, out.getvalue(), err.getvalue()


def test_every_command_has_help_text_or_its_own_module() -> None:
    own = {"fmt", "state", "workspace", "remote"}  # help kept beside their subcommands
    assert set(cli_main.COMMANDS) == set(HELP) | own


def test_plan_help_lists_the_planning_flags() -> None:
    """terraform 1.11's plan -help lists no -json (plan accepts it all the same)."""
    code, out, _ = _run("plan", "-help")
    assert code == 0
    for flag in ("-out=path", "-destroy", "-target=resource", "-replace=resource",
                 "-parallelism=n", "-refresh-only", "-var-file=filename"):
        assert f"  {flag}" in out, flag


def test_help_before_a_command_is_that_commands_help() -> None:
    assert _run("-help", "plan") == _run("plan", "-help")
    assert _run("-h", "state", "list") == _run("state", "list", "-help")
    code, _, err = _run("-help", "plna")
    assert code == 1 and 'Did you mean "plan"?' in err


def test_unknown_command_suggests_the_nearest_command() -> None:
    commands = list(cli_main.COMMANDS)
    assert unknown_command("stat", commands).startswith(
        'groundplan has no command named "stat". Did you mean "state"?\n\n')
    assert unknown_command("xyzzyq", commands).startswith(
        'groundplan has no command named "xyzzyq".\n\n')


def test_top_level_help_lists_every_command_once() -> None:
    code, out, _ = _run("-help")
    assert code == 0
    listed = [ln.split()[0] for ln in out.split("\n") if ln.startswith("  ") and
              not ln.lstrip().startswith("-") and ln[2] != " "]
    assert sorted(listed) == sorted(cli_main.COMMANDS)
    assert _run()[0:2] == (127, out)
