"""Our Python providers under the real terraform: installed from a filesystem mirror, then
plan, apply, import and destroy (terraform talks to them over tfplugin6 with AutoMTLS)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from engine.plugin.sdk.package import PROVIDERS, package

pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("terraform_required"),
]

CONFIG = """
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "3.6.3" }
    null   = { source = "hashicorp/null", version = "3.2.3" }
    local  = { source = "hashicorp/local", version = "2.5.2" }
    time   = { source = "hashicorp/time", version = "0.12.1" }
  }
}

resource "random_integer" "n" {
  min     = 1
  max     = 100
  keepers = { k = var.k }
}

resource "random_string" "s" {
  length  = 10
  special = false
}

resource "random_integer" "imported" {
  min = 1
  max = 100
}

resource "null_resource" "n" {
  triggers = { n = random_integer.n.id }
}

resource "local_file" "f" {
  filename = "${path.module}/out/hello.txt"
  content  = "hello ${random_string.s.result}"
}

resource "time_static" "t" {}

variable "k" {
  default = "a"
}

output "n" { value = random_integer.n.result }
output "s" { value = random_string.s.result }
output "t" { value = time_static.t.rfc3339 }
output "year" { value = time_static.t.year }
"""


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tfpy")
    mirror = root / "mirror"
    for name, version in PROVIDERS.items():
        package(name, version, mirror)
    cli = root / "terraformrc"
    names = ", ".join(f'"registry.terraform.io/hashicorp/{n}"' for n in PROVIDERS)
    cli.write_text(
        "provider_installation {\n"
        f'  filesystem_mirror {{\n    path = "{mirror}"\n    include = [{names}]\n  }}\n'
        f"  direct {{\n    exclude = [{names}]\n  }}\n"
        "}\n"
    )
    cfg = root / "cfg"
    cfg.mkdir()
    (cfg / "main.tf").write_text(CONFIG)
    (root / "env").write_text(str(cli))
    return cfg


def tf(cfg: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "PLUGIN_"))}
    env.update(TF_CLI_CONFIG_FILE=(cfg.parent / "env").read_text(), TF_IN_AUTOMATION="1",
               CHECKPOINT_DISABLE="1")
    proc = subprocess.run(["terraform", *args, "-no-color"], cwd=cfg, env=env, text=True,
                          capture_output=True, timeout=300)
    assert proc.returncode in (0, 2), f"terraform {args}:\n{proc.stdout}\n{proc.stderr}"
    return proc


def outputs(cfg: Path) -> dict[str, object]:
    data = json.loads(tf(cfg, "output", "-json").stdout)
    return {k: v["value"] for k, v in data.items()}


def resource(cfg: Path, address: str) -> dict[str, object]:
    state = json.loads((cfg / "terraform.tfstate").read_text())
    for r in state["resources"]:
        if f"{r['type']}.{r['name']}" == address:
            return dict(r["instances"][0]["attributes"])
    raise AssertionError(f"{address} not in state")


def test_lifecycle_under_terraform(workdir: Path) -> None:
    cfg = workdir
    init = tf(cfg, "init")
    assert "Installed hashicorp/random v3.6.3" in init.stdout
    lock = (cfg / ".terraform.lock.hcl").read_text()
    assert 'version     = "3.6.3"' in lock and "h1:" in lock

    tf(cfg, "import", "random_integer.imported", "15,1,100")
    imported = resource(cfg, "random_integer.imported")
    assert imported["result"] == 15 and imported["id"] == "15" and imported["max"] == 100

    tf(cfg, "apply", "-auto-approve")
    out = outputs(cfg)
    assert isinstance(out["n"], int) and 1 <= out["n"] <= 100
    assert re.fullmatch(r"[A-Za-z0-9]{10}", str(out["s"]))
    assert (cfg / "out" / "hello.txt").read_text() == f"hello {out['s']}"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", str(out["t"]))
    assert out["year"] == int(str(out["t"])[:4])
    null_id = resource(cfg, "null_resource.n")["id"]
    assert resource(cfg, "null_resource.n")["triggers"] == {"n": str(out["n"])}
    state = json.loads((cfg / "terraform.tfstate").read_text())
    versions = {r["type"]: r["instances"][0]["schema_version"] for r in state["resources"]}
    assert versions["random_string"] == 2

    again = tf(cfg, "plan", "-detailed-exitcode")
    assert again.returncode == 0, again.stdout

    # a keepers change replaces the integer, and through its id the null_resource
    changed = tf(cfg, "plan", "-var", "k=b")
    assert "random_integer.n must be replaced" in changed.stdout
    assert "null_resource.n must be replaced" in changed.stdout
    tf(cfg, "apply", "-auto-approve", "-var", "k=b")
    assert resource(cfg, "null_resource.n")["id"] != null_id

    # a file removed behind terraform's back is created again
    (cfg / "out" / "hello.txt").unlink()
    drift = tf(cfg, "plan", "-var", "k=b")
    assert "local_file.f will be created" in drift.stdout

    tf(cfg, "destroy", "-auto-approve", "-var", "k=b")
    state = json.loads((cfg / "terraform.tfstate").read_text())
    assert state["resources"] == []
