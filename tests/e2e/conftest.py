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
