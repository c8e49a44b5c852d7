"""Provider credentials, obtained at execute time only.

A workspace names a role to assume (STS AssumeRole per run, session name = run id) or a
Secrets Manager secret (a JSON object of environment variables, e.g. AWS_ACCESS_KEY_ID /
AWS_SECRET_ACCESS_KEY or a provider's token). `provider_environment` returns the environment
the provider processes are started with: this process's, without its own AWS credentials,
plus the workspace's. Nothing here stores, logs or returns them anywhere else."""

from __future__ import annotations

import json
import os

from functions.common.aws import client
from functions.common.models import Workspace

_OWN = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN",
        "AWS_PROFILE", "AWS_CONTAINER_CREDENTIALS_FULL_URI",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_AUTHORIZATION_TOKEN")
_CONTROL_PLANE = ("GROUNDPLAN_API_TOKEN", "GROUNDPLAN_SLACK_SIGNING_SECRET")


def workspace_credentials(ws: Workspace, run_id: str) -> dict[str, str]:
    """The environment variables that carry `ws`'s credentials for run `run_id`."""
    creds = ws.credentials
    if creds is None:
        return {}
    if creds.role_arn:
        out = client("sts").assume_role(RoleArn=creds.role_arn, RoleSessionName=run_id[:64],
                                        DurationSeconds=3600)["Credentials"]
        return {"AWS_ACCESS_KEY_ID": out["AccessKeyId"],
                "AWS_SECRET_ACCESS_KEY": out["SecretAccessKey"],
                "AWS_SESSION_TOKEN": out["SessionToken"]}
    if creds.secret_id:
        raw = client("secretsmanager").get_secret_value(SecretId=creds.secret_id)["SecretString"]
        doc = json.loads(raw)
        if not isinstance(doc, dict):
            raise ValueError(f"secret {creds.secret_id} is not a JSON object of variables")
        return {str(k): str(v) for k, v in doc.items()}
    return {}


def provider_environment(ws: Workspace, run_id: str) -> dict[str, str]:
    """The environment for `ws`'s provider processes in run `run_id`."""
    env = {k: v for k, v in os.environ.items() if k not in _OWN and k not in _CONTROL_PLANE}
    env.update(workspace_credentials(ws, run_id))
    return env
