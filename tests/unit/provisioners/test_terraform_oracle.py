"""The same provisioners through terraform 1.11 and through groundplan: the user-visible lines
(`terraform_data.a (local-exec): ...`), the hook events of `-json` and the error text match."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from engine.provisioners import run_provisioners
from engine.values import SENSITIVE, object_, string
from tests.unit.provisioners.conftest import LoadFn, RecordingHooks

pytestmark = pytest.mark.conformance

CONFIG = """
variable "secret" {
  default   = "s3cr3t"
  sensitive = true
}

resource "terraform_data" "a" {
  input = "hello"

  provisioner "local-exec" {
    command = "echo out-${self.input}; echo err >&2; echo; echo '  padded  '; printf 'abc'; sleep 0.5; printf 'def\\\\nnoeol'"
  }
  provisioner "local-exec" {
    command = "echo quiet-out"
    quiet   = true
  }
  provisioner "local-exec" {
    command = "echo sens ${var.secret}"
  }
  provisioner "local-exec" {
    command     = "echo $GP_FOO; pwd"
    environment = { GP_FOO = "bar", GP_NULL = null }
    working_dir = "/"
  }
  provisioner "local-exec" {
    command     = "print('py')"
    interpreter = ["python3", "-c"]
  }
  provisioner "local-exec" {
    command    = "echo failing; exit 3"
    on_failure = continue
  }
  provisioner "local-exec" {
    command = "echo failing2; exit 1"
  }
  provisioner "local-exec" {
    command = "echo never"
  }
}
"""


def _terraform(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    if shutil.which("terraform") is None:
        pytest.fail("the conformance oracle `terraform` (v1.11) is not on PATH", pytrace=False)
    env = dict(os.environ, TF_CLI_CONFIG_FILE=os.devnull, CHECKPOINT_DISABLE="1")
    return subprocess.run(
        ["terraform", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def _apply(tmp_path: Path, name: str, *flags: str) -> str:
    d = tmp_path / name
    d.mkdir()
    (d / "main.tf").write_text(CONFIG)
    assert _terraform(d, "init", "-no-color").returncode == 0
    p = _terraform(d, "apply", "-auto-approve", "-no-color", *flags)
    assert p.returncode == 1, p.stdout + p.stderr
    return p.stdout + p.stderr


def _ui_lines(hooks: RecordingHooks) -> list[str]:
    """Our hook events printed as terraform's human UI hook prints them."""
    out: list[str] = []
    for kind, type_name, payload in hooks.events:
        if kind == "pre":
            out.append(f"{payload}: Provisioning with '{type_name}'...")
        elif kind == "out":
            prefix = f"terraform_data.a ({type_name}): "
            lines = [s.rstrip() for s in str(payload).split("\n")]
            out.append("\n".join(prefix + s for s in lines if s).strip())
    return "\n".join(out).split("\n")


def _groundplan(load: LoadFn) -> tuple[RecordingHooks, list[str]]:
    cfg = load(CONFIG)
    ctx = cfg.ctx(var=object_({"secret": string("s3cr3t").mark(SENSITIVE)}))
    diags = run_provisioners(
        cfg.provisioners,
        "create",
        object_({"input": string("hello")}),
        ctx,
        cfg.addr,
        cfg.hooks,
        threading.Event(),
    )
    return cfg.hooks, [d.detail for d in diags.errors]


def test_human_output_lines_match(tmp_path: Path, load: LoadFn) -> None:
    text = _apply(tmp_path, "human")
    lines = text.split("\n")
    start = next(i for i, s in enumerate(lines) if "Provisioning with" in s)
    end = next(i for i, s in enumerate(lines) if s.startswith("Error: "))
    expected = lines[start:end]
    while expected and expected[-1] == "":
        expected.pop()
    hooks, _ = _groundplan(load)
    assert _ui_lines(hooks) == expected


def test_json_hook_events_and_error_match(tmp_path: Path, load: LoadFn) -> None:
    events = [json.loads(s) for s in _apply(tmp_path, "json", "-json").splitlines() if s]
    expected: list[tuple[str, str]] = []
    details: list[str] = []
    for e in events:
        if e["type"] == "provision_start":
            expected.append(("pre", ""))
        elif e["type"] == "provision_progress":
            expected.append(("out", e["hook"]["output"]))
        elif e["type"] in ("provision_complete", "provision_errored"):
            expected.append(("post", e["type"]))
        elif e["type"] == "diagnostic" and e["diagnostic"]["severity"] == "error":
            details.append(e["diagnostic"]["detail"])
    hooks, our_details = _groundplan(load)
    got: list[tuple[str, str]] = []
    for kind, _, payload in hooks.events:
        if kind == "pre":
            got.append(("pre", ""))
        elif kind == "out":
            # terraform's JSON view sends each non-blank line, right-trimmed, as an event.
            got.extend(("out", ln.rstrip()) for ln in str(payload).split("\n") if ln.strip())
        else:
            got.append(("post", "provision_errored" if payload else "provision_complete"))
    assert got == expected
    assert our_details == details
