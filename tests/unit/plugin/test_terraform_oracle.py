"""Objects terraform 1.11.4 writes, read back through the built-in provider.

Runs the real `terraform` binary in a temporary directory: its terraform_data state must decode
and plan as a no-op with the same configuration; a terraform_remote_state read of its state
must give the outputs `terraform output -json` reports.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from engine.plugin.builtin import TerraformProvider
from engine.plugin.protocol import (
    PlanResourceChangeRequest,
    ReadDataSourceRequest,
    UpgradeResourceStateRequest,
)
from engine.values import DYNAMIC, STRING, Value, object_, string
from engine.values.json import dumps, value_to_json

CONFIG = """
resource "terraform_data" "d" {
  input            = { a = "x", n = 1.5, l = [true, null] }
  triggers_replace = ["t1"]
}
output "o" { value = terraform_data.d.output }
output "id" { value = terraform_data.d.id }
"""


def _tf(cwd: Path, *args: str) -> str:
    env = dict(os.environ, TF_CLI_CONFIG_FILE="/dev/null", CHECKPOINT_DISABLE="1")
    p = subprocess.run(
        ["terraform", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    assert p.returncode == 0, p.stderr
    return p.stdout


@pytest.mark.conformance
def test_terraform_state_round_trips_through_provider(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(CONFIG)
    _tf(tmp_path, "init", "-no-color")
    _tf(tmp_path, "apply", "-auto-approve", "-no-color")
    state = json.loads((tmp_path / "terraform.tfstate").read_text())
    (inst,) = state["resources"][0]["instances"]
    p = TerraformProvider(working_dir=str(tmp_path))
    up = p.upgrade_resource_state(
        UpgradeResourceStateRequest(
            "terraform_data", 0, raw_state_json=json.dumps(inst["attributes"]).encode()
        )
    )
    assert not up.diagnostics
    prior = up.upgraded_state
    # same configuration: proposed = config + computed from prior -> planned equals prior
    cfg = object_({**prior.v, "id": Value(STRING, None), "output": Value(DYNAMIC, None)})
    proposed = object_({**cfg.v, "id": prior.v["id"], "output": prior.v["output"]})
    plan = p.plan_resource_change(PlanResourceChangeRequest("terraform_data", prior, proposed, cfg))
    assert plan.requires_replace == [] and plan.planned_state == prior

    outputs = json.loads(_tf(tmp_path, "output", "-json"))
    read = p.read_data_source(
        ReadDataSourceRequest(
            "terraform_remote_state",
            object_(
                {
                    "backend": string("local"),
                    "config": Value(DYNAMIC, None),
                    "defaults": Value(DYNAMIC, None),
                    "outputs": Value(DYNAMIC, None),
                    "workspace": Value(STRING, None),
                }
            ),
        )
    )
    assert not read.diagnostics
    got = {k: json.loads(dumps(value_to_json(v))) for k, v in read.state.v["outputs"].v.items()}
    assert got == {k: o["value"] for k, o in outputs.items()}
    assert got["o"] == {"a": "x", "n": 1.5, "l": [True, None]}
