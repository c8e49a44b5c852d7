"""State surgery through the control plane, over real HTTP on the local cloud: `state mv` and
`state rm` change the workspace's state exactly as `groundplan state mv/rm` change the same
state file, the replaced version stays as a backup that restores, every action is audited,
nothing is edited while a run is active, and no answer carries the workspace's secret."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import boto3
import pytest

from engine.cli.remote_client import RemoteClient, RemoteError
from functions.common.settings import settings
from functions.local.cloud import LocalCloud
from tests.conformance.harness import run_terraform
from tests.e2e.conftest import stored_state, wait_status

CONFIGS = Path(__file__).parent / "configs"
SECRET = "surgery-secret-value-9d41"


class Recorder:
    """Every answer the API gives (or refuses with), as text, to search for the secret."""

    def __init__(self, client: RemoteClient) -> None:
        self.client = client
        self.answers: list[str] = []

    def request(self, method: str, path: str, body: Any = None) -> Any:
        try:
            out = self.client.request(method, path, body)
        except RemoteError as exc:
            self.answers.append(f"{exc.status} {exc.code} {exc.message}")
            raise
        self.answers.append(json.dumps(out))
        return out


def _local_edit(tmp: Path, state: dict[str, Any], *args: str) -> tuple[dict[str, Any], str]:
    """The state `groundplan state ARGS` leaves in a directory holding `state`, and what it
    printed."""
    tmp.mkdir()
    (tmp / "terraform.tfstate").write_text(json.dumps(state))
    done = subprocess.run([sys.executable, "-m", "engine.cli.main", "state", *args], cwd=tmp,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    doc: dict[str, Any] = json.loads((tmp / "terraform.tfstate").read_text())
    return doc, done.stdout


def _remote_cli(cloud: LocalCloud, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GROUNDPLAN_API_URL": cloud.api_url,
           "GROUNDPLAN_API_TOKEN": cloud.token}
    return subprocess.run([sys.executable, "-m", "engine.cli.main", "remote", "state", *args],
                          env=env, capture_output=True, text=True)


def _state(ws: str) -> dict[str, Any]:
    return stored_state(ws, str(CONFIGS / "basic"))


def test_state_mv_and_rm_through_the_control_plane(cloud: LocalCloud, client: RemoteClient,
                                                   tmp_path: Path) -> None:
    api = Recorder(client)
    api.request("POST", "/workspaces", {"name": "surgery", "approvers": ["local-admin"],
                                         "drift": {"enabled": False}})
    cv = client.upload_configuration("surgery", str(CONFIGS / "basic"))
    run = client.start_run("surgery", cv, auto_apply=True, variables={"secret": SECRET})
    run = wait_status(client, run["id"], ("applied", "errored"))
    assert run["status"] == "applied", run["error"]
    applied = _state("surgery")
    assert SECRET in json.dumps(applied)  # the state holds it: every answer must not

    # mv: the same resources as `groundplan state mv` leaves in the same state
    expected, _ = _local_edit(tmp_path / "mv", applied, "mv", "terraform_data.network",
                           "terraform_data.vpc")
    dry = api.request("POST", "/workspaces/surgery/state/actions/mv", {
        "source": "terraform_data.network", "destination": "terraform_data.vpc",
        "dry_run": True})
    assert dry == {"moves": [{"from": "terraform_data.network", "to": "terraform_data.vpc"}],
                   "dry_run": True}
    assert _state("surgery") == applied  # a dry run writes nothing
    moved = api.request("POST", "/workspaces/surgery/state/actions/mv", {
        "source": "terraform_data.network", "destination": "terraform_data.vpc"})
    assert moved["moves"] == [{"from": "terraform_data.network", "to": "terraform_data.vpc"}]
    after_mv = _state("surgery")
    assert after_mv["resources"] == expected["resources"]
    assert (after_mv["serial"], after_mv["lineage"]) == (applied["serial"] + 1,
                                                          applied["lineage"])
    assert moved["serial"] == after_mv["serial"]

    # the replaced version is kept: the answer names it, it is the applied state, it is listed
    s3 = boto3.client("s3", region_name="us-east-1")
    bucket, key = settings().state_bucket, "workspaces/surgery/terraform.tfstate"
    assert moved["backup_version"] and moved["version"] != moved["backup_version"]
    assert s3.head_object(Bucket=bucket, Key=key)["VersionId"] == moved["version"]
    versions = api.request("GET", "/workspaces/surgery/state/versions")["versions"]
    assert [(v["id"], v["serial"]) for v in versions[:2]] == [
        (moved["version"], applied["serial"] + 1), (moved["backup_version"], applied["serial"])]
    assert versions[0]["actor"] == "local-admin"

    # rm through `groundplan remote state rm`: as `groundplan state rm` on the moved state
    expected, printed = _local_edit(tmp_path / "rm", after_mv, "rm", "terraform_data.subnet[1]",
                           "terraform_data.app")
    done = _remote_cli(cloud, "rm", "-workspace=surgery", "terraform_data.subnet[1]",
                       "terraform_data.app")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:3] == printed.splitlines()
    assert lines[2] == "Successfully removed 2 resource instance(s)."
    assert "is kept as the backup" in lines[3] and SECRET not in done.stdout + done.stderr
    after_rm = _state("surgery")
    assert after_rm["resources"] == expected["resources"]
    listed = api.request("GET", "/workspaces/surgery/state/resources")["resources"]
    assert [(r["address"], r["instances"]) for r in listed] == [
        ("terraform_data.subnet", 2), ("terraform_data.vpc", 1)]
    done = _remote_cli(cloud, "mv", "-workspace=surgery", "terraform_data.vpc",
                       "terraform_data.network")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:2] == [
        'Move "terraform_data.vpc" to "terraform_data.network"',
        "Successfully moved 1 object(s)."]

    # a refused edit writes nothing and says why (terraform's diagnostics)
    before = _state("surgery")
    with pytest.raises(RemoteError) as refused:
        api.request("POST", "/workspaces/surgery/state/actions/mv", {
            "source": "terraform_data.subnet", "destination": "terraform_data.network"})
    assert (refused.value.status, refused.value.code) == (422, "state_edit_refused")
    assert "there is already a resource" in refused.value.message
    with pytest.raises(RemoteError) as refused:
        api.request("POST", "/workspaces/surgery/state/actions/rm", {
            "addresses": ["terraform_data.nothing_here"]})
    assert refused.value.status == 422 and "No matching objects" in refused.value.message
    with pytest.raises(RemoteError) as refused:
        api.request("POST", "/workspaces/surgery/state/actions/rm", {"addresses": "app"})
    assert (refused.value.status, refused.value.code) == (400, "invalid_field")
    assert _state("surgery") == before

    # the backup restores: the state before the mv, as a new version
    restored = api.request("POST", f"/workspaces/surgery/state/versions/"
                                   f"{moved['backup_version']}/restore", {})
    assert restored["lineage"] == applied["lineage"]
    back = _state("surgery")
    assert back["resources"] == applied["resources"]
    assert back["serial"] == before["serial"] + 1
    with pytest.raises(RemoteError) as refused:  # a message echoing a secret is scrubbed
        api.request("POST", "/workspaces/surgery/state/actions/mv", {
            "source": f'terraform_data.app["{SECRET}"]', "destination": "terraform_data.x"})
    assert refused.value.status == 422
    assert "does not contain terraform_data.app[" in refused.value.message
    assert _state("surgery") == back

    # every edit is in the audit log with who, where from, and the versions
    events = api.request("GET", "/audit?workspace=surgery")["events"]
    edits = [(e["action"], e["actor"], e["source"]) for e in events
             if e["action"].startswith("state.")]
    assert edits == [("state.moved", "local-admin", "api"),
                     ("state.removed", "local-admin", "api"),
                     ("state.moved", "local-admin", "api"),
                     ("state.restored", "local-admin", "api")]
    first = next(e for e in events if e["action"] == "state.moved")
    assert first["detail"]["backup_version"] == moved["backup_version"]
    assert first["detail"]["version"] == moved["version"]

    # refused (409, naming the run) while a run is active
    active = client.start_run("surgery", cv, variables={"secret": "a-changed-secret"})
    active = wait_status(client, active["id"], ("awaiting_approval", "planned_and_finished",
                                                "errored"))
    assert active["status"] == "awaiting_approval", active["error"]
    for action, body in (("mv", {"source": "terraform_data.app",
                                 "destination": "terraform_data.main"}),
                         ("rm", {"addresses": ["terraform_data.app"]})):
        with pytest.raises(RemoteError) as locked:
            api.request("POST", f"/workspaces/surgery/state/actions/{action}", body)
        assert (locked.value.status, locked.value.code) == (409, "workspace_locked")
        assert active["id"] in locked.value.message
    assert _state("surgery") == back
    client.action(active["id"], "discard")
    wait_status(client, active["id"], ("discarded",))
    again = api.request("POST", "/workspaces/surgery/state/actions/rm",
                        {"addresses": ["terraform_data.app"], "dry_run": True})
    assert again["removed"] == ["terraform_data.app"]

    # the raw state and one resource, redacted; no answer ever carried the secret
    api.request("GET", "/workspaces/surgery/state/raw")
    api.request("GET", "/workspaces/surgery/state/resources/terraform_data.app")
    assert len(api.answers) >= 15
    for answer in api.answers:
        assert SECRET not in answer


def _wait_unlocked(client: RemoteClient, workspace: str, timeout: float = 60) -> None:
    """Once the workspace has no active run (a run reads `applied` a moment before its
    execution releases the workspace lock)."""
    deadline = time.monotonic() + timeout
    while client.workspace(workspace)["active_run"] is not None:
        if time.monotonic() > deadline:
            raise AssertionError(f"{workspace} still has an active run")
        time.sleep(0.2)


def test_remote_state_rm_of_nothing_is_terraforms_error(cloud: LocalCloud,
                                                        client: RemoteClient,
                                                        tmp_path: Path) -> None:
    client.request("POST", "/workspaces", {"name": "surgery-none", "approvers": ["local-admin"],
                                           "drift": {"enabled": False}})
    cv = client.upload_configuration("surgery-none", str(CONFIGS / "basic"))
    run = client.start_run("surgery-none", cv, auto_apply=True, variables={"secret": SECRET})
    run = wait_status(client, run["id"], ("applied", "errored"))
    assert run["status"] == "applied", run["error"]
    _wait_unlocked(client, "surgery-none")
    applied = _state("surgery-none")
    versions = client.request("GET", "/workspaces/surgery-none/state/versions")["versions"]
    oracle = tmp_path / "terraform"
    oracle.mkdir()
    (oracle / "terraform.tfstate").write_text(json.dumps(applied))
    cases = (["-no-color", "terraform_data.nothing_here"],
             ["-no-color", "terraform_data.nothing_here", "module.gone.terraform_data.x[2]"],
             ["-no-color", "not an address"],
             ["-dry-run", "terraform_data.nothing_here"])
    codes = []
    for args in cases:  # what terraform prints on the same state, byte for byte
        expected = run_terraform(oracle, "state", "rm", *args)
        done = _remote_cli(cloud, "rm", "-workspace=surgery-none", *args)
        assert (done.returncode, done.stdout, done.stderr) == (
            expected.code, expected.stdout, expected.stderr), args
        codes.append(done.returncode)
    assert codes == [1, 1, 1, 0]
    assert "Error: Invalid target address" in _remote_cli(
        cloud, "rm", "-workspace=surgery-none", "-no-color", "terraform_data.nothing_here").stderr
    # nothing written: neither by terraform nor by the control plane (no new version, no
    # audit event)
    assert json.loads((oracle / "terraform.tfstate").read_text()) == applied
    assert sorted(p.name for p in oracle.iterdir()) == ["terraform.tfstate"]
    assert _state("surgery-none") == applied
    after = client.request("GET", "/workspaces/surgery-none/state/versions")["versions"]
    assert [v["id"] for v in after] == [v["id"] for v in versions]
    events = client.request("GET", "/audit?workspace=surgery-none")["events"]
    assert [e["action"] for e in events if e["action"].startswith("state.")] == []
