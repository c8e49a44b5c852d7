"""The local control plane for end-to-end tests: moto in server mode, the handlers dispatched
in-process, the API over real HTTP on 127.0.0.1, a webhook receiver standing in for Slack."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from engine.cli.remote_client import RemoteClient
from functions.local.cloud import LocalCloud
from functions.local.slack_sim import Webhook, block_actions, post


@pytest.fixture(scope="session")
def cloud(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCloud]:
    lc = LocalCloud(work_root=str(tmp_path_factory.mktemp("cloud-work")), max_concurrency=8)
    lc.start()
    try:
        yield lc
    finally:
        lc.stop()


@pytest.fixture(scope="session")
def webhook() -> Iterator[Webhook]:
    hook = Webhook()
    yield hook
    hook.close()


@pytest.fixture()
def client(cloud: LocalCloud) -> RemoteClient:
    return RemoteClient(cloud.api_url, cloud.token)


def wait_status(client: RemoteClient, run_id: str, statuses: tuple[str, ...],
                timeout: float = 180) -> dict[str, Any]:
    """The run once its status is one of `statuses` (polling the API)."""
    deadline = time.monotonic() + timeout
    run = client.run(run_id)
    while run["status"] not in statuses:
        if time.monotonic() > deadline:
            raise AssertionError(f"run {run_id} stayed {run['status']}: {run}")
        time.sleep(0.2)
        run = client.run(run_id)
    return run


def slack_callback(cloud: LocalCloud, run_id: str, user: str, action: str = "approve",
                   timestamp: int | None = None,
                   secret: str | None = None) -> tuple[bytes, dict[str, str]]:
    """A signed Slack `block_actions` callback for `run_id` (body, headers)."""
    return block_actions(run_id, user, action, secret or cloud.slack_secret, timestamp)


post_raw = post


def stored_state(workspace: str, config_dir: str) -> dict[str, Any]:
    """The workspace's state in the state bucket, decrypted with the control plane's default
    encryption (after checking it is OpenTofu's encrypted payload)."""
    import json

    import boto3

    from functions.common.settings import settings
    from functions.common.state_crypto import state_encryption

    raw = boto3.client("s3", region_name="us-east-1").get_object(
        Bucket=settings().state_bucket, Key=f"workspaces/{workspace}/terraform.tfstate")["Body"].read()
    envelope = json.loads(raw)
    assert envelope["encryption_version"] == "v0"
    assert list(envelope["meta"]) == ["key_provider.aws_kms.groundplan"]
    doc: dict[str, Any] = json.loads(state_encryption(config_dir, []).decrypt(raw))
    return doc
