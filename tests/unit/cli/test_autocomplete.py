"""`-install-autocomplete` / `-uninstall-autocomplete` in a temporary home, and the answers to
the shell's completion requests, through the command line as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _run(home: Path, *args: str, comp_line: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "COMP_LINE"}
    env.update(HOME=str(home), PYTHONPATH=str(ROOT))
    if comp_line is not None:
        env["COMP_LINE"] = comp_line
    return subprocess.run([sys.executable, "-m", "engine.cli.main", *args], env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def _complete_line(home: Path, rc: str) -> str:
    lines = [ln for ln in (home / rc).read_text().splitlines() if ln.startswith("complete ")]
    assert len(lines) == 1, lines
    return lines[0]


def test_install_and_uninstall_bash_and_zsh(tmp_path: Path) -> None:
    (tmp_path / ".bashrc").write_text("export A=1\n")
    (tmp_path / ".profile").write_text("# untouched: .bashrc comes first\n")
    (tmp_path / ".zshrc").write_text("setopt x\n")
    first = _run(tmp_path, "-install-autocomplete")
    assert (first.returncode, first.stdout, first.stderr) == (0, "", "")
    bash = _complete_line(tmp_path, ".bashrc")
    assert bash.startswith("complete -C /") and bash.endswith(" groundplan")
    assert (tmp_path / ".bashrc").read_text() == f"export A=1\n\n{bash}\n"
    zsh = _complete_line(tmp_path, ".zshrc")
    assert zsh == bash.replace("complete -C", "complete -o nospace -C")
    assert (tmp_path / ".zshrc").read_text() == (
        f"setopt x\n\nautoload -U +X bashcompinit && bashcompinit\n{zsh}\n")
    assert (tmp_path / ".profile").read_text() == "# untouched: .bashrc comes first\n"

    again = _run(tmp_path, "-install-autocomplete")
    assert again.returncode == 1
    assert again.stderr == (
        "Error executing CLI: 2 errors occurred:\n"
        f"\t* already installed in {tmp_path / '.bashrc'}\n"
        f"\t* already installed in {tmp_path / '.zshrc'}\n\n\n")

    removed = _run(tmp_path, "-uninstall-autocomplete")
    assert (removed.returncode, removed.stderr) == (0, "")
    assert (tmp_path / ".bashrc").read_text() == "export A=1\n\n"
    assert (tmp_path / ".zshrc").read_text() == (
        "setopt x\n\nautoload -U +X bashcompinit && bashcompinit\n")
    not_there = _run(tmp_path, "-uninstall-autocomplete")
    assert not_there.returncode == 1
    assert f"\t* does not installed in {tmp_path / '.bashrc'}\n" in not_there.stderr


def test_no_shell_files(tmp_path: Path) -> None:
    run = _run(tmp_path, "-install-autocomplete")
    assert (run.returncode, run.stderr) == (1, "Error executing CLI: Did not find any shells to install\n")
    assert list(tmp_path.iterdir()) == []


def test_completions(tmp_path: Path) -> None:
    assert _run(tmp_path, comp_line="groundplan pl").stdout == "plan\n"
    assert _run(tmp_path, comp_line="groundplan st").stdout == "state\n"
    state = _run(tmp_path, comp_line="groundplan state ").stdout.split()
    assert {"list", "mv", "rm", "show", "pull", "push"} <= set(state) and state == sorted(state)
    assert _run(tmp_path, comp_line="groundplan workspace se").stdout == "select\n"
    assert _run(tmp_path, comp_line="groundplan plan -out=p x").stdout == ""
