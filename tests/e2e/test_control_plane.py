"""The control plane end to end over real HTTP on 127.0.0.1: CI uploads a configuration and
starts runs, plans land in S3, Slack-style callbacks approve or are refused, the apply fans out
as parallel node tasks, state lands in S3. Everything runs on `groundplan cloud local`'s parts
(moto in server mode executing the real ASL, the handlers in-process)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from slack_sdk.signature import SignatureVerifier

from engine.cli.remote_client import RemoteClient, RemoteError
from functions.common.sealing import seal_bytes, unseal_bytes
from functions.common.settings import settings
from functions.common.slack import sign
from functions.local.cloud import LocalCloud
from tests.e2e.conftest import Webhook, post_raw, slack_callback, stored_state, wait_status

CONFIGS = Path(__file__).parent / "configs"


class Concurrency:
    """Counts apply_node `apply` invocations running at once."""

    def __init__(self, cloud: LocalCloud) -> None:
        self.running = 0
        self.peak = 0
        self.applied: list[int] = []
        self.mu = threading.Lock()
        dispatcher = cloud.dispatcher
        original = dispatcher.invoke
        me = self

        def counting(function_name: str, payload: dict[str, Any]) -> Any:
            is_apply = function_name.endswith("apply-node") and payload.get("action") == "apply"
            if is_apply:
                with me.mu:
                    me.running += 1
                    me.peak = max(me.peak, me.running)
                    me.applied.append(int(payload["index"]))
            try:
                return original(function_name, payload)
            finally:
                if is_apply:
                    with me.mu:
                        me.running -= 1

        from functions.common import fanout

        original_finish = fanout.finish

        def finished(node: Any, outcome: str, error: str | None = None,
                     **more: Any) -> None:
            # a node stops counting when it is done, before its dependents are released
            with me.mu:
                me.running -= 1
            try:
                original_finish(node, outcome, error, **more)
            finally:
                with me.mu:
                    me.running += 1

        dispatcher.invoke = counting  # type: ignore[method-assign]
        fanout.finish = finished  # type: ignore[assignment]

        def restore() -> None:
            dispatcher.invoke = original  # type: ignore[method-assign]
            fanout.finish = original_finish  # type: ignore[assignment]

        self._restore = restore


@pytest.fixture()
def concurrency(cloud: LocalCloud) -> Iterator[Concurrency]:
    c = Concurrency(cloud)
    yield c
    c._restore()


def _s3() -> Any:
    return boto3.client("s3", region_name="us-east-1")


def _approve(cloud: LocalCloud, run_id: str, user: str) -> tuple[int, Any]:
    body, headers = slack_callback(cloud, run_id, user)
    return post_raw(cloud.api_url + "/slack/interactions", body, headers)


def test_slack_signature_matches_slack_sdks_verifier() -> None:
    body = b"payload=%7B%7D"
    ts = "1700000000"
    sig = sign("s3cr3t", ts, body)
    verifier = SignatureVerifier("s3cr3t", clock=type("C", (), {"now": lambda self: 1700000000})())
    assert verifier.is_valid(body, ts, sig)
    assert not verifier.is_valid(body, ts, sign("other", ts, body))


def test_a_run_from_ci_to_applied_state(cloud: LocalCloud, client: RemoteClient,
                                        webhook: Webhook, concurrency: Concurrency) -> None:
    client.create_workspace("happy", approvers=["U-APPROVER"], notification_url=webhook.url)
    cv = client.upload_configuration("happy", str(CONFIGS / "basic"))
    run = client.start_run("happy", cv, variables={"secret": "hunter2-e2e-secret"})
    run = wait_status(client, run["id"], ("awaiting_approval", "errored"))
    assert run["status"] == "awaiting_approval", run["error"]
    assert run["resource_changes"] == {"add": 5, "change": 0, "destroy": 0, "import": 0,
                                       "move": 0, "forget": 0}
    # the plan in S3: file (encrypted), JSON and text; the digest on the run is the file's
    cfg = settings()
    keys = {o["Key"] for o in _s3().list_objects_v2(Bucket=cfg.artifact_bucket,
                                                    Prefix=f"runs/{run['id']}/")["Contents"]}
    assert {f"runs/{run['id']}/plan.tfplan", f"runs/{run['id']}/plan.json",
            f"runs/{run['id']}/plan.txt"} <= keys
    sealed = _s3().get_object(Bucket=cfg.artifact_bucket,
                              Key=f"runs/{run['id']}/plan.tfplan")["Body"].read()
    import hashlib

    assert hashlib.sha256(unseal_bytes(sealed, "plan", run["id"])).hexdigest() == run["plan_digest"]
    doc = client.plan(run["id"], "json")
    assert doc["format_version"] and len(doc["resource_changes"]) == 5
    assert doc["variables"]["secret"]["value"] == "(sensitive value)"
    text = client.plan(run["id"])
    assert "terraform_data.app will be created" in text
    # the Slack message asked for approval with buttons carrying the run id only
    msg = webhook.wait_for(lambda m: run["id"] in json.dumps(m) and "blocks" in m
                           and any(b.get("type") == "actions" for b in m["blocks"]))
    buttons = next(b for b in msg["blocks"] if b["type"] == "actions")["elements"]
    assert [(b["action_id"], b["value"]) for b in buttons] == [("approve", run["id"]),
                                                              ("reject", run["id"])]
    status, answer = _approve(cloud, run["id"], "U-APPROVER")
    assert status == 200 and "approved" in answer["text"]
    run = wait_status(client, run["id"], ("applied", "errored"))
    assert run["status"] == "applied", run["error"]
    assert run["approved_by"] == "U-APPROVER"
    assert [h["status"] for h in run["status_history"]] == [
        "pending", "planning", "planned", "awaiting_approval", "applying", "applied"]
    assert concurrency.peak >= 2, "the three subnets should have been applied side by side"
    assert sorted(concurrency.applied) == list(range(5))
    state = stored_state("happy", str(CONFIGS / "basic"))
    assert state["serial"] == 1
    assert sorted(f"{r['type']}.{r['name']}" for r in state["resources"]) == [
        "terraform_data.app", "terraform_data.network", "terraform_data.subnet"]
    assert state["outputs"]["subnets"]["value"] == ["vpc-subnet-0", "vpc-subnet-1", "vpc-subnet-2"]
    # a retried node task answers without applying again
    from functions.apply_node.handler import handler
    from functions.local.lambdas import LambdaContext

    again = handler({"action": "apply", "run_id": run["id"], "index": 0},
                    LambdaContext("groundplan-apply-node"))
    assert again == {"status": "applied"}
    after = stored_state("happy", str(CONFIGS / "basic"))
    assert after["serial"] == 1
    # the state inspector: resources, one resource and the raw state, all redacted
    listed = client.request("GET", "/workspaces/happy/state/resources")["resources"]
    assert [(r["address"], r["instances"]) for r in listed] == [
        ("terraform_data.app", 1), ("terraform_data.network", 1), ("terraform_data.subnet", 3)]
    app_res = client.request("GET", "/workspaces/happy/state/resources/terraform_data.app")
    app_input = app_res["instances"][0]["attributes"]["input"]["value"]  # dynamic: value+type
    assert app_input["secret"] == "(sensitive value)"
    assert app_input["subnets"] == [
        "vpc-subnet-0", "vpc-subnet-1", "vpc-subnet-2"]
    import subprocess
    import sys

    env = {**__import__("os").environ, "GROUNDPLAN_API_URL": cloud.api_url,
           "GROUNDPLAN_API_TOKEN": cloud.token}
    listed_cli = subprocess.run([sys.executable, "-m", "engine.cli.main", "remote", "state",
                                 "list", "-workspace=happy"], env=env, capture_output=True,
                                text=True)
    assert listed_cli.stdout.splitlines() == [
        "terraform_data.app", "terraform_data.network", "terraform_data.subnet"], listed_cli
    raw = client.request("GET", "/workspaces/happy/state/raw")
    assert raw["serial"] == 1 and "hunter2-e2e-secret" not in json.dumps(raw)
    versions = client.request("GET", "/workspaces/happy/state/versions")["versions"]
    assert [(v["serial"], v["run"], v["actor"]) for v in versions] == [
        (1, run["id"], "U-APPROVER")]
    # restoring a version is itself a new version, with the lock taken, and audited
    restored = client.request("POST", f"/workspaces/happy/state/versions/{versions[0]['id']}"
                                      "/restore", {})
    assert restored["serial"] == 2 and restored["lineage"] == state["lineage"]
    versions = client.request("GET", "/workspaces/happy/state/versions")["versions"]
    assert [v["serial"] for v in versions] == [2, 1]
    assert versions[0]["actor"] == "local-admin"
    # the audit log answers "who approved this run"
    events = client.request("GET", f"/audit?run={run['id']}")["events"]
    approved = [e for e in events if e["action"] == "run.approved"]
    assert [(e["actor"], e["source"], e["plan_digest"]) for e in approved] == [
        ("U-APPROVER", "slack", run["plan_digest"])]
    assert [e["action"] for e in events] == ["run.started", "run.approved", "run.applied"]
    restores = client.request("GET", "/audit?workspace=happy&action=state.restored")["events"]
    assert len(restores) == 1 and restores[0]["actor"] == "local-admin"
    # a new workspace version starts from a copy of the live state (same lineage, serial)
    ws = client.request("POST", "/workspaces/happy/versions", {})
    assert [(v["number"], v["status"]) for v in ws["versions"]] == [(1, "archived"), (2, "live")]
    assert ws["state"]["key"] == "workspaces/happy/v2/terraform.tfstate"
    copied = stored_state("happy/v2", str(CONFIGS / "basic"))
    assert (copied["lineage"], copied["serial"]) == (state["lineage"], 2)
    with pytest.raises(RemoteError) as refused:  # archived: destroy only, and only by force
        client.request("POST", "/workspaces/happy/runs", {
            "configuration_version": cv, "operation": "destroy", "version": 1})
    assert (refused.value.status, refused.value.code) == (409, "force_archived_required")
    with pytest.raises(RemoteError) as refused:  # its resources are the live version's too
        client.request("POST", "/workspaces/happy/runs", {
            "configuration_version": cv, "operation": "destroy", "version": 1,
            "force_archived": True})
    assert (refused.value.status, refused.value.code) == (409, "resources_still_live")
    assert "terraform_data.network" in refused.value.message
    # the next plan (on the live version 2) has nothing to do
    nothing = client.start_run("happy", cv, variables={"secret": "hunter2-e2e-secret"})
    nothing = wait_status(client, nothing["id"], ("planned_and_finished", "errored"))
    assert nothing["status"] == "planned_and_finished" and nothing["has_changes"] is False


def test_callbacks_that_must_not_approve(cloud: LocalCloud, client: RemoteClient) -> None:
    client.create_workspace("guarded", approvers=["U-LEAD"])
    cv = client.upload_configuration("guarded", str(CONFIGS / "basic"))
    run = client.start_run("guarded", cv)
    run = wait_status(client, run["id"], ("awaiting_approval", "errored"))
    url = cloud.api_url + "/slack/interactions"
    body, headers = slack_callback(cloud, run["id"], "U-LEAD", secret="not-the-secret")
    assert post_raw(url, body, headers) == (401, {"error": {
        "code": "signature_invalid", "message": "Slack signature does not match"}})
    body, headers = slack_callback(cloud, run["id"], "U-LEAD", timestamp=1_000_000_000)
    status, answer = post_raw(url, body, headers)
    assert (status, answer["error"]["code"]) == (401, "signature_expired")
    body, headers = slack_callback(cloud, run["id"], "U-INTRUDER")
    status, answer = post_raw(url, body, headers)
    assert (status, answer["error"]["code"]) == (403, "not_an_approver")
    status, answer = post_raw(url, body, headers)  # the very same request again
    assert (status, answer["error"]["code"]) == (401, "signature_replayed")
    # a second run while this one waits: 409 naming it
    with pytest.raises(RemoteError) as refused:
        client.start_run("guarded", cv)
    assert refused.value.status == 409 and refused.value.code == "workspace_locked"
    assert run["id"] in refused.value.message
    assert client.run(run["id"])["status"] == "awaiting_approval"
    with pytest.raises(RemoteError) as refused:  # no state edits while a run is active
        client.request("POST", "/workspaces/guarded/state/versions/any/restore", {})
    assert (refused.value.status, refused.value.code) == (409, "workspace_locked")
    body, headers = slack_callback(cloud, run["id"], "U-LEAD", action="reject")
    status, answer = post_raw(url, body, headers)
    assert status == 200 and "rejected" in answer["text"]
    run = wait_status(client, run["id"], ("discarded", "errored"))
    assert run["status"] == "discarded"
    # the lock was released: a new run starts
    third = client.start_run("guarded", cv, operation="plan")
    third = wait_status(client, third["id"], ("planned_and_finished", "errored"))
    assert third["status"] == "planned_and_finished"


def test_a_node_failure_keeps_what_succeeded(cloud: LocalCloud, client: RemoteClient) -> None:
    client.create_workspace("failing", approvers=["U1"])
    cv = client.upload_configuration("failing", str(CONFIGS / "failing"))
    run = client.start_run("failing", cv, auto_apply=True)
    run = wait_status(client, run["id"], ("applied", "errored"))
    assert run["status"] == "errored"
    assert run["failed_nodes"] == ["terraform_data.broken"], (run["error"], run["status_history"])
    state = stored_state("failing", str(CONFIGS / "failing"))
    names = sorted(f"{r['type']}.{r['name']}" + ("[tainted]" if any(
        i.get("status") == "tainted" for i in r["instances"]) else "")
        for r in state["resources"])
    assert names == ["terraform_data.base", "terraform_data.broken[tainted]", "terraform_data.ok"]
    again = client.start_run("failing", cv, operation="plan")  # the lock was released
    assert wait_status(client, again["id"], ("planned_and_finished", "errored"))[
        "status"] == "planned_and_finished"


def test_a_plan_changed_after_approval_is_refused(cloud: LocalCloud, client: RemoteClient) -> None:
    client.create_workspace("tampered", approvers=["U1"])
    cv = client.upload_configuration("tampered", str(CONFIGS / "basic"))
    run = client.start_run("tampered", cv)
    run = wait_status(client, run["id"], ("awaiting_approval", "errored"))
    cfg = settings()
    key = f"runs/{run['id']}/plan.tfplan"
    real = unseal_bytes(_s3().get_object(Bucket=cfg.artifact_bucket, Key=key)["Body"].read(),
                        "plan", run["id"])
    _s3().put_object(Bucket=cfg.artifact_bucket, Key=key,
                     Body=seal_bytes(real + b"\0", "plan", run["id"]))
    status, _ = _approve(cloud, run["id"], "U1")
    assert status == 200
    run = wait_status(client, run["id"], ("applied", "errored"))
    assert run["status"] == "errored"
    assert "not the approved plan" in run["error"]
    assert _s3().list_objects_v2(Bucket=cfg.state_bucket,
                                 Prefix="workspaces/tampered/").get("KeyCount") == 0
