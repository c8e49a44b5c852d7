"""Shell completion, as terraform has it: `-install-autocomplete` and `-uninstall-autocomplete`,
and answering the shell when it asks for completions.

Installing adds one line to the shell start-up files that exist in the home directory (`$HOME`):
`complete -C <groundplan> groundplan` to the first of `.bashrc`, `.bash_profile`,
`.bash_login`, `.profile`; `complete -o nospace -C <groundplan> groundplan` to `.zshrc`
(preceded by `autoload -U +X bashcompinit && bashcompinit` when that is not there yet). The
shell then runs `<groundplan>` with `COMP_LINE` set to the line typed so far, and groundplan
prints the words that can follow, one per line: commands, and the subcommands of `state` and
`workspace`. Errors read as terraform's (`Error executing CLI: 1 error occurred:` and one
`* already installed in <file>` line per file); no start-up file at all is "Did not find any
shells to install".
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from engine.cli.ui import Ui

BASH_FILES = (".bashrc", ".bash_profile", ".bash_login", ".profile")
BASHCOMPINIT = "autoload -U +X bashcompinit && bashcompinit"
NAME = "groundplan"
WORKSPACE_SUBCOMMANDS = ("delete", "list", "new", "select", "show")


@dataclass(frozen=True, slots=True)
class _Shell:
    rc: Path
    line: str
    preamble: str = ""  # a line the file must hold before `line` (zsh's bashcompinit)


def executable() -> str:
    """The absolute path the shell runs to ask groundplan for completions."""
    argv0 = sys.argv[0] if sys.argv and sys.argv[0] else ""
    if argv0 and not argv0.endswith(".py") and os.access(argv0, os.X_OK):
        return os.path.abspath(argv0)
    return shutil.which(NAME) or os.path.abspath(argv0 or NAME)


def _shells(home: Path, binary: str) -> list[_Shell]:
    found: list[_Shell] = []
    for name in BASH_FILES:
        if (home / name).is_file():
            found.append(_Shell(home / name, f"complete -C {binary} {NAME}"))
            break
    if (home / ".zshrc").is_file():
        found.append(_Shell(home / ".zshrc", f"complete -o nospace -C {binary} {NAME}",
                            BASHCOMPINIT))
    return found


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _report(ui: Ui, errors: list[str]) -> int:
    if not errors:
        return 0
    count = f"{len(errors)} error occurred" if len(errors) == 1 else f"{len(errors)} errors occurred"
    # hashicorp/go-multierror's text ("...:\n\t* one\n\n"), then the CLI's line break
    ui.err(f"Error executing CLI: {count}:\n" + "".join(f"\t* {e}\n" for e in errors) + "\n")
    return 1


def install(ui: Ui, home: Path | None = None) -> int:
    """`-install-autocomplete`: add the completion line to each shell's start-up file."""
    shells = _shells(home or Path.home(), executable())
    if not shells:
        ui.err("Error executing CLI: Did not find any shells to install")
        return 1
    errors: list[str] = []
    for shell in shells:
        lines = _lines(shell.rc)
        if shell.line in lines:
            errors.append(f"already installed in {shell.rc}")
            continue
        text = shell.line
        if shell.preamble and shell.preamble not in lines:
            text = f"{shell.preamble}\n{text}"
        with shell.rc.open("a", encoding="utf-8") as fh:
            fh.write(f"\n{text}\n")
    return _report(ui, errors)


def uninstall(ui: Ui, home: Path | None = None) -> int:
    """`-uninstall-autocomplete`: remove the completion line from each shell's start-up file."""
    shells = _shells(home or Path.home(), executable())
    if not shells:
        ui.err("Error executing CLI: Did not find any shells to uninstall")
        return 1
    errors: list[str] = []
    for shell in shells:
        lines = _lines(shell.rc)
        if shell.line not in lines:
            errors.append(f"does not installed in {shell.rc}")
            continue
        shell.rc.write_text("".join(f"{ln}\n" for ln in lines if ln != shell.line),
                            encoding="utf-8")
    return _report(ui, errors)


def completions(line: str, commands: Iterable[str], state_subcommands: Iterable[str]) -> list[str]:
    """The words that can complete the last word of `line` (the shell's COMP_LINE)."""
    words = line.split()
    if line.endswith(" ") or not words:
        words.append("")
    args = words[1:]
    if not args:
        return []
    prefix = args[-1]
    if len(args) == 1:
        candidates: Iterable[str] = commands
    elif len(args) == 2 and args[0] == "state":
        candidates = state_subcommands
    elif len(args) == 2 and args[0] == "workspace":
        candidates = WORKSPACE_SUBCOMMANDS
    else:
        return []
    return sorted(c for c in candidates if c.startswith(prefix))


def complete(ui: Ui, line: str, commands: Iterable[str]) -> int:
    """Answer the shell: print the completions of `line`, one per line."""
    from engine.cli.cmd_state import SUBCOMMANDS

    for word in completions(line, commands, SUBCOMMANDS):
        ui.raw(word + "\n")
    return 0
