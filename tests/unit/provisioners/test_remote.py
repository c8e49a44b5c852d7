"""The file and remote-exec provisioners: terraform's validation, and how they fail at apply
(no connection, unsupported type, bad scripts, an unreachable host, a stop request)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

from engine.provisioners.connection import CONNECTION_SCHEMA, ConnInfo, parse_duration
from engine.provisioners.remote import FILE, REMOTE_EXEC
from engine.provisioners.retry import Retryable, retry
from engine.provisioners.ssh.communicator import Communicator
from engine.provisioners.winrm import connect_winrm
from engine.values import NUMBER, STRING, Value, list_, null, number, object_, string


def _conn(**attrs: Value) -> Value:
    return object_({a.name: attrs.get(a.name, null(a.type)) for a in CONNECTION_SCHEMA.attributes})


def _file(source: str | None = None, content: str | None = None) -> Value:
    return object_({
        "source": string(source) if source is not None else null(STRING),
        "content": string(content) if content is not None else null(STRING),
        "destination": string("/tmp/x"),
    })


def _remote(inline: list[str] | None = None, script: str | None = None,
            scripts: list[str] | None = None) -> Value:
    def lst(items: list[str] | None) -> Value:
        return list_([string(s) for s in items], STRING) if items is not None else null()

    return object_({
        "inline": lst(inline),
        "script": string(script) if script is not None else null(STRING),
        "scripts": lst(scripts),
    })


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A local TCP port nothing listens on."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = int(sock.getsockname()[1])
    sock.close()
    yield port


def test_file_needs_exactly_one_of_source_and_content() -> None:
    assert [d.summary for d in FILE.validate(_file("a", "b"))] == [
        "Cannot set both 'source' and 'content'"]
    assert [d.summary for d in FILE.validate(_file())] == [
        "Must provide one of 'source' or 'content'"]
    assert not FILE.validate(_file(content="x"))
    assert all(d.subject is None and d.detail == "" for d in FILE.validate(_file()))


def test_remote_exec_needs_exactly_one_of_inline_script_scripts() -> None:
    for bad in (_remote(), _remote(["a"], "b"), _remote(["a"], None, ["c"])):
        [d] = REMOTE_EXEC.validate(bad)
        assert (d.summary, d.detail) == (
            "Invalid remote-exec provisioner configuration",
            'Only one of "inline", "script", or "scripts" must be set')
    assert not REMOTE_EXEC.validate(_remote(script="s.sh"))


def _fail(diags: object) -> tuple[str, str]:
    [d] = list(diags)  # type: ignore[call-overload]
    return d.summary, d.detail


def test_without_connection_and_with_unsupported_type() -> None:
    stop = threading.Event()
    assert _fail(FILE.provision(_file(content="x"), print, stop, None)) == (
        "file provisioner error", "Missing connection configuration for provisioner.")
    assert _fail(REMOTE_EXEC.provision(_remote(["a"]), print, stop, null())) == (
        "remote-exec provisioner error", "Missing connection configuration for provisioner.")
    telnet = _conn(host=string("h"), type=string("telnet"))
    assert _fail(REMOTE_EXEC.provision(_remote(["a"]), print, stop, telnet)) == (
        "remote-exec provisioner error", "connection type 'telnet' not supported")


def test_script_problems_come_before_connecting(closed_port: int) -> None:
    conn = _conn(host=string("127.0.0.1"), port=number(closed_port), timeout=string("500ms"))
    stop = threading.Event()
    lines: list[str] = []
    assert _fail(REMOTE_EXEC.provision(_remote(["ok", ""]), lines.append, stop, conn))[1] == (
        "invalid empty string in 'scripts'")
    assert _fail(REMOTE_EXEC.provision(_remote(script="/nonexistent/s.sh"), lines.append,
                                       stop, conn))[1] == (
        "Failed to open script '/nonexistent/s.sh': open /nonexistent/s.sh: "
        "no such file or directory")
    assert lines == []


def test_unreachable_ssh_host_times_out_with_terraforms_text(closed_port: int) -> None:
    conn = _conn(host=string("127.0.0.1"), port=number(closed_port), timeout=string("500ms"))
    lines: list[str] = []
    summary, detail = _fail(REMOTE_EXEC.provision(_remote(["a"]), lines.append,
                                                  threading.Event(), conn))
    assert summary == "remote-exec provisioner error"
    assert detail == (f"timeout - last error: dial tcp 127.0.0.1:{closed_port}: "
                      "connect: connection refused")
    assert lines[0].splitlines() == [
        "Connecting to remote host via SSH...", "  Host: 127.0.0.1", "  User: root",
        "  Password: false", "  Private key: false", "  Certificate: false",
        lines[0].splitlines()[6], "  Checking Host Key: false", "  Target Platform: unix"]


def test_file_over_winrm_shows_no_connecting_lines(closed_port: int) -> None:
    conn = _conn(host=string("127.0.0.1"), port=number(closed_port), timeout=string("500ms"),
                 type=string("winrm"))
    lines: list[str] = []
    assert _fail(FILE.provision(_file(content="x"), lines.append, threading.Event(), conn)) == (
        "file provisioner error",
        f'timeout - last error: unknown error Post "http://127.0.0.1:{closed_port}/wsman": '
        f"dial tcp 127.0.0.1:{closed_port}: connect: connection refused")
    assert lines == []


def test_stop_interrupts_the_retry_loop() -> None:
    stop = threading.Event()
    stop.set()
    assert retry(lambda: None, 300, stop, lambda: None) == "interrupted - last error: <nil>"
    stop.clear()
    abandoned: list[bool] = []

    def attempt() -> None:
        stop.set()
        raise Retryable("no luck")

    assert retry(attempt, 300, stop, lambda: abandoned.append(True)) == (
        "interrupted - last error: no luck")
    assert abandoned == [True]


@pytest.fixture
def closing_server() -> Iterator[int]:
    """A local port whose server accepts connections and closes them at once."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                return
            conn.close()

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield int(server.getsockname()[1])
    finally:
        stop.set()
        server.close()


def test_a_winrm_host_that_answers_is_an_honest_error(closing_server: int) -> None:
    info, _ = ConnInfo.from_value(_conn(host=string("127.0.0.1"), port=number(closing_server),
                                        type=string("winrm")))
    assert info is not None
    assert "groundplan has no WinRM client" in connect_winrm(info, None, threading.Event())


def test_an_ssh_attempt_on_a_host_that_hangs_up_is_terraforms_handshake_error(
        closing_server: int) -> None:
    info, _ = ConnInfo.from_value(_conn(host=string("127.0.0.1"), port=number(closing_server),
                                        password=string("pw")))
    assert info is not None
    comm = Communicator.new(info)
    with pytest.raises(Retryable) as caught:
        comm.connect(None)
    assert str(caught.value) == (f"SSH authentication failed (root@127.0.0.1:{closing_server}): "
                                 "ssh: handshake failed: EOF")


def test_connection_defaults_and_durations() -> None:
    info, _ = ConnInfo.from_value(_conn(host=string("h"), type=string("winrm")))
    assert info is not None and (info.user, info.port) == ("Administrator", 5985)
    ssh, _ = ConnInfo.from_value(_conn(host=string("h")))
    assert ssh is not None and (ssh.type, ssh.user, ssh.port) == ("ssh", "root", 22)
    lax, _ = ConnInfo.from_value(_conn(host=string("h"), timeout=string("soon")))
    assert lax is not None and lax.timeout == 300  # terraform's safeDuration: the default
    assert parse_duration("1m30s") == 90 and parse_duration("500ms") == 0.5
    assert parse_duration("") is None and parse_duration("5") is None
    port = next(a for a in CONNECTION_SCHEMA.attributes if a.name == "port")
    assert port.type == NUMBER
