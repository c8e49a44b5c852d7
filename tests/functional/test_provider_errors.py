"""Broken provider plugins through the groundplan CLI: clear diagnostics naming the provider.

Each case installs provider packages from a filesystem mirror with `groundplan init
-plugin-dir`, then breaks something and runs `plan` or `apply`:

- the executable is deleted after init, or changed after init (hash mismatch against the lock
  file): "Required plugins are not installed", naming the provider;
- the executable is not a plugin (a shell script that prints nothing and exits), or prints a
  garbage handshake line and stays up: "Failed to load plugin schemas", naming the provider;
- a Python SDK provider that `os._exit()`s while applying one resource: "Plugin did not
  respond", naming the provider; the state keeps every object created before the crash.

After every command, no process started from the test's directory is left running
(/proc is scanned for command lines that mention it).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GROUNDPLAN = [sys.executable, "-m", "engine.cli.main"]
PLATFORM = "linux_amd64"

CRASHY_MODULE = '''"""A provider whose crashy_item with crash = true kills the plugin process in apply."""
from __future__ import annotations

import os
from typing import Any

from engine.plugin.sdk import Attr, Obj, Provider, Resource
from engine.plugin.sdk.server import run
from engine.values import BOOL, STRING


class Item(Resource):
    type_name = "crashy_item"
    fields = {
        "name": Attr(STRING, required=True),
        "crash": Attr(BOOL, optional=True),
        "id": Attr(STRING, computed=True, use_state_for_unknown=True),
    }

    def create(self, planned: Obj) -> dict[str, Any]:
        if planned["crash"]:
            os._exit(7)
        return {"id": "item-" + str(planned["name"])}

    def read(self, state: Obj) -> dict[str, Any] | None:
        return {"id": state["id"]}


class Crashy(Provider):
    name = "crashy"
    version = "1.0.0"
    resources = (Item,)


if __name__ == "__main__":
    run(Crashy())
'''

NOT_A_PLUGIN = "#!/bin/sh\nexit 0\n"
GARBAGE = "#!/bin/sh\necho 'hello, this is not a handshake'\nwhile :; do sleep 1; done\n"


def _script(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)


@pytest.fixture
def mirror(tmp_path: Path) -> Path:
    """A mirror with example/crashy (Python SDK), example/notplugin and example/garbage."""
    m = tmp_path / "mirror"
    base = m / "registry.terraform.io" / "example"
    (tmp_path / "pysrc").mkdir()
    (tmp_path / "pysrc" / "crashy_provider.py").write_text(CRASHY_MODULE)
    launcher = (
        "#!/bin/sh\n"
        f"PYTHONPATH={tmp_path / 'pysrc'}:{ROOT}\nexport PYTHONPATH\n"
        f"exec {sys.executable} -m crashy_provider \"$@\"\n"
    )
    _script(base / "crashy/1.0.0" / PLATFORM / "terraform-provider-crashy_v1.0.0", launcher)
    _script(base / "notplugin/1.0.0" / PLATFORM / "terraform-provider-notplugin_v1.0.0",
            NOT_A_PLUGIN)
    _script(base / "garbage/1.0.0" / PLATFORM / "terraform-provider-garbage_v1.0.0", GARBAGE)
    return m


def _env(tmp: Path) -> dict[str, str]:
    rc = tmp / "empty.tfrc"
    rc.write_text("")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_VAR_", "TF_CLI_ARGS"))}
    env.update(TF_CLI_CONFIG_FILE=str(rc), CHECKPOINT_DISABLE="1", TF_IN_AUTOMATION="1",
               PYTHONPATH=str(ROOT))
    return env


def leftover_processes(marker: str) -> list[str]:
    """Live processes (not zombies) whose command line mentions `marker`."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if marker in cmdline and stat.rsplit(")", 1)[-1].split()[0] != "Z":
            found.append(f"{pid}: {cmdline}")
    return found


class Workdir:
    def __init__(self, tmp: Path, mirror: Path, provider: str, body: str) -> None:
        self.tmp, self.dir = tmp, tmp / f"work-{provider}"
        self.dir.mkdir()
        self.provider = f"registry.terraform.io/example/{provider}"
        (self.dir / "main.tf").write_text(
            "terraform {\n  required_providers {\n"
            f'    {provider} = {{ source = "example/{provider}", version = "1.0.0" }}\n'
            "  }\n}\n\n" + body)
        out, code = self.run("init", f"-plugin-dir={mirror}")
        assert code == 0, out

    def run(self, *args: str) -> tuple[str, int]:
        proc = subprocess.run([*GROUNDPLAN, *args, "-no-color"], cwd=self.dir,
                              env=_env(self.tmp), capture_output=True, text=True, timeout=300,
                              check=False)
        assert leftover_processes(str(self.tmp)) == []
        return proc.stdout + proc.stderr, proc.returncode

    def installed(self) -> Path:
        name = self.provider.rsplit("/", 1)[-1]
        pkg = self.dir / ".terraform/providers" / self.provider / "1.0.0" / PLATFORM
        return pkg / f"terraform-provider-{name}_v1.0.0"


def _flat(text: str) -> str:
    return " ".join(text.split())


ITEMS = """
resource "crashy_item" "a" {
  name = "a"
}

resource "crashy_item" "b" {
  name = "b"
}
"""


def test_missing_binary_after_init(tmp_path: Path, mirror: Path) -> None:
    w = Workdir(tmp_path, mirror, "crashy", ITEMS)
    w.installed().unlink()
    out, code = w.run("plan")
    assert code == 1
    assert "Error: Required plugins are not installed" in out
    assert "registry.terraform.io/example/crashy" in out
    # TF_IN_AUTOMATION is set: terraform's advice then does not name "terraform init"
    assert "You must install the required plugins before running groundplan operations." in _flat(
        out)


def test_hash_mismatch_against_lock_file(tmp_path: Path, mirror: Path) -> None:
    w = Workdir(tmp_path, mirror, "crashy", ITEMS)
    with open(w.installed(), "a") as fh:
        fh.write("# changed after init\n")
    out, code = w.run("apply", "-auto-approve")
    assert code == 1
    assert "Error: Required plugins are not installed" in out
    assert "does not match any of the checksums recorded in the dependency lock file" in _flat(
        out)
    assert "registry.terraform.io/example/crashy" in out
    assert not (w.dir / "terraform.tfstate").exists() or "crashy_item" not in (
        w.dir / "terraform.tfstate").read_text()


@pytest.mark.parametrize("provider", ["notplugin", "garbage"])
def test_binary_that_is_not_a_plugin(tmp_path: Path, mirror: Path, provider: str) -> None:
    w = Workdir(tmp_path, mirror, provider, f'resource "{provider}_thing" "x" {{}}\n')
    out, code = w.run("plan")
    assert code == 1
    assert "Error: Failed to load plugin schemas" in out
    assert f"registry.terraform.io/example/{provider}" in out
    if provider == "garbage":
        assert "hello, this is not a handshake" in out


def test_provider_crash_mid_apply_keeps_earlier_results(tmp_path: Path, mirror: Path) -> None:
    body = ITEMS + """
resource "crashy_item" "boom" {
  name       = "boom"
  crash      = true
  depends_on = [crashy_item.a, crashy_item.b]
}
"""
    w = Workdir(tmp_path, mirror, "crashy", body)
    out, code = w.run("apply", "-auto-approve")
    assert code == 1, out
    assert "Creation complete" in out
    assert "Error: Plugin did not respond" in out
    assert "plugin.(*GRPCProvider).ApplyResourceChange" in _flat(out)
    assert "registry.terraform.io/example/crashy" in out
    listed, code = w.run("state", "list")
    assert code == 0, listed
    assert sorted(listed.split()) == ["crashy_item.a", "crashy_item.b"]
    # the next plan starts new processes and plans only the missing object
    out, code = w.run("plan", "-detailed-exitcode")
    assert code == 2, out
    assert "crashy_item.boom will be created" in out
    assert "1 to add, 0 to change, 0 to destroy" in out


def test_reaped_after_success(tmp_path: Path, mirror: Path) -> None:
    w = Workdir(tmp_path, mirror, "crashy", ITEMS)
    out, code = w.run("apply", "-auto-approve")
    assert code == 0, out
    assert "Apply complete! Resources: 2 added" in out
    out, code = w.run("plan", "-detailed-exitcode")
    assert code == 0, out
    listed, code = w.run("state", "list")
    assert sorted(listed.split()) == ["crashy_item.a", "crashy_item.b"]
