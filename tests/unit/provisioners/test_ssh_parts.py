"""The pieces of the SSH communicator, without a server: connection arguments, script paths,
the SCP protocol and quoting, the retry loop, keys and the authentication loop, proxies."""

from __future__ import annotations

import io
import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import paramiko
import pytest
from paramiko.pkey import PublicBlob

from engine.cli.hooks_ui import provision_lines
from engine.provisioners import retry as retry_module
from engine.provisioners.connection import CONNECTION_SCHEMA, ConnInfo, ip_format
from engine.provisioners.dial import DialError, ProxySettings, dial, proxy_dial
from engine.provisioners.retry import Fatal, Retryable, retry
from engine.provisioners.ssh import scp
from engine.provisioners.ssh.auth import (
    AuthError,
    AuthMethod,
    ClientSettings,
    KnownHostKey,
    SettingsError,
    authenticate,
    client_settings,
    read_private_key,
    sort_agent_keys,
)
from engine.provisioners.ssh.communicator import RemoteCmd
from engine.provisioners.ssh.hostcert import CertError, check_certificate
from engine.values import Value, boolean, null, number, object_, string


def conn(**attrs: object) -> Value:
    values: dict[str, Value] = {}
    for a in CONNECTION_SCHEMA.attributes:
        given = attrs.get(a.name)
        if given is None:
            values[a.name] = null(a.type)
        elif isinstance(given, bool):
            values[a.name] = boolean(given)
        elif isinstance(given, str):
            values[a.name] = string(given)
        else:
            values[a.name] = number(given)  # type: ignore[arg-type]
    return object_(values)


def info(**attrs: object) -> ConnInfo:
    parsed, problem = ConnInfo.from_value(conn(**attrs))
    assert parsed is not None, problem
    return parsed


def problem(**attrs: object) -> str:
    parsed, text = ConnInfo.from_value(conn(**attrs))
    assert parsed is None
    return text


# -- connection arguments -----------------------------------------------------------------------

def test_ssh_defaults_and_bastion_inheritance(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    c = info(host="h", password="pw", private_key="KEY", certificate="CERT", bastion_host="b")
    assert (c.type, c.user, c.port, c.timeout, c.target_platform, c.agent) == (
        "ssh", "root", 22, 300, "unix", False)
    assert c.script_path_template == "/tmp/terraform_%RAND%.sh"
    assert (c.bastion_user, c.bastion_password, c.bastion_private_key, c.bastion_certificate,
            c.bastion_port) == ("root", "pw", "KEY", "CERT", 22)
    own = info(host="h", user="u", port=2222, bastion_host="b", bastion_user="bu",
               bastion_port=23, bastion_password="bp")
    assert (own.bastion_user, own.bastion_port, own.bastion_password) == ("bu", 23, "bp")
    assert info(host="h", target_platform="windows").script_path_template == (
        "C:/windows/temp/terraform_%RAND%.cmd")
    # without a bastion its arguments are not filled in
    assert info(host="h", password="pw").bastion_password == ""


def test_agent_defaults_to_whether_an_agent_socket_is_set(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSH_AUTH_SOCK", "/tmp/agent.sock")
    assert info(host="h", password="pw").agent is True
    assert info(host="h", agent=False).agent is False
    monkeypatch.delenv("SSH_AUTH_SOCK")
    assert info(host="h").agent is False


def test_connection_errors_and_lax_timeouts() -> None:
    assert problem(host="") == "host for provisioner cannot be empty"
    assert problem(host="h", target_platform="beos") == (
        "target_platform for provisioner has to be either unix or windows")
    whole = "value must be a whole number, between 0 and 65535 inclusive"
    assert problem(host="h", port=65536) == whole
    assert problem(host="h", port=-1) == whole
    assert problem(host="h", proxy_port="22.7") == whole
    assert problem(host="h", bastion_port="0.5") == whole
    assert info(host="h", port="22.5").port == 22  # exact in a float64: truncated
    assert info(host="h", timeout="1m30s").timeout == 90
    assert info(host="h", timeout="soon").timeout == 300
    assert problem(host="h", type="telnet") == "connection type 'telnet' not supported"


def test_winrm_defaults() -> None:
    w = info(host="h", type="winrm")
    assert (w.user, w.port, w.script_path_template) == (
        "Administrator", 5985, "C:/Temp/terraform_%RAND%.cmd")
    assert info(host="h", type="winrm", https=True).port == 5986
    assert problem(host="h", type="winrm", script_path="C:/Windows/Temp/x.cmd").startswith(
        "Using the C:\\Windows\\Temp folder is not supported.")


def test_ipv6_hosts_are_bracketed() -> None:
    assert ip_format("::1") == "[::1]"
    assert ip_format("10.0.0.1") == "10.0.0.1"
    assert ip_format("::ffff:10.0.0.1") == "::ffff:10.0.0.1"
    assert ip_format("example.com") == "example.com"
    assert info(host="::1", port=2200).host_port == "[::1]:2200"


def test_secrets_stay_out_of_repr() -> None:
    c = info(host="h", password="hunter2", private_key="PRIVATE", bastion_host="b",
             proxy_host="p", proxy_user_password="proxy-secret")
    text = repr(c)
    assert "hunter2" not in text and "PRIVATE" not in text and "proxy-secret" not in text


def test_banners() -> None:
    c = info(host="h", password="pw", host_key="ssh-ed25519 AAAA", bastion_host="b",
             bastion_host_key="k", proxy_host="p", proxy_port=3128, proxy_user_name="pu",
             agent=False)
    assert c.banner().splitlines()[:4] == [
        "Connecting to remote host via SSH...", "  Host: h", "  User: root", "  Password: true"]
    assert "  Checking Host Key: true" in c.banner().splitlines()
    assert c.bastion_banner().splitlines() == [
        "Using configured bastion host...", "  Host: b", "  User: root", "  Password: true",
        "  Private key: false", "  Certificate: false", "  SSH Agent: false",
        "  Checking Host Key: true"]
    assert c.proxy_banner().splitlines() == [
        "Using configured proxy host...", "  ProxyHost: p", "  ProxyPort: 3128",
        "  ProxyUserName: pu", "  ProxyUserPassword: false"]
    assert info(host="h").bastion_banner() == "" and info(host="h").proxy_banner() == ""


def test_script_path_randomisation() -> None:
    c = info(host="h", script_path="/tmp/%RAND%/run_%RAND%.sh")
    paths = {c.script_path() for _ in range(20)}
    assert len(paths) > 1
    for path in paths:
        m = re.fullmatch(r"/tmp/(\d+)/run_(\d+)\.sh", path)
        assert m is not None and m.group(1) == m.group(2)  # one number per path
        assert 0 <= int(m.group(1)) < 2**31
    assert info(host="h", script_path="/fixed.sh").script_path() == "/fixed.sh"


# -- SCP ----------------------------------------------------------------------------------------

def test_posix_and_windows_quoting() -> None:
    assert scp.scp_command(["scp", "-vt", "/tmp/dir"], "unix") == "'scp' -vt /tmp/dir"
    assert scp.posix_shell(["scp", "-rvt", "/tmp/a b"]) == "'scp' -rvt '/tmp/a b'"
    assert scp.posix_shell(["it's", "a$b", "", "x'y z"]) == (
        "'it'\\''s' a\\$b '' 'x'\\''y z'")
    assert scp.scp_command(["scp", "-vt", "C:/a b"], "windows") == 'scp -vt "C:/a b"'
    assert scp.windows_argv_split(["p", 'say "hi"', "back\\\\", "plain"]) == (
        "p", '"say \\"hi\\"" back\\\\ plain')
    with pytest.raises(scp.ScpError, match="target platform unknown: beos"):
        scp.scp_command(["scp"], "beos")


@pytest.mark.parametrize("path, directory, base", [
    ("/tmp/x", "/tmp", "x"), ("/tmp/d/", "/tmp/d", "d"), ("x", ".", "x"), ("/", "/", "/"),
    ("//a//b", "/a", "b"), ("a/../b/c", "b", "c"), ("", ".", "."),
])
def test_go_path_rules(path: str, directory: str, base: str) -> None:
    assert (scp.go_dir(path), scp.go_base(path)) == (directory, base)


class FakeSink:
    """The remote `scp -t`: answers every record from a script of acknowledgements."""

    def __init__(self, acks: bytes) -> None:
        self.sent = bytearray()
        self._acks = io.BytesIO(acks)

    def write(self, data: bytes) -> None:
        self.sent += data

    def read(self, n: int) -> bytes:
        return self._acks.read(n)


def test_send_file_records_and_acknowledgements() -> None:
    sink = FakeSink(b"\0\0\0")
    scp.start(sink)
    scp.send_file(sink, "x.txt", io.BytesIO(b"hello"), 5)
    assert bytes(sink.sent) == b"C0644 5 x.txt\nhello\0"
    refused = FakeSink(b"\x01scp: /nope/x: No such file or directory\n")
    with pytest.raises(scp.ScpError) as caught:
        scp.send_file(refused, "x", io.BytesIO(b""), 0)
    assert str(caught.value) == "scp: /nope/x: No such file or directory"
    with pytest.raises(EOFError):
        scp.send_file(FakeSink(b""), "x", io.BytesIO(b""), 0)
    with pytest.raises(scp.ScpError, match="Error reading error message: EOF"):
        scp.check_status(FakeSink(b"\x02half a message"))


def _tree(root: Path) -> None:
    (root / "sub").mkdir(parents=True)
    (root / "a").write_bytes(b"A")
    (root / "sub" / "b").write_bytes(b"BB")
    (root / "to-sub").symlink_to(root / "sub")


def _records(sent: bytes) -> list[bytes]:
    """The protocol lines, with file contents in between removed."""
    out: list[bytes] = []
    rest = sent
    while rest:
        line, rest = rest.split(b"\n", 1)
        out.append(line)
        if line.startswith(b"C"):
            size = int(line.split()[1])
            assert rest[size:size + 1] == b"\0"
            rest = rest[size + 1:]
    return out


def test_send_directory_with_and_without_trailing_slash(tmp_path: Path) -> None:
    src = tmp_path / "src"
    _tree(src)
    whole = FakeSink(b"\0" * 64)
    scp.send_directory(whole, str(src))
    got = _records(bytes(whole.sent))
    assert got[0] == b"D0755 0 src" and got[-1] == b"E"
    inner = got[1:-1]
    assert sorted(inner) == sorted([b"C0644 1 a", b"D0755 0 sub", b"C0644 2 b", b"E",
                                    b"D0755 0 to-sub", b"C0644 2 b", b"E"])
    contents = FakeSink(b"\0" * 64)
    scp.send_directory(contents, f"{src}/")
    assert sorted(_records(bytes(contents.sent))) == sorted(inner)


def test_broken_symlink_in_a_directory(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "dangling").symlink_to(tmp_path / "missing")
    with pytest.raises(scp.ScpError, match="no such file or directory"):
        scp.send_directory(FakeSink(b"\0" * 8), str(tmp_path / "d"))


def test_remote_command_errors() -> None:
    assert RemoteCmd("/tmp/x.sh", 0, None).error() is None
    assert RemoteCmd("/tmp/x.sh", 3, "Process exited with status 3").error() == (
        'error executing "/tmp/x.sh": Process exited with status 3')
    assert RemoteCmd('a "b"', 1, None).error() == '"a \\"b\\"" exit status: 1'


# -- the retry loop -----------------------------------------------------------------------------

def test_retry_until_success_or_a_fatal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(retry_module, "INITIAL_DELAY", 0.0)
    outcomes: list[Exception | None] = [Retryable("one"), Retryable("two"), None]
    calls: list[int] = []

    def attempt() -> None:
        calls.append(1)
        result = outcomes.pop(0)
        if result is not None:
            raise result

    assert retry(attempt, 300, threading.Event(), lambda: None) is None
    assert len(calls) == 3

    def fatal() -> None:
        raise Fatal("no way")

    assert retry(fatal, 300, threading.Event(), lambda: None) == "no way"


def test_retry_abandons_an_attempt_at_the_deadline() -> None:
    release = threading.Event()
    abandoned = threading.Event()

    def hang() -> None:
        release.wait(60)

    def abandon() -> None:
        abandoned.set()
        release.set()

    assert retry(hang, 0.1, threading.Event(), abandon) == "timeout - last error: <nil>"
    assert abandoned.is_set()


# -- keys, host keys and authentication ---------------------------------------------------------

@pytest.fixture(scope="module")
def keydir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import subprocess

    d = tmp_path_factory.mktemp("keys")
    for name, args in {"ed": ["-t", "ed25519"], "rsa": ["-t", "rsa", "-b", "2048", "-m", "PEM"],
                       "ec": ["-t", "ecdsa"], "p8": ["-t", "rsa", "-b", "2048", "-m", "PKCS8"]
                       }.items():
        subprocess.run(["ssh-keygen", "-q", *args, "-N", "", "-C", name, "-f", str(d / name)],
                       check=True, capture_output=True)
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "secret-words", "-f",
                    str(d / "locked")], check=True, capture_output=True)
    subprocess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", "2048", "-m", "PEM", "-N",
                    "secret-words", "-f", str(d / "locked-pem")], check=True, capture_output=True)
    return d


@pytest.mark.parametrize("name", ["ed", "rsa", "ec", "p8"])
def test_private_keys_of_every_format(keydir: Path, name: str) -> None:
    key = read_private_key("leading text\n" + (keydir / name).read_text())
    public = (keydir / f"{name}.pub").read_text().split()
    assert key.get_name() == public[0] or public[0] == "ssh-rsa"
    assert key.get_base64() == public[1]


def test_private_key_errors(keydir: Path) -> None:
    with pytest.raises(SettingsError, match=r"^Failed to read ssh private key: no key found$"):
        read_private_key("hello")
    with pytest.raises(SettingsError) as locked_pem:
        read_private_key((keydir / "locked-pem").read_text())
    assert str(locked_pem.value) == ("Failed to read ssh private key: password protected keys "
                                     "are\nnot supported. Please decrypt the key prior to use.")
    with pytest.raises(SettingsError) as locked:
        read_private_key((keydir / "locked").read_text())
    assert str(locked.value) == (
        "Failed to parse ssh private key: ssh: this private key is passphrase protected")


def test_certificate_must_belong_to_the_key(keydir: Path, tmp_path: Path) -> None:
    import subprocess

    for f in ("ed", "ed.pub", "ec"):
        (tmp_path / f).write_bytes((keydir / f).read_bytes())
    (tmp_path / "ed").chmod(0o600)
    (tmp_path / "ec").chmod(0o600)
    subprocess.run(["ssh-keygen", "-q", "-s", str(tmp_path / "ec"), "-I", "id", "-n", "root",
                    str(tmp_path / "ed.pub")], check=True, capture_output=True)
    cert = (tmp_path / "ed-cert.pub").read_text()
    args = dict(user="root", host_port="h:22", password="", host_key="", agent=None)
    ok = client_settings(private_key=(keydir / "ed").read_text(), certificate=cert, **args)
    assert [m.name for m in ok.methods] == ["publickey"]
    with pytest.raises(SettingsError, match="signer and cert have different public key"):
        client_settings(private_key=(keydir / "rsa").read_text(), certificate=cert, **args)
    with pytest.raises(SettingsError, match="not a certificate"):
        client_settings(private_key=(keydir / "ed").read_text(),
                        certificate=(keydir / "ed.pub").read_text(), **args)
    with pytest.raises(SettingsError) as caught:
        client_settings(private_key="nope", certificate=cert, **args)
    assert str(caught.value) == "failed to parse private key: ssh: no key found"


def test_host_keys(keydir: Path) -> None:
    ed = (keydir / "ed.pub").read_text()
    known = KnownHostKey.parse(ed)
    offered = ("ecdsa-sha2-nistp256", "ssh-ed25519", "rsa-sha2-512")
    assert known.key_type == "ssh-ed25519" and known.algorithms(offered) == (
        "ecdsa-sha2-nistp256-cert-v01@openssh.com", "ssh-ed25519-cert-v01@openssh.com",
        "rsa-sha2-512-cert-v01@openssh.com", "ssh-ed25519", "ecdsa-sha2-nistp256",
        "rsa-sha2-512")
    known.check(paramiko.Ed25519Key.from_private_key_file(str(keydir / "ed")), "h:22")
    with pytest.raises(AuthError, match=r"^knownhosts: key mismatch$"):
        known.check(paramiko.ECDSAKey.from_private_key_file(str(keydir / "ec")), "h:22")
    rsa = KnownHostKey.parse("anything " + (keydir / "rsa.pub").read_text().split()[1])
    assert rsa.key_type == "ssh-rsa" and rsa.algorithms(offered)[3] == "rsa-sha2-512"
    with pytest.raises(SettingsError, match="missing key type pattern"):
        KnownHostKey.parse("AAAA")


class FakeTransport:
    """Answers authentication requests as a server allowing `allowed` would, accepting
    only `password_ok`."""

    def __init__(self, allowed: list[str], password_ok: str = "") -> None:
        self.allowed = allowed
        self.password_ok = password_ok
        self.calls: list[str] = []

    def auth_none(self, user: str) -> list[str]:
        self.calls.append("none")
        raise paramiko.BadAuthenticationType("Bad authentication type", self.allowed)

    def auth_password(self, user: str, password: str, fallback: bool = True) -> list[str]:
        self.calls.append("password")
        if "password" not in self.allowed:
            raise paramiko.BadAuthenticationType("Bad authentication type", self.allowed)
        if password == self.password_ok:
            return []
        raise paramiko.AuthenticationException("Authentication failed.")

    def auth_interactive(self, user: str, handler: object) -> list[str]:
        self.calls.append("keyboard-interactive")
        raise paramiko.AuthenticationException("Authentication failed.")

    def auth_publickey(self, user: str, key: object) -> list[str]:
        self.calls.append("publickey")
        raise paramiko.AuthenticationException("Authentication failed.")


def _settings(keydir: Path, key: bool = False, password: str = "") -> ClientSettings:
    return client_settings(user="root", host_port="h:22", password=password, host_key="",
                           certificate="", agent=None,
                           private_key=(keydir / "ed").read_text() if key else "")


@pytest.mark.parametrize("allowed, key, password, tried, calls", [
    (["publickey", "password"], False, "bad", "[none password]", ["none", "password"]),
    (["publickey", "password"], True, "", "[none publickey]", ["none", "publickey"]),
    (["publickey", "password", "keyboard-interactive"], True, "bad",
     "[none publickey password keyboard-interactive]",
     ["none", "publickey", "password", "keyboard-interactive"]),
    (["publickey"], False, "bad", "[none]", ["none"]),
])
def test_the_authentication_loop(keydir: Path, allowed: list[str], key: bool, password: str,
                                 tried: str, calls: list[str]) -> None:
    t = FakeTransport(allowed)
    with pytest.raises(AuthError) as caught:
        authenticate(t, _settings(keydir, key, password))  # type: ignore[arg-type]
    assert str(caught.value) == (
        f"ssh: unable to authenticate, attempted methods {tried}, no supported methods remain")
    assert t.calls == calls


def test_authentication_succeeds_with_the_first_method_that_works(keydir: Path) -> None:
    t = FakeTransport(["publickey", "password"], password_ok="right")
    authenticate(t, _settings(keydir, True, "right"))  # type: ignore[arg-type]
    assert t.calls == ["none", "publickey", "password"]


def test_a_partial_success_goes_on_with_the_methods_left() -> None:
    seen: list[str] = []

    def first(t: object, user: str) -> list[str]:
        seen.append("password")
        return ["publickey"]  # more is needed

    def second(t: object, user: str) -> list[str]:
        seen.append("publickey")
        return []

    settings = ClientSettings("root", "h:22", (AuthMethod("password", first),
                                               AuthMethod("publickey", second)))
    authenticate(FakeTransport(["password"]), settings)  # type: ignore[arg-type]
    assert seen == ["password", "publickey"]


class FakeAgentKey:
    def __init__(self, blob: bytes, comment: str) -> None:
        self.blob, self.comment = blob, comment

    def asbytes(self) -> bytes:
        return self.blob


def test_agent_identity_orders_the_keys(keydir: Path) -> None:
    ed_blob = read_private_key((keydir / "ed").read_text()).asbytes()
    keys = [FakeAgentKey(b"1", "/home/u/.ssh/other"), FakeAgentKey(b"2", "/home/u/.ssh/id_x"),
            FakeAgentKey(ed_blob, "whatever")]
    by_file = sort_agent_keys(keys, str(keydir / "ed"))  # type: ignore[arg-type]
    assert by_file[0].asbytes() == ed_blob
    by_suffix = sort_agent_keys(keys, "id_x")  # type: ignore[arg-type]
    assert by_suffix[0].comment == "/home/u/.ssh/id_x"  # type: ignore[attr-defined]
    assert sort_agent_keys(keys, "") == keys  # type: ignore[arg-type]


# -- dialing and proxies --------------------------------------------------------------------------

@pytest.fixture
def answering() -> Iterator[tuple[int, list[bytes]]]:
    """A local server that answers one HTTP request with 407, recording what it got."""
    server = socket.create_server(("127.0.0.1", 0))
    got: list[bytes] = []

    def serve() -> None:
        conn_, _ = server.accept()
        with conn_:
            data = b""
            while b"\r\n\r\n" not in data:
                data += conn_.recv(1024)
            got.append(data)
            conn_.sendall(b"HTTP/1.1 407 Proxy Authentication Required\r\n\r\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield int(server.getsockname()[1]), got
    finally:
        server.close()


def test_http_connect_proxy_refusal(answering: tuple[int, list[bytes]]) -> None:
    port, got = answering
    with pytest.raises(DialError, match=r"^Connection Error: StatusCode: 407$"):
        proxy_dial(ProxySettings("", "127.0.0.1", port, "u", "p"), "10.0.0.1:22")
    head = got[0].decode()
    assert head.startswith("CONNECT 10.0.0.1:22 HTTP/1.1\r\nHost: 10.0.0.1:22\r\n")
    assert "Proxy-Authorization: Basic dTpw\r\n" in head


def test_dial_errors() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(DialError) as caught:
        dial(f"127.0.0.1:{port}")
    assert str(caught.value) == f"dial tcp 127.0.0.1:{port}: connect: connection refused"
    with pytest.raises(DialError, match=r"^proxy: unknown scheme: ftp$"):
        proxy_dial(ProxySettings("ftp", "127.0.0.1", 1), "h:22")


# -- what the terminal shows --------------------------------------------------------------------

def test_provision_output_lines_as_terraform_splits_them() -> None:
    assert provision_lines("hello  \n\nworld") == ["hello", "world"]
    assert provision_lines("a\r\n") == ["a"]
    assert provision_lines("x\ry") == ["x", "y"]
    assert provision_lines("x\ry\nz") == ["x\ry", "z"]  # a newline anywhere wins
    assert provision_lines("\r") == []
    assert provision_lines("tab\there \x1c") == ["tab\there \x1c"]  # Go's notion of space



# -- host certificates --------------------------------------------------------------------------

def _certify(keydir: Path, tmp_path: Path, name: str, *args: str) -> bytes:
    import subprocess

    for f in ("ec", "ed", "ed.pub"):
        if not (tmp_path / f).exists():
            (tmp_path / f).write_bytes((keydir / f).read_bytes())
            (tmp_path / f).chmod(0o600)
    pub = tmp_path / f"{name}.pub"
    pub.write_bytes((keydir / "ed.pub").read_bytes())
    subprocess.run(["ssh-keygen", "-q", "-s", str(tmp_path / "ec"), "-I", name, *args,
                    str(pub)], check=True, capture_output=True)
    return PublicBlob.from_file(str(tmp_path / f"{name}-cert.pub")).key_blob


def test_host_certificates(keydir: Path, tmp_path: Path) -> None:
    ca = PublicBlob.from_file(str(keydir / "ec.pub")).key_blob
    good = _certify(keydir, tmp_path, "good", "-h", "-n", "127.0.0.1,web")
    check_certificate(good, ca, "127.0.0.1:2222")
    check_certificate(good, ca, "web:22")
    with pytest.raises(CertError) as other_host:
        check_certificate(good, ca, "db:22")
    assert str(other_host.value) == ('ssh: principal "db" not in the set of valid principals '
                                     'for given certificate: ["127.0.0.1" "web"]')
    anyone = _certify(keydir, tmp_path, "anyone", "-h")
    check_certificate(anyone, ca, "db:22")  # no principals: good for every host
    other_ca = PublicBlob.from_file(str(keydir / "ed.pub")).key_blob
    with pytest.raises(CertError, match=r"^ssh: no authorities for hostname: db:22$"):
        check_certificate(anyone, other_ca, "db:22")
    user = _certify(keydir, tmp_path, "user", "-n", "root")
    with pytest.raises(CertError, match=r"has type 1$"):
        check_certificate(user, ca, "db:22")
    old = _certify(keydir, tmp_path, "old", "-h", "-V", "20200101:20200102")
    with pytest.raises(CertError, match=r"^ssh: cert has expired$"):
        check_certificate(old, ca, "db:22")
    with pytest.raises(CertError, match=r"^ssh: cert is not yet valid$"):
        check_certificate(old, ca, "db:22", now=0)
    forged = bytearray(good)
    forged[-5] ^= 1  # inside the signature
    with pytest.raises(CertError, match=r"^ssh: certificate signature does not verify$"):
        check_certificate(bytes(forged), ca, "web:22")
