"""Provisioners side by side with terraform 1.11 on `terraform_data` configurations.

Each case writes the same configuration for both tools, runs the same commands, and compares
exit codes, normalised stdout (uuids, deposed keys, elapsed seconds and ports), and the state
after (which instances exist and which are tainted). Cases hold one resource (or a chain) so
that the order of progress lines does not depend on concurrent work; connection timeouts are
shorter than terraform's first retry delay (1 s), so both tools make exactly one attempt. Terraform must be on PATH:
without it these tests FAIL loudly.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.product_name import as_groundplan

pytestmark = pytest.mark.conformance

ROOT = Path(__file__).resolve().parents[2]
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
ELAPSED = re.compile(r"(complete after |\[)\d+s(?= elapsed\]|\b)")
DEPOSED = re.compile(r"\(deposed object [0-9a-f]{8}\)")


def _terraform() -> str:
    path = shutil.which("terraform")
    if path is None:
        pytest.fail("CONFORMANCE TESTS NEED TERRAFORM: the `terraform` binary (v1.11) is not "
                    "on PATH, so groundplan cannot be compared with its oracle.", pytrace=False)
    return path


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_VAR_", "TF_CLI_ARGS"))}
    env.update(TF_CLI_CONFIG_FILE=os.devnull, CHECKPOINT_DISABLE="1", PYTHONPATH=str(ROOT))
    env.pop("TF_IN_AUTOMATION", None)
    env.pop("SSH_AUTH_SOCK", None)
    return env


def _run(tool: str, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [_terraform()] if tool == "terraform" else [sys.executable, "-m", "engine.cli.main"]
    proc = subprocess.run([*cmd, *args], cwd=cwd, env=_env(), capture_output=True, text=True,
                          timeout=180, check=False)
    if tool == "terraform":  # terraform's words as groundplan prints them (tests.product_name)
        proc.stdout, proc.stderr = as_groundplan(proc.stdout), as_groundplan(proc.stderr)
    return proc


def norm(text: str) -> str:
    """Output without what legitimately differs between runs."""
    text = UUID.sub("<uuid>", text)
    text = DEPOSED.sub("(deposed object <key>)", text)
    return ELAPSED.sub(r"\1<n>s", text)


def _free_port() -> int:
    """A local TCP port nothing listens on (connections to it are refused)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = int(sock.getsockname()[1])
    sock.close()
    return port


class Pair:
    """The same working directory for both tools."""

    def __init__(self, base: Path, config: str) -> None:
        self.dirs = {tool: base / tool for tool in ("groundplan", "terraform")}
        for d in self.dirs.values():
            d.mkdir()
        self.write(config)
        # terraform_data needs no provider; init also reports configuration errors, which
        # the cases compare through validate/plan instead
        _run("terraform", self.dirs["terraform"], "init", "-no-color")

    def write(self, config: str) -> None:
        for d in self.dirs.values():
            (d / "main.tf").write_text(config)

    def same(self, *args: str) -> str:
        """Run both; exit codes and normalised stdout and stderr must agree. groundplan's
        stdout and stderr."""
        g = _run("groundplan", self.dirs["groundplan"], *args, "-no-color")
        t = _run("terraform", self.dirs["terraform"], *args, "-no-color")
        assert g.returncode == t.returncode, (args, g.stdout + g.stderr, t.stdout + t.stderr)
        assert norm(g.stdout) == norm(t.stdout), args
        assert norm(g.stderr) == norm(t.stderr), args
        return g.stdout + g.stderr

    def states(self) -> dict[str, str]:
        """Instance address -> status ("" or "tainted"); both tools must agree."""
        found = [_instances(d / "terraform.tfstate") for d in self.dirs.values()]
        assert found[0] == found[1]
        return found[0]


def _instances(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    out: dict[str, str] = {}
    for rs in json.loads(path.read_text())["resources"]:
        for inst in rs["instances"]:
            key = inst.get("index_key")
            suffix = "" if key is None else (f"[{key}]" if isinstance(key, int) else f'["{key}"]')
            addr = f"{rs['type']}.{rs['name']}{suffix}"
            if inst.get("deposed"):
                addr += " (deposed)"
            out[addr] = inst.get("status", "")
    return out


APPLY = ("apply", "-auto-approve")

DESTROY_REFS = """
resource "terraform_data" "a" {
  count = 1
  input = "in"
  provisioner "local-exec" {
    when    = destroy
    command = "echo ${path.module} ${path.root} ${terraform.workspace} ${count.index} ${self.input}"
  }
}
"""


def test_destroy_provisioner_may_use_path_terraform_and_count_index(tmp_path: Path) -> None:
    pair = Pair(tmp_path, DESTROY_REFS)
    pair.same("validate")
    pair.same(*APPLY)
    out = pair.same("destroy", "-auto-approve")
    assert "(local-exec): . . default 0 in" in out
    assert pair.states() == {}


def test_destroy_provisioner_other_references_are_rejected(tmp_path: Path) -> None:
    pair = Pair(tmp_path, """
locals {
  x = "x"
}
resource "terraform_data" "a" {
  count = 1
  provisioner "local-exec" {
    when    = destroy
    command = "echo ${local.x} ${count.index}"
    environment = {
      A = "${count.index}"
    }
  }
}
""")
    assert "Invalid reference from destroy provisioner" in pair.same("validate")
    pair.same("plan")


SENSITIVE = """
variable "secret" {
  default   = "hunter2"
  sensitive = true
}
variable "code" {
  default = 3
}
resource "terraform_data" "a" {
  triggers_replace = var.code
  provisioner "local-exec" {
    command = "echo one; echo ${var.secret}; exit ${var.code}"
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo never for a tainted object"
  }
}
"""


def test_sensitive_config_suppresses_output_and_a_failure_taints(tmp_path: Path) -> None:
    pair = Pair(tmp_path, SENSITIVE)
    out = pair.same(*APPLY)
    assert out.count("(local-exec): (output suppressed due to sensitive value in config)") == 3
    assert pair.states() == {"terraform_data.a": "tainted"}
    # the tainted object is replaced; its destroy-time provisioner does not run
    out = pair.same(*APPLY, "-var", "code=0")
    assert "never for a tainted object" not in out
    assert pair.states() == {"terraform_data.a": ""}


def test_sensitive_connection_does_not_suppress_output(tmp_path: Path) -> None:
    pair = Pair(tmp_path, """
variable "secret" {
  default   = "hunter2"
  sensitive = true
}
resource "terraform_data" "a" {
  provisioner "local-exec" {
    command = "echo visible"
    connection {
      host = var.secret
    }
  }
}
""")
    assert "(local-exec): visible" in pair.same(*APPLY)


@pytest.mark.parametrize("on_failure, left", [("continue", {}),
                                              ("fail", {"terraform_data.a": ""})])
def test_failing_destroy_provisioner(tmp_path: Path, on_failure: str,
                                     left: dict[str, str]) -> None:
    pair = Pair(tmp_path, f"""
resource "terraform_data" "a" {{
  input = "x"
  provisioner "local-exec" {{
    when       = destroy
    command    = "echo destroying ${{self.input}}; exit 1"
    on_failure = {on_failure}
  }}
}}
""")
    pair.same(*APPLY)
    pair.same("destroy", "-auto-approve")
    assert pair.states() == left


def test_replacement_runs_destroy_then_create_provisioners_in_order(tmp_path: Path) -> None:
    config = """
variable "v" {
  default = "1"
}
resource "terraform_data" "a" {
  triggers_replace = var.v
  input            = var.v
  provisioner "local-exec" {
    command = "echo created ${self.input}"
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo destroying ${self.input}"
  }
}
"""
    pair = Pair(tmp_path, config)
    pair.same(*APPLY)
    out = pair.same(*APPLY, "-var", "v=2")
    assert out.index("destroying 1") < out.index("created 2")


def test_remote_exec_fails_as_terraform_does(tmp_path: Path) -> None:
    port = _free_port()
    pair = Pair(tmp_path, f"""
resource "terraform_data" "a" {{
  provisioner "remote-exec" {{
    inline     = ["echo hi"]
    on_failure = continue
    connection {{
      type = "telnet"
      host = "127.0.0.1"
    }}
  }}
  provisioner "remote-exec" {{
    inline = ["echo hi"]
    connection {{
      host    = "127.0.0.1"
      port    = {port}
      timeout = "500ms"
    }}
  }}
}}
""")
    out = pair.same(*APPLY)
    assert "Connecting to remote host via SSH..." in out
    assert f"dial tcp 127.0.0.1:{port}: connect: connection refused" in out
    assert pair.states() == {"terraform_data.a": "tainted"}


@pytest.mark.parametrize("connection", ["", """
    connection {
      type    = "winrm"
      host    = "127.0.0.1"
      port    = PORT
      timeout = "500ms"
    }"""])
def test_file_fails_as_terraform_does(tmp_path: Path, connection: str) -> None:
    pair = Pair(tmp_path, """
resource "terraform_data" "a" {
  provisioner "file" {
    content     = "x"
    destination = "/tmp/x"CONNECTION
  }
}
""".replace("CONNECTION", connection.replace("PORT", str(_free_port()))))
    assert "Error: file provisioner error" in pair.same(*APPLY)
    assert pair.states() == {"terraform_data.a": "tainted"}


def test_validation_of_file_remote_exec_and_connection(tmp_path: Path) -> None:
    pair = Pair(tmp_path, """
resource "terraform_data" "a" {
  provisioner "file" {
    content = "x"
  }
}
resource "terraform_data" "b" {
  provisioner "remote-exec" {
    inline = ["a"]
    script = "b"
  }
}
resource "terraform_data" "c" {
  connection {
    user = "u"
  }
  provisioner "remote-exec" {
    inline = "a"
    connection {
      port  = "abc"
      agent = "maybe"
    }
  }
}
""")
    out = pair.same("validate")
    assert 'Only one of "inline", "script", or "scripts" must be set' in out
    pair.same("plan")


def test_local_exec_arguments(tmp_path: Path) -> None:
    pair = Pair(tmp_path, """
resource "terraform_data" "a" {
  provisioner "local-exec" {
    command     = "echo A=$A B=$B; pwd"
    interpreter = ["/bin/sh", null, "-c"]
    environment = { A = null, B = 5 }
    working_dir = "/"
    quiet       = true
  }
}
""")
    out = pair.same(*APPLY)
    assert "local-exec: Executing: Suppressed by quiet=true" in out
    pair.write("""
resource "terraform_data" "a" {
  provisioner "local-exec" {
    command     = "echo hi"
    environment = { A = [1] }
  }
}
""")
    pair.same("validate")
