"""`make demo-cloud` (also the last stage of `make demo`): the control plane on this machine.

Starts `groundplan cloud local`'s parts (moto in server mode executing the real Step Functions
definition, the Lambda handlers in-process, the API over HTTP on 127.0.0.1) and a webhook
receiver standing in for Slack, then plays a team's day:

1. CI runs `groundplan remote run -workspace=demo examples/cloud` (a real subprocess talking
   HTTP): the configuration is uploaded, a run starts, its plan is printed;
2. the approval request arrives as a Block Kit message at the webhook; an approver presses
   Approve: the demo signs Slack's callback with the signing secret and posts it;
3. the apply fans out: each node task is printed as it starts and ends;
4. the final state is read from the state bucket;
5. the state inspector over HTTP: `groundplan remote state list`, then a `state mv` dry run
   (the engine's own `state mv`, nothing written); the web console's URL is printed.

Exits non-zero if any step does not behave as expected.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from engine.cli.remote_client import RemoteClient  # noqa: E402
from functions.local.cloud import LocalCloud  # noqa: E402
from functions.local.slack_sim import Webhook, block_actions, post  # noqa: E402


def say(text: str = "") -> None:
    print(text, flush=True)


def banner(text: str) -> None:
    say()
    say("=" * 78)
    say(text)
    say("=" * 78)


def watch_fanout(cloud: LocalCloud) -> None:
    """Print each node task of the apply as it starts and finishes."""
    from functions.common import fanout

    dispatcher = cloud.dispatcher
    original = dispatcher.invoke
    original_finish = fanout.finish
    mu = threading.Lock()
    running: set[str] = set()

    def traced(function_name: str, payload: dict[str, Any]) -> Any:
        if function_name.endswith("apply-node") and payload.get("action") == "apply":
            node = fanout.get(str(payload["run_id"]), int(payload["index"])).node_id
            with mu:
                running.add(node)
                say(f"  [fan-out] start  {node:<36} running now: {len(running)}")
        return original(function_name, payload)

    def finished(node: Any, outcome: str, error: str | None = None) -> None:
        with mu:  # printed before the dependents are released
            running.discard(node.node_id)
            say(f"  [fan-out] {outcome:<6} {node.node_id}")
        original_finish(node, outcome, error)

    dispatcher.invoke = traced  # type: ignore[method-assign]
    fanout.finish = finished  # type: ignore[assignment]


def approve_when_asked(cloud: LocalCloud, hook: Webhook, approver: str) -> None:
    msg = hook.wait_for(lambda m: any(b.get("type") == "actions" for b in m.get("blocks", [])),
                        timeout=300)
    banner("Slack: the approval request (Block Kit message posted to the webhook)")
    for block in msg["blocks"]:
        if block["type"] in ("header", "section"):
            say("  " + block["text"]["text"].replace("\n", "\n  "))
        if block["type"] == "actions":
            say("  [ " + " ]  [ ".join(e["text"]["text"] for e in block["elements"]) + " ]")
    run_id = next(b for b in msg["blocks"] if b["type"] == "actions")["elements"][0]["value"]
    body, headers = block_actions(run_id, approver, "approve", cloud.slack_secret)
    banner(f"Slack: {approver} presses Approve (a signed block_actions callback)")
    say(f"  POST {cloud.api_url}/slack/interactions")
    say(f"  X-Slack-Request-Timestamp: {headers['X-Slack-Request-Timestamp']}")
    say(f"  X-Slack-Signature: {headers['X-Slack-Signature']}")
    status, answer = post(cloud.api_url + "/slack/interactions", body, headers)
    say(f"  -> {status}: {answer.get('text')}")
    if status != 200:
        raise SystemExit("the approval was refused")


def main() -> int:
    hook = Webhook()
    banner("groundplan cloud local: starting the control plane on 127.0.0.1")
    # Powertools prints each function's metrics as an EMF line on stdout (CloudWatch reads
    # them on AWS); here they would only interleave with what a person follows
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    with LocalCloud(max_concurrency=8) as cloud:
        for line in cloud.banner():
            say("  " + line)
        client = RemoteClient(cloud.api_url, cloud.token)
        ws = client.create_workspace("demo", approvers=["U-DEMO-LEAD"],
                                     notification_url=hook.url)
        say(f"  workspace {ws['name']}: approvers {ws['approvers']}, state in "
            f"s3://{ws['state']['bucket']}/{ws['state']['key']}")
        watch_fanout(cloud)
        approver = threading.Thread(target=approve_when_asked,
                                    args=(cloud, hook, "U-DEMO-LEAD"), daemon=True)
        approver.start()
        banner("CI: groundplan remote run -workspace=demo examples/cloud")
        env = {**os.environ, "GROUNDPLAN_API_URL": cloud.api_url,
               "GROUNDPLAN_API_TOKEN": cloud.token}
        proc = subprocess.run(
            [sys.executable, "-m", "engine.cli.main", "remote", "run", "-workspace=demo",
             "-poll=0.5", str(HERE / "cloud")], env=env, cwd=ROOT, text=True,
            stdout=sys.stdout, stderr=sys.stderr)
        approver.join(timeout=5)
        banner("The final state, read from the state bucket")
        import boto3

        from functions.common.state_crypto import state_encryption

        s3 = boto3.client("s3", region_name="us-east-1")
        stored = s3.get_object(Bucket=ws["state"]["bucket"], Key=ws["state"]["key"])["Body"].read()
        envelope = json.loads(stored)
        say(f"  stored as OpenTofu's encrypted payload (encryption_version "
            f"{envelope['encryption_version']}, key providers {list(envelope['meta'])}, "
            f"{len(stored)} bytes); decrypted with the stack's KMS key:")
        state = json.loads(state_encryption(str(HERE / "cloud"), []).decrypt(stored))
        say(f"  serial {state['serial']}, lineage {state['lineage']}")
        for rs in state["resources"]:
            for inst in rs["instances"]:
                key = f"[{json.dumps(inst['index_key'])}]" if "index_key" in inst else ""
                say(f"  {rs['type']}.{rs['name']}{key}")
        say(f"  outputs: {json.dumps({k: v['value'] for k, v in state['outputs'].items()})}")
        if proc.returncode != 2:
            say(f"remote run exited {proc.returncode}, expected 2 (changes applied)")
            return 1
        if not inspect(env):
            return 1
        banner("The web console")
        say(f"  {cloud.console_url}  (sign in with the token {cloud.token})")
    say("\nThe control-plane demo finished as expected.")
    return 0


def inspect(env: dict[str, str]) -> bool:
    """The state inspector through `groundplan remote state`: list, then a mv dry run."""
    for args in (["list"], ["mv", "-dry-run", "terraform_data.network", "terraform_data.vpc"]):
        banner("groundplan remote state " + " ".join(args) + " -workspace=demo")
        done = subprocess.run([sys.executable, "-m", "engine.cli.main", "remote", "state",
                               args[0], "-workspace=demo", *args[1:]], env=env, cwd=ROOT,
                              text=True, capture_output=True)
        for line in (done.stdout + done.stderr).splitlines():
            say("  " + line)
        if done.returncode != 0:
            say(f"remote state {args[0]} exited {done.returncode}, expected 0")
            return False
    return True


if __name__ == "__main__":
    started = time.monotonic()
    code = main()
    print(f"({time.monotonic() - started:.0f} s)")
    sys.exit(code)
