"""The README tells the truth about the command line: it names every command and `state`
subcommand groundplan has, and points at nothing outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

from engine.cli.cmd_state import SUBCOMMANDS
from engine.cli.main import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_command_and_state_subcommand_is_listed() -> None:
    table = [line for line in README.splitlines() if line.startswith("| `")]
    listed = " ".join(table)
    missing = [name for name in COMMANDS if not re.search(rf"`{re.escape(name)}\b", listed)]
    assert not missing, missing
    missing_state = [name for name in SUBCOMMANDS
                     if not re.search(rf"`state {re.escape(name)}\b", listed)]
    assert not missing_state, missing_state


def test_no_link_leaves_the_repository() -> None:
    outside = re.findall(r"https?://(?!127\.0\.0\.1|localhost)\S+|\.\./\S+", README)
    assert not outside, outside
    for ref in re.findall(r"`((?:docs|benchmarks|examples|tests|infra)/[^`\s]+\.md)`", README):
        assert (ROOT / ref).is_file(), ref
