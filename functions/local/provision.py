"""The control plane's AWS resources, created on a (local) AWS endpoint.

The SAM template (`template.yaml`) creates the same resources on AWS; `groundplan cloud local`
and the end-to-end tests create them on moto with `provision`. Names follow `Settings` with
the stack prefix."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from functions.common.aws import client
from functions.common.settings import Settings
from functions.local.lambdas import HANDLERS, Dispatcher

ROOT = Path(__file__).resolve().parents[2]
ASL = ROOT / "infra" / "statemachine.asl.json"

_KEY_SCHEMAS: dict[str, tuple[list[tuple[str, str]], list[dict[str, Any]]]] = {
    # table attr -> ([(name, HASH|RANGE)], GSIs)
    "runs": ([("id", "HASH")], [{
        "IndexName": "workspace-created",
        "KeySchema": [{"AttributeName": "workspace", "KeyType": "HASH"},
                      {"AttributeName": "created_at", "KeyType": "RANGE"}],
        "Projection": {"ProjectionType": "ALL"}}]),
    "workspaces": ([("name", "HASH")], []),
    "locks": ([("key", "HASH")], []),
    "tokens": ([("run_id", "HASH")], []),
    "nodes": ([("run_id", "HASH"), ("address", "RANGE")], []),
    "idempotency": ([("id", "HASH")], []),
    "audit": ([("id", "HASH")], []),
}


def definition(cfg: Settings, dispatcher: Dispatcher, account: str = "123456789012",
               apply_timeout: int = 21600) -> str:
    """The state machine definition with the template's substitutions filled in."""
    text = ASL.read_text(encoding="utf-8")

    def arn(logical: str) -> str:
        return (f"arn:aws:lambda:{cfg.region}:{account}:function:"
                f"{dispatcher.function_name(logical)}")

    subs = {
        "PlanFunctionArn": arn("plan"),
        "NotifyFunctionArn": arn("notify"),
        "ApplyNodeFunctionArn": arn("apply_node"),
        "FinalizeFunctionArn": arn("finalize"),
        "LocksTableName": cfg.locks_table,
        "ApprovalTimeoutSeconds": str(cfg.approval_timeout),
        "ApplyTimeoutSeconds": str(apply_timeout),
    }
    for name, value in subs.items():
        text = text.replace("${" + name + "}", value)
    return text


def _table(cfg: Settings, kind: str) -> str:
    return str(getattr(cfg, f"{kind}_table"))


def provision(cfg: Settings, dispatcher: Dispatcher, *, slack_secret: str,
              token_document: str, max_concurrency: int = 10) -> dict[str, str]:
    """Create buckets, tables, the KMS key, secrets, functions and the state machine; the
    environment variables the handlers need (also set in this process)."""
    s3 = client("s3")
    for bucket in (cfg.config_bucket, cfg.artifact_bucket, cfg.state_bucket):
        s3.create_bucket(Bucket=bucket)
        s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
        s3.put_public_access_block(Bucket=bucket, PublicAccessBlockConfiguration={
            "BlockPublicAcls": True, "IgnorePublicAcls": True, "BlockPublicPolicy": True,
            "RestrictPublicBuckets": True})
    ddb = client("dynamodb")
    for kind, (keys, gsis) in _KEY_SCHEMAS.items():
        attrs = {name for name, _ in keys}
        for g in gsis:
            attrs.update(k["AttributeName"] for k in g["KeySchema"])
        args: dict[str, Any] = {
            "TableName": _table(cfg, kind),
            "KeySchema": [{"AttributeName": n, "KeyType": t} for n, t in keys],
            "AttributeDefinitions": [{"AttributeName": a, "AttributeType": "S"}
                                     for a in sorted(attrs)],
            "BillingMode": "PAY_PER_REQUEST",
        }
        if gsis:
            args["GlobalSecondaryIndexes"] = gsis
        ddb.create_table(**args)
    key_id = client("kms").create_key(Description="groundplan state and plan artifacts")[
        "KeyMetadata"]["KeyId"]
    sm = client("secretsmanager")
    sm.create_secret(Name=cfg.slack_secret_id, SecretString=slack_secret)
    sm.create_secret(Name=cfg.api_token_secret_id, SecretString=token_document)
    iam = client("iam")
    role = iam.create_role(RoleName=f"{dispatcher.prefix}-functions", AssumeRolePolicyDocument=
                           json.dumps({"Version": "2012-10-17", "Statement": [{
                               "Effect": "Allow", "Action": "sts:AssumeRole",
                               "Principal": {"Service": "lambda.amazonaws.com"}}]}))["Role"]["Arn"]
    lam = client("lambda")
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("handler.py", "# dispatched in-process by functions.local.lambdas\n")
    for logical in HANDLERS:
        lam.create_function(FunctionName=dispatcher.function_name(logical), Runtime="python3.11",
                            Role=role, Handler="handler.handler", Code={"ZipFile": buf.getvalue()},
                            Timeout=900, MemorySize=1024)
    # the template's ReservedConcurrentExecutions and EventInvokeConfig of the node tasks
    lam.put_function_concurrency(FunctionName=dispatcher.function_name("apply_node"),
                                 ReservedConcurrentExecutions=max_concurrency)
    dispatcher.configure("apply_node", max_concurrency, on_failure="apply_node")
    account = role.split(":")[4]
    sfn = client("stepfunctions")
    machine = sfn.create_state_machine(
        name=f"{dispatcher.prefix}-run", roleArn=role,
        definition=definition(cfg, dispatcher, account))["stateMachineArn"]
    env = {"GROUNDPLAN_KMS_KEY_ID": key_id, "GROUNDPLAN_STATE_MACHINE_ARN": machine,
           "GROUNDPLAN_APPLY_EXECUTIONS": str(max_concurrency)}
    os.environ.update(env)
    return env
