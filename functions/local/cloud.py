"""The whole control plane on this machine: `groundplan cloud local`.

`LocalCloud.start()` runs moto in server mode on 127.0.0.1 in a process of its own (S3,
DynamoDB, Step Functions executing the real ASL, STS, KMS, Secrets Manager, SNS, EventBridge:
`moto_process`), points this process's AWS clients at it, creates the control plane's
resources there (`provision`), runs the Lambda handlers in this process behind Lambda's
Invoke API (`lambda_bridge`, which dispatches each invoke: `lambdas`; moto forwards its
Step Functions tasks there, this process's Lambda clients call it directly) and serves the
API over real HTTP (`http_front`). Stop it with `stop()` (or leave the `with` block)."""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from types import TracebackType

from functions.local.http_front import ApiFront
from functions.local.lambda_bridge import LambdaBridge
from functions.local.lambdas import Dispatcher


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LocalCloud:
    """A local control plane (see the module docstring)."""

    port: int = 0
    aws_port: int = 0
    token: str = ""
    slack_secret: str = ""
    plugin_dir: str = ""
    work_root: str = ""
    prefix: str = "groundplan"
    max_concurrency: int = 10
    approval_timeout: int = 3600
    dispatcher: Dispatcher = field(init=False)
    front: ApiFront | None = field(default=None, init=False)
    _moto: subprocess.Popen[bytes] | None = field(default=None, init=False)
    _bridge: LambdaBridge | None = field(default=None, init=False)
    _saved_env: dict[str, str | None] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.token = self.token or os.environ.get("GROUNDPLAN_API_TOKEN") or secrets.token_urlsafe(24)
        self.slack_secret = (self.slack_secret or os.environ.get("GROUNDPLAN_SLACK_SIGNING_SECRET")
                             or secrets.token_hex(16))
        self.dispatcher = Dispatcher(self.prefix)

    @property
    def aws_endpoint(self) -> str:
        return f"http://127.0.0.1:{self.aws_port}"

    @property
    def moto_pid(self) -> int | None:
        """The process id of moto's server (None when stopped)."""
        return self._moto.pid if self._moto is not None else None

    @property
    def api_url(self) -> str:
        assert self.front is not None
        return self.front.url

    def _setenv(self, values: dict[str, str]) -> None:
        for k, v in values.items():
            self._saved_env.setdefault(k, os.environ.get(k))
            os.environ[k] = v

    def start(self) -> LocalCloud:
        from functions.common import aws, models, settings
        from functions.common.tokens import store_document

        self.work_root = self.work_root or tempfile.mkdtemp(prefix="groundplan-cloud-")
        os.makedirs(self.work_root, exist_ok=True)
        self._bridge = LambdaBridge(self.dispatcher)
        self._bridge.start()
        self.aws_port = self.aws_port or free_port()
        self._start_moto()
        req = urllib.request.Request(
            f"{self.aws_endpoint}/moto-api/config", method="POST",
            data=json.dumps({"stepfunctions": {"execute_state_machine": True},
                             "lambda": {"use_docker": False}}).encode(),
            headers={"Content-Type": "application/json"})
        urllib.request.urlopen(req, timeout=30).read()
        self._setenv({
            "AWS_ENDPOINT_URL": self.aws_endpoint,
            "AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local",
            "AWS_DEFAULT_REGION": "us-east-1", "AWS_REGION": "us-east-1",
            "MOTO_PORT": str(self.aws_port),
            "GROUNDPLAN_STACK": self.prefix,
            "GROUNDPLAN_WORK_ROOT": self.work_root,
            "GROUNDPLAN_APPROVAL_TIMEOUT": str(self.approval_timeout),
            "POWERTOOLS_TRACE_DISABLED": "true",
            "POWERTOOLS_METRICS_NAMESPACE": "groundplan",
        })
        if self.plugin_dir:
            self._setenv({"GROUNDPLAN_PLUGIN_DIR": self.plugin_dir})
        settings.reset_settings()
        aws.reset_clients()
        models.bind_models()
        from functions.local.provision import provision

        cfg = settings.settings()
        env = provision(cfg, self.dispatcher, slack_secret=self.slack_secret,
                        token_document=store_document([(self.token, "local-admin")]),
                        max_concurrency=self.max_concurrency)
        self._setenv(env)
        # this process's Lambda clients (a node task starting its dependents) call the
        # bridge directly, as boto3 is pointed at `sam local start-lambda`
        self._setenv({"AWS_ENDPOINT_URL_LAMBDA": self._bridge.url})
        settings.reset_settings()
        aws.reset_clients()
        self.front = ApiFront(self.dispatcher, port=self.port)
        self.front.start()
        return self

    def _start_moto(self) -> None:
        """Start moto's server process and wait until it accepts connections."""
        assert self._bridge is not None
        log = open(os.path.join(self.work_root, "moto.log"), "ab")  # noqa: SIM115
        try:
            self._moto = subprocess.Popen(
                [sys.executable, "-m", "functions.local.moto_process",
                 "--port", str(self.aws_port), "--bridge", self._bridge.url],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
        finally:
            log.close()
        deadline = time.monotonic() + 120
        while True:
            if self._moto.poll() is not None:
                raise RuntimeError(f"moto's server exited ({self._moto.returncode}); see "
                                   f"{os.path.join(self.work_root, 'moto.log')}")
            try:
                with socket.create_connection(("127.0.0.1", self.aws_port), timeout=1):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("moto's server did not start within 120 s") from None
                time.sleep(0.05)

    def add_token(self, token: str, principal: str) -> None:
        """Let `token` call the API as `principal` (besides the tokens already stored)."""
        from functions.common.aws import client
        from functions.common.settings import settings

        sm = client("secretsmanager")
        sid = settings().api_token_secret_id
        doc = json.loads(sm.get_secret_value(SecretId=sid)["SecretString"])
        from functions.common.tokens import digest

        doc["tokens"].append({"sha256": digest(token), "principal": principal})
        sm.put_secret_value(SecretId=sid, SecretString=json.dumps(doc))

    def drift_tick(self, when: str | None = None) -> dict[str, object]:
        """Play one tick of the drift schedule (EventBridge does this on AWS)."""
        event: dict[str, object] = {"source": "aws.events", "detail-type": "Scheduled Event"}
        if when:
            event["time"] = when
        result, error = self.dispatcher.invoke(self.dispatcher.function_name("drift"), event)
        if error is not None:
            raise RuntimeError(f"the drift tick failed: {result}")
        return dict(result)

    def banner(self) -> list[str]:
        """The lines `groundplan cloud local` prints when ready (scripts read them)."""
        return [
            f"API: {self.api_url}",
            f"Token: {self.token}",
            f"Slack signing secret: {self.slack_secret}",
            f"AWS endpoint: {self.aws_endpoint}",
            f"Console: {self.console_url}",
        ]

    @property
    def console_url(self) -> str:
        """The web console (sign in with the token)."""
        return self.api_url + "/console"

    def stop(self) -> None:
        if self.front is not None:
            self.front.stop()
            self.front = None
        self.dispatcher.close()
        if self._moto is not None:
            self._moto.terminate()
            try:
                self._moto.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._moto.kill()
                self._moto.wait()
            self._moto = None
        if self._bridge is not None:
            self._bridge.stop()
            self._bridge = None
        for k, v in self._saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        self._saved_env.clear()

    def __enter__(self) -> LocalCloud:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
