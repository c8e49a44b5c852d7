"""The `file` and `remote-exec` provisioners over SSH, side by side with terraform 1.11, against
throwaway OpenSSH servers on 127.0.0.1 (`tests.functional.sshd_server`).

Each case writes one configuration, applies it with terraform and then with groundplan (the
remote directory emptied before each), and compares what a user sees: the exit code, stdout
and stderr (terraform's product name, ids, elapsed seconds and the random part of the default
script name normalised), and the files the provisioners left on the remote side (names,
modes, contents). Configurations hold one resource so that the order of lines does not depend
on concurrent work. A failed login is retried until the connection's timeout; those cases use
the `file` provisioner, which shows nothing per attempt, so the number of attempts made in the
time does not show. Terraform and sshd must be installed: without them these tests FAIL.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conformance.harness import require_terraform
from tests.functional.sshd_server import (
    ROOT_PASSWORD,
    ConnectProxy,
    KeyPair,
    Keys,
    SocksProxy,
    SSHServer,
    free_port,
)
from tests.product_name import as_groundplan

pytestmark = pytest.mark.conformance

ROOT = Path(__file__).resolve().parents[2]
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
UUID_BYTES = re.compile(UUID.pattern.encode())
ELAPSED = re.compile(r"(complete after |\[)\d+s(?= elapsed\]|\b)")
RANDOM_SCRIPT = re.compile(r"/tmp/terraform_\d+\.sh")
APPLY = ("apply", "-auto-approve", "-no-color")


def norm(text: str) -> str:
    """Output without what legitimately differs between runs."""
    text = UUID.sub("<uuid>", text)
    text = RANDOM_SCRIPT.sub("/tmp/terraform_<n>.sh", text)
    return ELAPSED.sub(r"\1<n>s", text)


@dataclass(frozen=True)
class Lab:
    """The servers and keys every case may use."""

    base: Path
    target: SSHServer
    bastion: SSHServer
    user: KeyPair
    rsa: KeyPair
    stranger: KeyPair
    certified: KeyPair

    def connection(self, *extra: str, password: bool = True) -> str:
        lines = ['host = "127.0.0.1"', f"port = {self.target.port}", *extra]
        if password:
            lines.append(f'password = "{ROOT_PASSWORD}"')
        return "connection {\n      " + "\n      ".join(lines) + "\n    }"


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    require_terraform()
    base = tmp_path_factory.mktemp("ssh-lab")
    keys = Keys(base)
    user, rsa, stranger = keys.user("user"), keys.user("rsa", "rsa", pem=True), keys.user("x")
    ca = keys.ca("ca")
    certified = keys.certify(keys.user("certified"), ca)
    target = SSHServer.start(base, "target", authorized=(user, rsa), password=True,
                             trusted_ca=ca)
    try:
        bastion = SSHServer.start(base, "bastion", authorized=(user,), password=True)
    except BaseException:
        target.stop()
        raise
    try:
        yield Lab(base, target, bastion, user, rsa, stranger, certified)
    finally:
        bastion.stop()
        target.stop()


@dataclass(frozen=True)
class Outcome:
    """One tool's run: exit code, normalised output, raw output, the remote files after."""

    code: int
    out: str
    raw: str
    remote: dict[str, tuple[str, int, bytes]]

    @property
    def text(self) -> str:
        """The normalised output with its line wrapping undone (for error details)."""
        return " ".join(self.out.split())


def _snapshot(root: Path) -> dict[str, tuple[str, int, bytes]]:
    found: dict[str, tuple[str, int, bytes]] = {}
    for path in sorted(root.rglob("*")):
        mode = path.lstat().st_mode & 0o777
        rel = str(path.relative_to(root))
        if path.is_dir():
            found[rel] = ("dir", mode, b"")
        else:  # ids differ between runs
            found[rel] = ("file", mode, UUID_BYTES.sub(b"<uuid>", path.read_bytes()))
    return found


def _env(extra: dict[str, str] | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_VAR_", "TF_CLI_ARGS"))}
    env.update(TF_CLI_CONFIG_FILE=os.devnull, CHECKPOINT_DISABLE="1", PYTHONPATH=str(ROOT))
    env.pop("TF_IN_AUTOMATION", None)
    env.pop("SSH_AUTH_SOCK", None)
    env.update(extra or {})
    return env


def _apply(tool: str, cwd: Path, env: dict[str, str],
           args: tuple[str, ...] = APPLY) -> subprocess.CompletedProcess[str]:
    cmd = [require_terraform()] if tool == "terraform" else [sys.executable, "-m", "engine.cli.main"]
    if tool == "terraform":
        subprocess.run([*cmd, "init", "-no-color"], cwd=cwd, env=env, capture_output=True,
                       timeout=180, check=True)
    return subprocess.run([*cmd, *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300, check=False)


def both(tmp_path: Path, remote: Path, resource_body: str,
         env: dict[str, str] | None = None, preamble: str = "") -> Outcome:
    """Apply `resource "terraform_data" "a" { <resource_body> }` with both tools; they must
    agree on the exit code, output and remote files. groundplan's outcome."""
    config = f'{preamble}\nresource "terraform_data" "a" {{\n{resource_body}\n}}\n'
    seen: dict[str, Outcome] = {}
    for tool in ("terraform", "groundplan"):
        shutil.rmtree(remote, ignore_errors=True)
        remote.mkdir(parents=True)
        work = tmp_path / tool
        work.mkdir(parents=True)
        (work / "main.tf").write_text(config)
        proc = _apply(tool, work, _env(env))
        raw = proc.stdout + "\n--stderr--\n" + proc.stderr
        if tool == "terraform":
            raw = as_groundplan(proc.stdout) + "\n--stderr--\n" + as_groundplan(proc.stderr)
        seen[tool] = Outcome(proc.returncode, norm(raw), raw, _snapshot(remote))
    g, t = seen["groundplan"], seen["terraform"]
    assert (g.code, g.out) == (t.code, t.out), (g.raw, t.raw)
    assert g.remote == t.remote
    return g


def _tainted(tmp_path: Path) -> bool:
    state = json.loads((tmp_path / "groundplan" / "terraform.tfstate").read_text())
    return state["resources"][0]["instances"][0].get("status") == "tainted"


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    return tmp_path / "remote"


# -- remote-exec ------------------------------------------------------------------------------

def test_remote_exec_inline_output_and_the_default_script_path(lab: Lab, tmp_path: Path,
                                                               remote: Path) -> None:
    before = set(Path("/tmp").glob("terraform_*.sh"))
    try:
        got = both(tmp_path, remote, f"""
  provisioner "remote-exec" {{
    inline = ["echo hello", "echo to-stderr >&2", "echo", "printf 'no newline'",
              "echo; echo script=$0", "tty", "printf 'tab\\there  \\n'"]
    {lab.connection()}
  }}""")
    finally:
        for made in set(Path("/tmp").glob("terraform_*.sh")) - before:
            assert made.read_bytes() == b""  # emptied after running, as terraform does
            made.unlink()
    lines = got.raw.splitlines()
    assert "terraform_data.a (remote-exec): Connecting to remote host via SSH..." in lines
    assert "terraform_data.a (remote-exec):   Password: true" in lines
    assert "terraform_data.a (remote-exec): Connected!" in lines
    assert "terraform_data.a (remote-exec): to-stderr" in lines  # the pty merges the streams
    assert "terraform_data.a (remote-exec): no newline" in lines
    assert any(line.startswith("terraform_data.a (remote-exec): /dev/pts/") for line in lines)
    assert any(RANDOM_SCRIPT.search(line) for line in lines if "script=" in line)
    assert got.code == 0


def test_remote_exec_json_output(lab: Lab, tmp_path: Path) -> None:
    """`-json`: one provision_progress message per visible line, as terraform's."""
    config = f"""
resource "terraform_data" "a" {{
  provisioner "remote-exec" {{
    inline = ["echo hi", "echo", "printf 'x\\\\r\\\\n'"]
    {lab.connection(f'script_path = "{tmp_path}/s.sh"')}
  }}
}}
"""
    seen = {}
    for tool in ("terraform", "groundplan"):
        work = tmp_path / tool
        work.mkdir()
        (work / "main.tf").write_text(config)
        proc = _apply(tool, work, _env(None), ("apply", "-auto-approve", "-json"))
        assert proc.returncode == 0, proc.stdout + proc.stderr
        seen[tool] = [(m["type"], m["@message"], m.get("hook"))
                      for m in map(json.loads, proc.stdout.splitlines())
                      if m["type"].startswith("provision_")]
    assert seen["groundplan"] == seen["terraform"]
    assert [m[1].split(": ", 2)[-1] for m in seen["groundplan"][-4:-1]] == [
        "Connected!", "hi", "x"]


def test_remote_exec_scripts_keep_their_interpreter(lab: Lab, tmp_path: Path,
                                                    remote: Path) -> None:
    local = tmp_path / "scripts"
    local.mkdir()
    (local / "plain.sh").write_text("echo plain shell\n")
    (local / "bash.sh").write_text("#!/bin/bash\necho bash ${BASH_VERSINFO[0]:+yes}\n")
    got = both(tmp_path, remote, f"""
  provisioner "remote-exec" {{
    scripts = ["{local / 'plain.sh'}", "{local / 'bash.sh'}"]
    {lab.connection(f'script_path = "{remote}/run.sh"')}
  }}""")
    assert "terraform_data.a (remote-exec): plain shell" in got.raw
    assert "terraform_data.a (remote-exec): bash yes" in got.raw
    assert got.remote == {"run.sh": ("file", 0o777, b"")}


def test_remote_exec_non_zero_exit_taints(lab: Lab, tmp_path: Path, remote: Path) -> None:
    got = both(tmp_path, remote, f"""
  provisioner "remote-exec" {{
    inline = ["echo before", "exit 3"]
    {lab.connection(f'script_path = "{remote}/run.sh"')}
  }}""")
    assert got.code == 1
    assert f'error executing "{remote}/run.sh": Process exited with status' in got.text
    # a failed script is left as it was uploaded: inline lines joined, a shebang added
    assert got.remote == {"run.sh": ("file", 0o777, b"#!/bin/sh\necho before\nexit 3\n")}
    assert _tainted(tmp_path)


def test_remote_exec_killed_by_a_signal(lab: Lab, tmp_path: Path, remote: Path) -> None:
    got = both(tmp_path, remote, f"""
  provisioner "remote-exec" {{
    inline = ["echo dying", "kill -9 $$"]
    {lab.connection(f'script_path = "{remote}/run.sh"')}
  }}""")
    assert "from signal KILL" in got.text


def _provisioner_error(output: str) -> str:
    """The "remote-exec provisioner error" diagnostic of an output, unwrapped."""
    start = output.index("Error: remote-exec provisioner error")
    end = output.find("\nError: ", start + 1)
    return " ".join(output[start:end if end >= 0 else None].split())


def test_an_interrupt_ends_a_running_script(lab: Lab, tmp_path: Path, remote: Path) -> None:
    """SIGINT once the script has started: the connection is dropped, the command ends
    without an exit status, as terraform's. (What the rest of the interrupt prints is the
    operation's business, not the provisioner's, and is not compared here.)"""
    remote.mkdir()
    errors = {}
    for tool in ("terraform", "groundplan"):
        work = tmp_path / tool
        work.mkdir()
        (work / "main.tf").write_text(f"""
resource "terraform_data" "a" {{
  provisioner "remote-exec" {{
    inline = ["echo started", "sleep 120", "echo never"]
    {lab.connection(f'script_path = "{remote}/s.sh"')}
  }}
}}
""")
        cmd = [require_terraform()] if tool == "terraform" else [sys.executable, "-m", "engine.cli.main"]
        env = _env(None)
        if tool == "terraform":
            subprocess.run([*cmd, "init"], cwd=work, env=env, capture_output=True, check=True)
        proc = subprocess.Popen([*cmd, *APPLY], cwd=work, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        assert proc.stdout is not None
        seen = []
        for line in proc.stdout:  # interrupt once the script says it runs
            seen.append(line)
            if line.strip() == "terraform_data.a (remote-exec): started":
                proc.send_signal(signal.SIGINT)
                break
        rest = proc.stdout.read()
        assert proc.wait(timeout=120) == 1
        text = "".join(seen) + rest
        assert "never" not in text
        errors[tool] = _provisioner_error(text)
    assert errors["groundplan"] == errors["terraform"] == (
        f'Error: remote-exec provisioner error with terraform_data.a, on main.tf line 3, in '
        f'resource "terraform_data" "a": 3: provisioner "remote-exec" {{ error executing '
        f'"{remote}/s.sh": wait: remote command exited without exit status or exit signal')


@pytest.mark.parametrize("case", ["one-byte script", "script path in a missing directory"])
def test_remote_exec_upload_problems(lab: Lab, tmp_path: Path, remote: Path, case: str) -> None:
    one = tmp_path / "one.sh"
    one.write_text("x")
    if case == "one-byte script":
        body = f'script = "{one}"\n    ' + lab.connection(f'script_path = "{remote}/s.sh"')
    else:
        body = 'inline = ["echo"]\n    ' + lab.connection(f'script_path = "{remote}/no/s.sh"')
    got = both(tmp_path, remote, f"""
  provisioner "remote-exec" {{
    {body}
  }}""")
    assert "Failed to upload script: " in got.text


def test_sensitive_inline_suppresses_every_output(lab: Lab, tmp_path: Path,
                                                  remote: Path) -> None:
    got = both(tmp_path, remote, f"""
  provisioner "remote-exec" {{
    inline = ["echo ${{var.secret}}", "echo second"]
    {lab.connection(f'script_path = "{remote}/run.sh"')}
  }}""", preamble='variable "secret" {\n  default   = "hunter2"\n  sensitive = true\n}')
    assert "hunter2" not in got.raw
    assert "(remote-exec): (output suppressed due to sensitive value in config)" in got.raw


# -- file -----------------------------------------------------------------------------------------

def test_file_uploads_content_files_and_directories(lab: Lab, tmp_path: Path,
                                                    remote: Path) -> None:
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "empty").mkdir()
    (src / "a.txt").write_text("A\n")
    (src / "a.txt").chmod(0o755)
    (src / "sub" / "b.txt").write_text("B\n")
    (src / "link").symlink_to(src / "sub")

    def upload(source: str, destination: str) -> str:
        return (f'  provisioner "file" {{\n    source      = "{source}"\n'
                f'    destination = "{destination}"\n    {lab.connection()}\n  }}\n')

    steps = [
        f'  provisioner "file" {{\n    content     = "hello ${{self.id}}"\n'
        f'    destination = "{remote}/content.txt"\n    {lab.connection()}\n  }}\n',
        upload(f"{src}/a.txt", f"{remote}/copied.txt"),
        upload(f"{src}/a.txt", f"{remote}/"),  # Go's Dir/Base: written as remote/remote
        "  provisioner \"local-exec\" {\n    command = \"mkdir -p "
        f"{remote}/tree {remote}/contents\"\n  }}\n",
        upload(str(src), f"{remote}/tree"),
        upload(f"{src}/", f"{remote}/contents"),
        upload(str(src), f"{remote}/fresh"),
    ]
    got = both(tmp_path, remote, "".join(steps))
    assert got.code == 0
    files = {k: v for k, v in got.remote.items() if v[0] == "file"}
    assert files["copied.txt"] == ("file", 0o644, b"A\n")
    assert files["remote"] == ("file", 0o644, b"A\n")
    assert files["content.txt"] == ("file", 0o644, b"hello <uuid>")
    for prefix in ("tree/src/", "contents/", "fresh/"):
        assert files[prefix + "a.txt"] == ("file", 0o644, b"A\n")
        assert files[prefix + "sub/b.txt"] == ("file", 0o644, b"B\n")
        assert files[prefix + "link/b.txt"] == ("file", 0o644, b"B\n")
        assert got.remote[prefix + "empty"][0] == "dir"


@pytest.mark.parametrize("case", ["missing source", "missing remote directory",
                                  "tilde source"])
def test_file_problems(lab: Lab, tmp_path: Path, remote: Path, case: str) -> None:
    source, destination = {
        "missing source": (str(tmp_path / "nope"), f"{remote}/x"),
        "missing remote directory": (str(tmp_path / "main.txt"), f"{remote}/no/such/x"),
        "tilde source": ("~nobody/x", f"{remote}/x"),
    }[case]
    (tmp_path / "main.txt").write_text("x")
    got = both(tmp_path, remote, f"""
  provisioner "file" {{
    source      = "{source}"
    destination = "{destination}"
    {lab.connection()}
  }}""")
    assert got.code == 1 and "Error: file provisioner error" in got.text


# -- authentication -----------------------------------------------------------------------------

@pytest.mark.parametrize("case", ["password", "key", "key and password", "no method"])
def test_failed_logins_are_retried_until_the_timeout(lab: Lab, tmp_path: Path, remote: Path,
                                                     case: str) -> None:
    args = {
        "password": ['password = "wrong"'],
        "key": [f'private_key = file("{lab.stranger.path}")'],
        "key and password": [f'private_key = file("{lab.stranger.path}")',
                             'password = "wrong"'],
        "no method": [],
    }[case]
    got = both(tmp_path, remote, f"""
  provisioner "file" {{
    content     = "x"
    destination = "{remote}/x"
    {lab.connection(*args, 'timeout = "5s"', password=False)}
  }}""")
    assert "timeout - last error: SSH authentication failed (root@127.0.0.1:" in got.text
    assert got.remote == {}


def test_keys_and_certificates(lab: Lab, tmp_path: Path, remote: Path) -> None:
    def run(name: str, *args: str) -> str:
        connection = lab.connection(*args, f'script_path = "{remote}/s.sh"', password=False)
        return (f'  provisioner "remote-exec" {{\n    inline = ["echo {name} works"]\n'
                f"    {connection}\n  }}\n")

    cert = lab.certified.certificate
    got = both(tmp_path, remote, "".join([
        run("ed25519", f'private_key = file("{lab.user.path}")'),
        run("rsa-pem", f'private_key = file("{lab.rsa.path}")'),
        run("certificate", f'private_key = file("{lab.certified.path}")',
            f'certificate = "{cert}"'),
    ]))
    for name in ("ed25519", "rsa-pem", "certificate"):
        assert f"terraform_data.a (remote-exec): {name} works" in got.raw
    assert "terraform_data.a (remote-exec):   Certificate: true" in got.raw


@pytest.mark.parametrize("case", ["not a key", "encrypted PEM", "encrypted OpenSSH"])
def test_unusable_private_keys(lab: Lab, tmp_path: Path, remote: Path, case: str) -> None:
    if case == "not a key":
        key = "hello"
    else:
        path = lab.base / f"enc-{case.split()[1]}"
        if not path.exists():
            args = ["-m", "PEM", "-t", "rsa"] if "PEM" in case else ["-t", "ed25519"]
            subprocess.run(["ssh-keygen", "-q", *args, "-N", "secret-words", "-f", str(path)],
                           check=True, capture_output=True)
        key = path.read_text()
    (tmp_path / "key").write_text(key)
    got = both(tmp_path, remote, f"""
  provisioner "remote-exec" {{
    inline = ["echo"]
    {lab.connection(f'private_key = file("{tmp_path / "key"}")', password=False)}
  }}""")
    assert "Failed to " in got.text and "ssh private key" in got.text


@pytest.mark.parametrize("which", ["right", "wrong"])
def test_host_key_checking(lab: Lab, tmp_path: Path, remote: Path, which: str) -> None:
    key = (lab.target if which == "right" else lab.bastion).host_key.public
    got = both(tmp_path, remote, f"""
  provisioner "remote-exec" {{
    inline = ["echo checked"]
    {lab.connection(f'host_key = "{key}"', 'timeout = "5s"',
                    f'script_path = "{remote}/s.sh"')}
  }}""")
    assert "terraform_data.a (remote-exec):   Checking Host Key: true" in got.raw
    if which == "right":
        assert "terraform_data.a (remote-exec): checked" in got.raw
    else:
        assert "ssh: handshake failed: knownhosts: key mismatch" in got.text


@pytest.mark.parametrize("principals", ["127.0.0.1", "elsewhere"])
def test_host_certificates_signed_by_host_key(lab: Lab, tmp_path: Path, remote: Path,
                                              principals: str) -> None:
    """`host_key` is also a certificate authority: a host certificate it signed is accepted
    when it names the host."""
    ca = Keys(tmp_path).ca("host-ca")
    with SSHServer.start(tmp_path, "certified-host", password=True, host_ca=ca,
                         host_principals=principals) as server:
        connection = lab.connection(f'host_key = "{ca.public}"', 'timeout = "5s"').replace(
            f"port = {lab.target.port}", f"port = {server.port}")
        got = both(tmp_path, remote, f"""
  provisioner "file" {{
    content     = "trusted"
    destination = "{remote}/x"
    {connection}
  }}""")
    if principals == "127.0.0.1":
        assert got.code == 0 and got.remote == {"x": ("file", 0o644, b"trusted")}
    else:
        assert 'ssh: principal "127.0.0.1" not in the set of valid principals' in got.text


# -- bastion and proxies --------------------------------------------------------------------------

def test_through_a_bastion(lab: Lab, tmp_path: Path, remote: Path) -> None:
    got = both(tmp_path, remote, f"""
  provisioner "remote-exec" {{
    inline = ["echo via bastion"]
    {lab.connection('bastion_host = "127.0.0.1"', f"bastion_port = {lab.bastion.port}",
                    f'bastion_private_key = file("{lab.user.path}")',
                    f'script_path = "{remote}/s.sh"')}
  }}
  provisioner "file" {{
    content     = "through the bastion"
    destination = "{remote}/b.txt"
    {lab.connection('bastion_host = "127.0.0.1"', f"bastion_port = {lab.bastion.port}")}
  }}""")
    assert "terraform_data.a (remote-exec): Using configured bastion host..." in got.raw
    assert "terraform_data.a (remote-exec): via bastion" in got.raw
    assert got.remote["b.txt"] == ("file", 0o644, b"through the bastion")


@pytest.mark.parametrize("case", ["bastion password", "bastion refused", "target refused",
                                  "bastion host key"])
def test_bastion_failures(lab: Lab, tmp_path: Path, remote: Path, case: str) -> None:
    bastion = ['bastion_host = "127.0.0.1"', f"bastion_port = {lab.bastion.port}"]
    args = {
        "bastion password": [*bastion, 'bastion_password = "wrong"', 'timeout = "5s"'],
        "bastion refused": ['bastion_host = "127.0.0.1"', f"bastion_port = {free_port()}",
                            'timeout = "500ms"'],
        "target refused": [*bastion, 'timeout = "5s"'],
        # terraform 1.11 checks the bastion against host_key, not bastion_host_key
        "bastion host key": [*bastion, f'bastion_host_key = "{lab.bastion.host_key.public}"',
                             f'host_key = "{lab.target.host_key.public}"', 'timeout = "5s"'],
    }[case]
    port = free_port() if case == "target refused" else lab.target.port
    connection = lab.connection(*args).replace(f"port = {lab.target.port}\n",
                                               f"port = {port}\n", 1)
    got = both(tmp_path, remote, f"""
  provisioner "file" {{
    content     = "x"
    destination = "{remote}/x"
    {connection}
  }}""")
    assert "timeout - last error: " in got.text


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_http_connect_proxy(lab: Lab, tmp_path: Path, remote: Path, scheme: str) -> None:
    with ConnectProxy() as open_proxy, ConnectProxy(("proxy-user", "proxy-pw")) as guarded:
        got = both(tmp_path, remote, f"""
  provisioner "remote-exec" {{
    inline = ["echo proxied"]
    {lab.connection('proxy_host = "127.0.0.1"', f"proxy_port = {open_proxy.port}",
                    f'proxy_scheme = "{scheme}"', f'script_path = "{remote}/s.sh"')}
  }}
  provisioner "file" {{
    content     = "x"
    destination = "{remote}/x"
    {lab.connection('proxy_host = "127.0.0.1"', f"proxy_port = {guarded.port}",
                    'proxy_user_name = "proxy-user"', 'proxy_user_password = "proxy-pw"')}
  }}""")
        assert "terraform_data.a (remote-exec): Using configured proxy host..." in got.raw
        assert "terraform_data.a (remote-exec): proxied" in got.raw
        # both tools always send credentials, empty ones too
        assert [r.splitlines()[-1] for r in open_proxy.requests] == [
            "Proxy-Authorization: Basic Og=="] * 2
        assert all("Proxy-Authorization: Basic cHJveHktdXNlcjpwcm94eS1wdw==" in r
                   for r in guarded.requests)
        refused = both(tmp_path / "refused", remote, f"""
  provisioner "file" {{
    content     = "x"
    destination = "{remote}/x"
    {lab.connection('proxy_host = "127.0.0.1"', f"proxy_port = {guarded.port}",
                    'timeout = "500ms"')}
  }}""")
        assert "Connection Error: StatusCode: 407" in refused.text


def test_socks5_proxy(lab: Lab, tmp_path: Path, remote: Path) -> None:
    with SocksProxy(("socks-user", "socks-pw")) as proxy:
        got = both(tmp_path, remote, f"""
  provisioner "file" {{
    content     = "over socks"
    destination = "{remote}/x"
    {lab.connection('proxy_scheme = "socks5"', 'proxy_host = "127.0.0.1"',
                    f"proxy_port = {proxy.port}", 'proxy_user_name = "socks-user"',
                    'proxy_user_password = "socks-pw"')}
  }}""")
        assert got.remote == {"x": ("file", 0o644, b"over socks")}
        assert proxy.offered == [b"\x00\x02"] * 2
        assert proxy.logins == [("socks-user", "socks-pw")] * 2


# -- the SSH agent --------------------------------------------------------------------------------

@pytest.fixture
def agent(lab: Lab, tmp_path: Path) -> Iterator[str]:
    """An ssh-agent holding the user key; yields its socket."""
    sock = str(tmp_path / "agent.sock")
    proc = subprocess.Popen(["ssh-agent", "-D", "-a", sock], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None
        proc.stdout.readline()  # "SSH_AUTH_SOCK=...; export SSH_AUTH_SOCK;" once it listens
        subprocess.run(["ssh-add", "-q", str(lab.user.path)], check=True, capture_output=True,
                       env={**os.environ, "SSH_AUTH_SOCK": sock})
        yield sock
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


def test_agent_authentication(lab: Lab, tmp_path: Path, remote: Path, agent: str) -> None:
    got = both(tmp_path, remote, f"""
  provisioner "remote-exec" {{
    inline = ["echo agent works"]
    {lab.connection(f'script_path = "{remote}/s.sh"', password=False)}
  }}""", env={"SSH_AUTH_SOCK": agent})
    assert "terraform_data.a (remote-exec):   SSH Agent: true" in got.raw
    assert "terraform_data.a (remote-exec): agent works" in got.raw


def test_agent_requested_without_one(lab: Lab, tmp_path: Path, remote: Path) -> None:
    got = both(tmp_path, remote, f"""
  provisioner "remote-exec" {{
    inline = ["echo"]
    {lab.connection("agent = true")}
  }}""")
    assert "SSH agent requested but SSH_AUTH_SOCK not-specified" in got.text


# -- connection arguments and unreachable hosts -------------------------------------------------

@pytest.mark.parametrize("args", [
    ['host = ""'],
    ['host = "127.0.0.1"', 'target_platform = "beos"'],
    ['host = "127.0.0.1"', "port = 70000"],
    ['host = "127.0.0.1"', "port = 22.7"],
    ['host = "127.0.0.1"', "bastion_port = 0.5", 'bastion_host = "127.0.0.1"'],
    # a fraction a float64 holds exactly is truncated on its way to terraform's communicator
    ['host = "127.0.0.1"', f"port = {free_port()}.5", 'timeout = "500ms"'],
], ids=["empty host", "platform", "port", "fraction", "bastion port", "binary fraction"])
def test_connection_argument_errors(tmp_path: Path, remote: Path, args: list[str]) -> None:
    got = both(tmp_path, remote, """
  provisioner "remote-exec" {
    inline = ["echo"]
    connection {
      ARGS
    }
  }""".replace("ARGS", "\n      ".join(args)))
    assert got.code == 1 and "Error: remote-exec provisioner error" in got.text


def test_a_timeout_that_does_not_parse_is_the_default(lab: Lab, tmp_path: Path,
                                                      remote: Path) -> None:
    got = both(tmp_path, remote, f"""
  provisioner "file" {{
    content     = "x"
    destination = "{remote}/x"
    {lab.connection('timeout = "soon"')}
  }}""")
    assert got.code == 0 and got.remote == {"x": ("file", 0o644, b"x")}


@pytest.mark.parametrize("host", ["127.0.0.1", "192.0.2.1"], ids=["refused", "no answer"])
def test_unreachable_host_with_a_short_timeout(tmp_path: Path, remote: Path, host: str) -> None:
    got = both(tmp_path, remote, f"""
  provisioner "remote-exec" {{
    inline = ["echo"]
    connection {{
      host     = "{host}"
      port     = {free_port()}
      password = "x"
      timeout  = "500ms"
    }}
  }}""")
    assert "timeout - last error: " in got.text
    assert got.text.count("Connecting to remote host via SSH...") == 1
