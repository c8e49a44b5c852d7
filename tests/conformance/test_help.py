"""`-help` texts, `-help CMD`, the unknown-command message and console's `help`, compared with
the terraform binary.

terraform's texts pass through the product-name substitution (`tests.product_name`, applied by
`run_terraform`): "Terraform" and `terraform <command>` read "groundplan". Two texts list
less than terraform's, by design, and the test names exactly what may be missing: the
top-level help lists only the commands groundplan has, and `providers -help` lists only the
`providers` subcommands groundplan has (none). groundplan's own commands (`remote`, the CI
client of the control plane) and `state` subcommands (`re-encrypt`) are listed too, each one
line the test names and removes before comparing; their own help is groundplan's. Any other
difference fails.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cli.main import COMMANDS
from tests.conformance.harness import Run, run_groundplan, run_terraform

#: groundplan's commands and state subcommands that terraform does not have.
OWN_COMMANDS = {"remote"}
OWN_STATE_SUBCOMMANDS = {"re-encrypt"}

# Commands with one help text (state and workspace subcommands are covered by their own
# conformance tests; their top-level `-help` is checked here too).
HELP_COMMANDS = sorted(set(COMMANDS) - OWN_COMMANDS)


def _normalise(text: str) -> str:
    """groundplan's text with the one line of each of its own commands (top-level help) and
    state subcommands (`state -help`) removed."""
    own = OWN_STATE_SUBCOMMANDS if "state <subcommand>" in text.split("\n", 1)[0] else OWN_COMMANDS
    lines = text.split("\n")
    kept = [ln for ln in lines if not (ln.startswith("  ") and (ln.split() or [""])[0] in own)]
    assert len(lines) - len(kept) in (0, len(own))
    return "\n".join(kept)


def _same(tf: Run, gp: Run) -> None:
    assert (gp.code, _normalise(gp.stdout), gp.stderr) == (tf.code, tf.stdout, tf.stderr)


def _without_block(text: str, heading: str) -> str:
    """`text` without the block that starts at the (blank-line preceded) `heading`."""
    start = text.index("\n\n" + heading)
    return text[:start] + "\n"


@pytest.mark.parametrize("command", HELP_COMMANDS)
@pytest.mark.parametrize("flag", ["-help", "-h"])
def test_command_help_matches_terraform(tmp_path: Path, command: str, flag: str) -> None:
    tf, gp = run_terraform(tmp_path, command, flag), run_groundplan(tmp_path, command, flag)
    assert tf.code == 0 and tf.stdout.strip(), tf
    if command == "providers":  # terraform's lock/mirror/schema subcommands do not exist here
        assert "\n\nSubcommands:\n" in tf.stdout and "Subcommands" not in gp.stdout
        tf = Run(tf.code, _without_block(tf.stdout, "Subcommands:"), tf.stderr)
    _same(tf, gp)


@pytest.mark.parametrize("command", sorted(OWN_COMMANDS))
def test_own_command_help(tmp_path: Path, command: str) -> None:
    """groundplan's own commands print their usage, under groundplan's name, exit 0."""
    gp = run_groundplan(tmp_path, command, "-help")
    assert gp.code == 0, gp
    assert (gp.stdout + gp.stderr).startswith(f"Usage: groundplan [global options] {command}"), gp


@pytest.mark.parametrize("args", [
    ["-help", "plan"], ["-h", "apply"], ["--help", "init"], ["-help", "state"],
    ["-help", "state", "list"], ["-help", "workspace", "new"], ["-help", "bogus"],
    ["-help", "plna"],
])
def test_help_before_the_command_matches_terraform(tmp_path: Path, args: list[str]) -> None:
    _same(run_terraform(tmp_path, *args), run_groundplan(tmp_path, *args))


@pytest.mark.parametrize("args", [["-help"], ["-h"], []])
def test_top_level_help_matches_terraform(tmp_path: Path, args: list[str]) -> None:
    """terraform's top-level help, less the lines of commands groundplan does not have."""
    tf, gp = run_terraform(tmp_path, *args), run_groundplan(tmp_path, *args)
    missing = {"login", "logout", "metadata"}
    lines = tf.stdout.split("\n")
    kept = [ln for ln in lines if not (ln.startswith("  ") and ln.split()[0] in missing)]
    assert len(lines) - len(kept) == len(missing)
    assert missing.isdisjoint(COMMANDS)
    _same(Run(tf.code, "\n".join(kept), tf.stderr), gp)


@pytest.mark.parametrize("name", [
    "plna", "stat", "apply-2", "valdate", "worksapce", "destory", "xyzzyq", "bogus",
    "untaint2", "improt",
])
def test_unknown_command_matches_terraform(tmp_path: Path, name: str) -> None:
    tf, gp = run_terraform(tmp_path, name, "-x"), run_groundplan(tmp_path, name, "-x")
    assert tf.code == 1 and "has no command named" in tf.stderr
    _same(tf, gp)


@pytest.mark.parametrize("stdin", ["help\n", "1 + 1\nhelp\n", "help\n2 + 2\n", "  help  \n"])
def test_console_help_matches_terraform(tmp_path: Path, stdin: str) -> None:
    (tmp_path / "main.tf").write_text('variable "x" {\n  default = 1\n}\n', encoding="utf-8")
    tf = run_terraform(tmp_path, "console", stdin=stdin)
    gp = run_groundplan(tmp_path, "console", stdin=stdin)
    assert tf.code == 0 and tf.stdout.strip(), tf
    _same(tf, gp)
