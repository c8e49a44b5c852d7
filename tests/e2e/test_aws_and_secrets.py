"""The real hashicorp/aws provider through the control plane, and what is stored: a run that
creates S3 buckets on moto with credentials from a Secrets Manager secret and a sensitive
variable; afterwards no S3 object (any version), no DynamoDB item and no log line holds the
secret values or the provider credentials."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import boto3
import pytest

from engine.cli.remote_client import RemoteClient
from functions.common.settings import settings
from functions.local.cloud import LocalCloud
from tests.e2e.conftest import Webhook, post_raw, slack_callback, wait_status
from tests.functional.conftest import aws_provider_binary  # noqa: F401  (fixture)

CONFIGS = Path(__file__).parent / "configs"
PASSWORD = "Xq7-db-password-never-stored-91"
SECRET_KEY = "provider-secret-key-never-stored-55"


@pytest.fixture(scope="module")
def aws_mirror(tmp_path_factory: pytest.TempPathFactory, aws_provider_binary: Path) -> Path:  # noqa: F811
    mirror = tmp_path_factory.mktemp("mirror")
    target = mirror / "registry.terraform.io/hashicorp/aws/3.39.0/linux_amd64"
    target.mkdir(parents=True)
    (target / aws_provider_binary.name).symlink_to(aws_provider_binary)
    return mirror


def _every_byte(cloud: LocalCloud) -> list[tuple[str, bytes]]:
    s3 = boto3.client("s3", region_name="us-east-1")
    found = []
    for b in s3.list_buckets()["Buckets"]:
        for v in s3.list_object_versions(Bucket=b["Name"]).get("Versions", []):
            body = s3.get_object(Bucket=b["Name"], Key=v["Key"], VersionId=v["VersionId"])
            found.append((f"s3://{b['Name']}/{v['Key']}", body["Body"].read()))
    ddb = boto3.client("dynamodb", region_name="us-east-1")
    for t in ddb.list_tables()["TableNames"]:
        for item in ddb.scan(TableName=t)["Items"]:
            # binary attributes (sealed node results) byte for byte: latin-1 maps each byte
            # to one character, so an ASCII secret in them would still be found
            found.append((f"dynamodb:{t}", json.dumps(
                item, default=lambda v: v.decode("latin-1")).encode()))
    return found


def test_aws_resources_through_the_control_plane_store_no_secret(
        cloud: LocalCloud, client: RemoteClient, webhook: Webhook, aws_mirror: Path,
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    os.environ["GROUNDPLAN_PLUGIN_DIR"] = str(aws_mirror)
    settings.__globals__["_settings"] = None  # plugin dir read anew
    config = tmp_path / "bucket"
    config.mkdir()
    (config / "main.tf").write_text((CONFIGS / "bucket" / "main.tf.tpl").read_text()
                                    .replace("ENDPOINT", cloud.aws_endpoint))
    init = subprocess.run([sys.executable, "-m", "engine.cli.main", "init",
                           f"-plugin-dir={aws_mirror}"], cwd=config, capture_output=True, text=True)
    assert init.returncode == 0, init.stdout + init.stderr
    sm = boto3.client("secretsmanager", region_name="us-east-1")
    sm.create_secret(Name="workspace/aws", SecretString=json.dumps(
        {"AWS_ACCESS_KEY_ID": "AKIAE2EEXAMPLE", "AWS_SECRET_ACCESS_KEY": SECRET_KEY}))
    client.create_workspace("aws", approvers=["U-OPS"], notification_url=webhook.url,
                            credentials={"secret_id": "workspace/aws"})
    cv = client.upload_configuration("aws", str(config))
    run = client.start_run("aws", cv, variables={"db_password": PASSWORD})
    run = wait_status(client, run["id"], ("awaiting_approval", "errored"), timeout=300)
    assert run["status"] == "awaiting_approval", run["error"]
    assert run["resource_changes"]["add"] == 3
    body, headers = slack_callback(cloud, run["id"], "U-OPS")
    assert post_raw(cloud.api_url + "/slack/interactions", body, headers)[0] == 200
    run = wait_status(client, run["id"], ("applied", "errored"), timeout=300)
    assert run["status"] == "applied", run["error"]
    s3 = boto3.client("s3", region_name="us-east-1")
    names = {b["Name"] for b in s3.list_buckets()["Buckets"]}
    assert {"e2e-logs-bucket", "e2e-data-bucket"} <= names
    assert s3.get_bucket_tagging(Bucket="e2e-logs-bucket")["TagSet"] == [
        {"Key": "team", "Value": "platform"}]
    # drift: a tag changed and a bucket deleted behind groundplan's back
    s3.put_bucket_tagging(Bucket="e2e-logs-bucket",
                          Tagging={"TagSet": [{"Key": "team", "Value": "someone-else"}]})
    s3.delete_bucket(Bucket="e2e-data-bucket")
    # (the local cloud is shared by the e2e files a worker runs: workspaces other files made
    # may be due as well; only this file's workspace is looked at). The run reads "applied"
    # just before the finalizer releases the workspace lock: wait for the lock to go.
    wait_unlocked(client, "aws")
    tick = cloud.drift_tick()
    started = [t for t in tick["started"] if t["workspace"] == "aws"]
    assert len(started) == 1, tick
    drift_run = wait_status(client, started[0]["run"],
                            ("planned_and_finished", "errored"), timeout=300)
    assert drift_run["status"] == "planned_and_finished", drift_run["error"]
    assert drift_run["kind"] == "drift" and drift_run["operation"] == "refresh-only"
    found = drift_run["drift"]
    assert found["deleted"] == ["aws_s3_bucket.data"]
    assert [c["address"] for c in found["changed"]] == ["aws_s3_bucket.logs"]
    tag_change = next(a for a in found["changed"][0]["attributes"] if a["path"] == "tags.team")
    assert (tag_change["before"], tag_change["after"]) == ("platform", "someone-else")
    status = client.workspace("aws")["drift"]
    assert status["status"] == "drifted" and status["run"] == drift_run["id"]
    notice = webhook.wait_for(lambda m: "Drift detected on `aws`" in m.get("text", ""))
    assert "`aws_s3_bucket.data` was deleted outside groundplan" in notice["text"]
    assert "`aws_s3_bucket.logs` changed outside groundplan: `tags.team`" in notice["text"]
    # a tick while the workspace has an active run skips it (and does not queue)
    busy = client.start_run("aws", cv, operation="plan", variables={"db_password": PASSWORD})
    skipped = cloud.drift_tick("2099-01-01T00:00:00Z")
    assert [t for t in skipped["started"] if t["workspace"] == "aws"] == []
    assert [t for t in skipped["skipped"] if t["workspace"] == "aws"] == [
        {"workspace": "aws", "reason": "workspace_locked", "active_run": busy["id"]}]
    wait_status(client, busy["id"], ("planned_and_finished", "errored"), timeout=300)
    # nothing stored holds a secret, whole or in part
    captured = capfd.readouterr()
    logs = (captured.out + captured.err).encode()
    stored = [*_every_byte(cloud), ("logs", logs),
              ("api:plan", client.plan(run["id"]).encode()),
              ("api:plan.json", json.dumps(client.plan(run["id"], "json")).encode()),
              ("api:run", json.dumps(client.run(run["id"])).encode())]
    assert len(stored) > 20
    for secret in (PASSWORD, SECRET_KEY):
        fragments = {secret, secret[:12], secret[-12:]}
        hits = [(where, f) for where, data in stored for f in fragments if f.encode() in data]
        assert hits == [], hits


def wait_unlocked(client: RemoteClient, workspace: str, timeout: float = 60) -> None:
    """Once the workspace has no active run (polling the API)."""
    deadline = time.monotonic() + timeout
    while client.workspace(workspace)["active_run"] is not None:
        if time.monotonic() > deadline:
            raise AssertionError(f"{workspace} still has an active run")
        time.sleep(0.2)
