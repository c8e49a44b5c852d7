"""Running commands with the local-exec provisioner: output, environment, failures, stop."""

from __future__ import annotations

import os
import select
import sys
import threading
from pathlib import Path

import pytest

from engine.diags import Diagnostics
from engine.provisioners import LOCAL_EXEC
from engine.provisioners.lines import TailBuffer
from engine.provisioners.local_exec import Invocation, exit_reason
from engine.values import BOOL, STRING, TRUE, Value, list_, map_, null, object_, string


def _config(
    command: str | None,
    interpreter: list[str] | None = None,
    working_dir: str | None = None,
    environment: dict[str, Value] | None = None,
    quiet: Value | None = None,
) -> Value:
    return object_(
        {
            "command": string(command) if command is not None else null(STRING),
            "interpreter": list_([string(s) for s in interpreter], STRING)
            if interpreter is not None
            else null(),
            "working_dir": string(working_dir) if working_dir is not None else null(STRING),
            "environment": map_(environment, STRING) if environment is not None else null(),
            "quiet": quiet if quiet is not None else null(BOOL),
        }
    )


def _run(config: Value, stop: threading.Event | None = None) -> tuple[list[str], Diagnostics]:
    lines: list[str] = []
    diags = LOCAL_EXEC.provision(config, lines.append, stop or threading.Event())
    return lines, diags


def test_runs_with_default_shell_and_shows_command() -> None:
    lines, diags = _run(_config("echo out; echo err >&2; printf noeol"))
    assert not diags
    assert lines == [
        'Executing: ["/bin/sh" "-c" "echo out; echo err >&2; printf noeol"]',
        "out",
        "err",
        "noeol",
    ]


def test_empty_lines_are_kept_and_idle_time_adds_none() -> None:
    lines, diags = _run(_config("echo a; echo; sleep 0.4; echo b"))
    assert not diags
    assert lines[1:] == ["a", "", "b"]


def test_partial_line_is_flushed_when_output_pauses(tmp_path: Path) -> None:
    # The command prints "abc" without a newline, then waits (up to 60 s) until the test has
    # seen it: only a flush while the process still runs lets it answer "def", not "timeout".
    flag = tmp_path / "seen"
    lines: list[str] = []

    def seen(line: str) -> None:
        lines.append(line)
        if line == "abc":
            flag.touch()

    LOCAL_EXEC.provision(
        _config(f"printf abc; i=0; while [ ! -e {flag} ] && [ $i -lt 600 ]; do sleep 0.1; "
                "i=$((i+1)); done; [ -e " + str(flag) + " ] && echo def || echo timeout"),
        seen,
        threading.Event(),
    )
    assert lines[1:] == ["abc", "def"]


def test_environment_is_added_to_the_inherited_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GP_INHERITED", "inh")
    monkeypatch.setenv("GP_OVERRIDDEN", "old")
    env = {"GP_NEW": string("new"), "GP_OVERRIDDEN": string("new2"), "GP_NULL": null(STRING)}
    lines, diags = _run(
        _config('echo "$GP_INHERITED $GP_NEW $GP_OVERRIDDEN [${GP_NULL-unset}]"', environment=env)
    )
    assert not diags
    assert lines[1:] == ["inh new new2 [unset]"]


def test_interpreter_and_executing_line_quoting() -> None:
    lines, diags = _run(_config("print('py\\tok')", interpreter=[sys.executable, "-c"]))
    assert not diags
    assert lines == [f'Executing: ["{sys.executable}" "-c" "print(\'py\\\\tok\')"]', "py\tok"]


def test_interpreter_found_on_path_like_go() -> None:
    lines, diags = _run(_config("echo $0", interpreter=["sh", "-c"]))
    assert not diags
    assert lines == ['Executing: ["sh" "-c" "echo $0"]', "sh"]


def test_working_dir(tmp_path: Path) -> None:
    lines, diags = _run(_config("pwd", working_dir=str(tmp_path)))
    assert not diags
    assert os.path.realpath(lines[1]) == os.path.realpath(tmp_path)


def test_quiet_hides_only_the_command() -> None:
    lines, diags = _run(_config("echo visible", quiet=TRUE))
    assert not diags
    assert lines == ["local-exec: Executing: Suppressed by quiet=true", "visible"]


def test_exit_status_error_includes_output() -> None:
    lines, diags = _run(_config("echo failing; exit 3"))
    (d,) = diags.errors
    assert d.summary == "local-exec provisioner error"
    assert d.detail == "Error running command 'echo failing; exit 3': exit status 3. Output: failing\n"
    assert lines[1:] == ["failing"]


def test_empty_or_null_command() -> None:
    for cfg in (_config(""), _config(None)):
        lines, diags = _run(cfg)
        assert lines == []
        assert [(d.summary, d.detail) for d in diags] == [
            ("Invalid local-exec provisioner command", "The command must be a non-empty string.")
        ]


def test_start_failures_worded_as_go() -> None:
    _, diags = _run(_config("echo hi", working_dir="/nonexistent/dir"))
    assert diags.errors[0].detail == (
        "Error running command 'echo hi': chdir /nonexistent/dir: no such file or directory. Output: "
    )
    _, diags = _run(_config("echo hi", interpreter=["/no/such/bin", "-c"]))
    assert diags.errors[0].detail == (
        "Error running command 'echo hi': fork/exec /no/such/bin: no such file or directory. Output: "
    )
    _, diags = _run(_config("echo hi", interpreter=["no-such-program-gp", "-c"]))
    assert diags.errors[0].detail == (
        "Error running command 'echo hi': exec: \"no-such-program-gp\": executable file not "
        "found in $PATH. Output: "
    )


def _wait_until_gone(pid: int) -> None:
    """Return once process `pid` has ended: at once for a killed process, only after its
    600 s sleep for one that was not (and then the test's marker exists)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        select.select([fd], [], [])
    finally:
        os.close(fd)


def test_stop_kills_the_process_group_promptly(tmp_path: Path) -> None:
    marker = tmp_path / "survived"
    stop = threading.Event()
    lines: list[str] = []

    def seen(line: str) -> None:  # stop once the command is running
        lines.append(line)
        if line == "started":
            stop.set()

    # The grandchild shares the pipe; it must be killed too, or the call would wait for it
    # (600 s). It records its pid; once it has ended, it must not have touched the marker.
    pidfile = tmp_path / "grandchild"
    command = (f"(sh -c 'echo $$ > {pidfile}; exec sleep 600'; touch {marker}) & "
               f"while [ ! -s {pidfile} ]; do sleep 0.01; done; echo started; sleep 600")
    diags = LOCAL_EXEC.provision(_config(command), seen, stop)
    _wait_until_gone(int(pidfile.read_text()))
    assert lines[1:] == ["started"]
    assert diags.errors[0].detail == (
        f"Error running command '{command}': signal: killed. Output: started\n"
    )
    assert not marker.exists()


def test_stop_before_start_runs_nothing(tmp_path: Path) -> None:
    stop = threading.Event()
    stop.set()
    marker = tmp_path / "ran"
    _, diags = _run(_config(f"touch {marker}"), stop)
    assert "context canceled" in diags.errors[0].detail
    assert not marker.exists()


def test_background_child_holding_output_is_waited_for() -> None:
    lines, diags = _run(_config("(sleep 0.3; echo late) & echo early"))
    assert not diags
    assert lines[1:] == ["early", "late"]


def test_tail_buffer_keeps_the_last_8k() -> None:
    buf = TailBuffer()
    buf.write(b"a" * 5000)
    buf.write(b"b" * 5000)
    assert buf.text() == "a" * 3192 + "b" * 5000
    _, diags = _run(_config("head -c 9000 /dev/zero | tr '\\0' x; echo; echo END; exit 1"))
    detail = diags.errors[0].detail
    output = detail.split(". Output: ", 1)[1]
    assert len(output) == 8192 and output.endswith("x\nEND\n")


def test_exit_reasons() -> None:
    assert exit_reason(0) == "exit status 0"
    assert exit_reason(2) == "exit status 2"
    assert exit_reason(-9) == "signal: killed"
    assert exit_reason(-15) == "signal: terminated"


def test_invocation_defaults_and_null_interpreter_elements() -> None:
    cfg = object_(
        {
            "command": string("x"),
            "interpreter": list_([string("/bin/bash"), null(STRING), string("-c")], STRING),
            "working_dir": null(STRING),
            "environment": null(),
            "quiet": null(BOOL),
        }
    )
    inv = Invocation.from_config(cfg)
    assert inv.argv == ["/bin/bash", "-c", "x"] and not inv.quiet and inv.working_dir == ""
    assert Invocation.from_config(_config("x", interpreter=[])).argv == ["/bin/sh", "-c", "x"]
