from __future__ import annotations

from pathlib import Path

from engine.cli.remote_client import RemoteClient
from functions.local.cloud import LocalCloud
from tests.e2e.conftest import Webhook, post_raw, slack_callback, wait_status

CONFIG = Path(__file__).parent / "configs" / "basic"


def test_run_plans_waits_for_approval_and_applies(cloud: LocalCloud, client: RemoteClient,
                                                   webhook: Webhook) -> None:
    client.create_workspace("smoke", approvers=["U1"], notification_url=webhook.url)
    cv = client.upload_configuration("smoke", str(CONFIG))
    run = client.start_run("smoke", cv, variables={"secret": "hunter2-very-secret"})
    assert run["status"] == "pending"
    run = wait_status(client, run["id"], ("awaiting_approval", "errored"))
    assert run["status"] == "awaiting_approval", (run["error"], run["status_history"])
    assert run["resource_changes"]["add"] == 5
    text = client.plan(run["id"])
    assert "Plan: 5 to add, 0 to change, 0 to destroy." in text
    body, headers = slack_callback(cloud, run["id"], "U1")
    status, answer = post_raw(cloud.api_url + "/slack/interactions", body, headers)
    assert status == 200, answer
    run = wait_status(client, run["id"], ("applied", "errored"))
    assert run["status"] == "applied", run
