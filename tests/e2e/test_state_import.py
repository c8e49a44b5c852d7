"""`import` through the control plane, over real HTTP on the local cloud: the engine's import
runs with the workspace's configuration version, variables and providers (the repository's
random provider from a filesystem mirror, as the image's), and leaves the state
`groundplan import` leaves in the same state file; backup version, audit, 409 while a run is
active, refusals with terraform's diagnostics, and the secret in no answer."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.cli.remote_client import RemoteClient, RemoteError
from functions.common.settings import reset_settings
from functions.local.cloud import LocalCloud
from tests.e2e.conftest import stored_state, wait_status

SECRET = "import-secret-value-5b77"
CONFIG = """
terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}

variable "secret" {
  type      = string
  sensitive = true
}

resource "random_integer" "n" {
  min = 1
  max = 100
}

resource "random_integer" "m" {
  min = 1
  max = 100
}

resource "terraform_data" "keep" {
  input = var.secret
}
"""


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([sys.executable, "-m", "engine.cli.main", *args], cwd=cwd, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture()
def random_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A configuration using the random provider, initialised from a mirror that the local
    control plane installs providers from too."""
    mirror = tmp_path / "mirror"
    subprocess.run([sys.executable, "-m", "engine.plugin.sdk.package", str(mirror), "random"],
                   check=True, capture_output=True)
    config = tmp_path / "config"
    config.mkdir()
    (config / "main.tf").write_text(CONFIG)
    _run(["init", f"-plugin-dir={mirror}"], config)
    monkeypatch.setenv("GROUNDPLAN_PLUGIN_DIR", str(mirror))
    reset_settings()
    yield config
    monkeypatch.undo()
    reset_settings()


def _answers(api: RemoteClient, seen: list[str], method: str, path: str, body: Any) -> Any:
    try:
        out = api.request(method, path, body)
    except RemoteError as exc:
        seen.append(f"{exc.status} {exc.code} {exc.message}")
        raise
    seen.append(json.dumps(out))
    return out


def test_import_through_the_control_plane(cloud: LocalCloud, client: RemoteClient,
                                          random_config: Path, tmp_path: Path) -> None:
    seen: list[str] = []
    client.request("POST", "/workspaces", {"name": "importing", "approvers": ["local-admin"],
                                    "drift": {"enabled": False}})  # no drift tick here
    cv = client.upload_configuration("importing", str(random_config))
    run = client.start_run("importing", cv, auto_apply=True, variables={"secret": SECRET})
    run = wait_status(client, run["id"], ("applied", "errored"))
    assert run["status"] == "applied", run["error"]
    removed = client.request("POST", "/workspaces/importing/state/actions/rm",
                             {"addresses": ["random_integer.n", "random_integer.m"]})
    before = stored_state("importing", str(random_config))
    assert SECRET in json.dumps(before)

    # what `groundplan import` does to the same state with the same configuration
    local = tmp_path / "local"
    shutil.copytree(random_config, local)
    (local / "terraform.tfstate").write_text(json.dumps(before))
    _run(["import", f"-var=secret={SECRET}", "random_integer.n", "42,1,100"], local)
    expected = json.loads((local / "terraform.tfstate").read_text())

    # the same import through `groundplan remote state import` (the configuration uploaded)
    env = {**os.environ, "GROUNDPLAN_API_URL": cloud.api_url,
           "GROUNDPLAN_API_TOKEN": cloud.token}
    out = _run(["remote", "state", "import", "-workspace=importing", f"-dir={random_config}",
                f"-var=secret={SECRET}", "random_integer.n", "42,1,100"], random_config, env)
    assert out.splitlines()[0] == 'Import successful: random_integer.n (ID "42,1,100").'
    assert SECRET not in out
    after = stored_state("importing", str(random_config))
    assert after["resources"] == expected["resources"]
    imported = next(r for r in after["resources"] if r["type"] == "random_integer")
    assert imported["name"] == "n"
    assert imported["instances"][0]["attributes"]["result"] == 42
    assert (after["serial"], after["lineage"]) == (before["serial"] + 1, before["lineage"])

    # the version replaced is the backup, named in the audit event
    events = client.request("GET", "/audit?workspace=importing&action=state.imported")["events"]
    assert [(e["actor"], e["source"], e["detail"]["address"]) for e in events] == [
        ("local-admin", "api", "random_integer.n")]
    backup = events[0]["detail"]["backup_version"]
    assert backup == removed["version"]
    versions = _answers(client, seen, "GET", "/workspaces/importing/state/versions", None)
    assert versions["versions"][0]["id"] == events[0]["detail"]["version"]
    assert versions["versions"][1]["id"] == backup

    # refusals: terraform's diagnostics, nothing written, the secret never echoed
    body = {"address": "random_integer.n", "id": "7,1,100", "configuration_version": cv,
            "variables": {"secret": SECRET}}
    with pytest.raises(RemoteError) as refused:
        _answers(client, seen, "POST", "/workspaces/importing/state/actions/import", body)
    assert (refused.value.status, refused.value.code) == (422, "import_failed")
    assert "Resource already managed by groundplan" in refused.value.message
    with pytest.raises(RemoteError) as refused:
        _answers(client, seen, "POST", "/workspaces/importing/state/actions/import",
                 {**body, "address": "random_integer.other"})
    assert (refused.value.status, refused.value.code) == (422, "import_not_in_config")
    with pytest.raises(RemoteError) as refused:
        _answers(client, seen, "POST", "/workspaces/importing/state/actions/import",
                 {**body, "address": "random_integer.m", "id": SECRET})
    assert refused.value.status == 422 and "Invalid import usage" in refused.value.message
    with pytest.raises(RemoteError) as refused:
        _answers(client, seen, "POST", "/workspaces/importing/state/actions/import",
                 {**body, "configuration_version": "cv-missing"})
    assert (refused.value.status, refused.value.code) == (404,
                                                          "configuration_version_not_found")
    assert stored_state("importing", str(random_config)) == after

    # refused (409, naming the run) while a run is active
    active = client.start_run("importing", cv, variables={"secret": "another-value"})
    active = wait_status(client, active["id"], ("awaiting_approval", "errored"))
    assert active["status"] == "awaiting_approval", active["error"]
    with pytest.raises(RemoteError) as locked:
        _answers(client, seen, "POST", "/workspaces/importing/state/actions/import",
                 {**body, "address": "random_integer.m"})
    assert (locked.value.status, locked.value.code) == (409, "workspace_locked")
    assert active["id"] in locked.value.message
    client.action(active["id"], "discard")
    wait_status(client, active["id"], ("discarded",))
    for answer in seen:
        assert SECRET not in answer
