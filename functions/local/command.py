"""`groundplan cloud local`: the whole control plane on 127.0.0.1, in the foreground.

    groundplan cloud local [-port=PORT] [-aws-port=PORT] [-plugin-dir=DIR]

Prints, each on its own line when ready: `API: URL`, `Token: TOKEN`, `Slack signing secret:
SECRET`, `AWS endpoint: URL`, `Console: URL`; runs until interrupted (Ctrl-C or SIGTERM). GROUNDPLAN_API_TOKEN
and GROUNDPLAN_SLACK_SIGNING_SECRET set the token and the secret instead of generated ones.
Registered as a groundplan command through the `groundplan.commands` entry point."""

from __future__ import annotations

import signal
import sys
import threading
from typing import Any

from engine.cli.args import FlagSet

USAGE = """Usage: groundplan [global options] cloud local [-port=PORT] [-aws-port=PORT] [-plugin-dir=DIR]

  Runs the groundplan control plane on this machine: the API on 127.0.0.1:PORT, a local
  AWS (S3, DynamoDB, Step Functions, KMS, Secrets Manager, STS, SNS, EventBridge) on
  127.0.0.1:AWS-PORT, the Lambda functions in this process. Stops on Ctrl-C.
"""


def run_cloud(meta: Any, args: list[str]) -> int:
    if not args or args[0] != "local":
        meta.ui.err(USAGE)
        return 1
    if any(a in ("-help", "-h", "--help") for a in args):
        meta.ui.raw(USAGE)
        return 0
    fs = FlagSet().integer("port", 0).integer("aws-port", 0).text("plugin-dir")
    rest = meta.parse_flags("cloud local", fs, args[1:])
    if rest is None:
        return 1
    if rest:
        meta.ui.err("The cloud local command takes no arguments.\n\n" + USAGE)
        return 1
    from functions.local.cloud import LocalCloud

    cloud = LocalCloud(port=int(fs.get("port")), aws_port=int(fs.get("aws-port")),
                       plugin_dir=str(fs.get("plugin-dir") or ""))
    done = threading.Event()

    def stop(signum: int, frame: Any) -> None:
        done.set()

    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        cloud.start()
        for line in cloud.banner():
            meta.ui.out(line)
        sys.stdout.flush()
        done.wait()
        meta.ui.out("Stopping the local control plane...")
    finally:
        cloud.stop()
        for s, h in previous.items():
            signal.signal(s, h)
    return 0
