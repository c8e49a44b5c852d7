"""The real hashicorp/aws 3.39.0 provider through the groundplan CLI, against moto, vs terraform.

One configuration (an S3 bucket, a DynamoDB table, an SQS queue, an SNS topic with an SQS
subscription, an IAM role with an inline policy, and SSM parameters holding the bucket's and the
topic's ARNs) goes through `init -plugin-dir=<mirror>`, `plan -out`, `apply PLANFILE`, a
no-change `plan -detailed-exitcode` (exit 0), `import` of an SSM parameter created out of band
with boto3 (plus a no-change plan after it), a destroy plan, and `destroy -auto-approve`. After
each step boto3 asks moto what exists. The same steps then run through terraform (same mirror,
moto emptied first); every saved plan's `show -json` resource_changes (address and actions) must
be the same for both tools.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import boto3
import pytest

from tests.product_name import as_groundplan

pytestmark = pytest.mark.conformance

ROOT = Path(__file__).resolve().parents[2]
GROUNDPLAN = [sys.executable, "-m", "engine.cli.main"]
PLATFORM = "linux_amd64"
IMPORTED_NAME = "/gp-e2e/imported"

needs_terraform = pytest.mark.usefixtures("terraform_required")


def config(endpoint: str) -> str:
    """The configuration, its provider pointed at moto at `endpoint`."""
    services = ("s3", "dynamodb", "sqs", "sns", "iam", "sts", "ssm")
    endpoints = "\n".join(f'    {s:<8} = "{endpoint}"' for s in services)
    return f"""terraform {{
  required_providers {{
    aws = {{ source = "hashicorp/aws", version = "3.39.0" }}
  }}
}}

provider "aws" {{
  region                      = "us-east-1"
  access_key                  = "test"
  secret_key                  = "test"
  skip_credentials_validation = true
  skip_metadata_api_check     = true
  skip_requesting_account_id  = true
  skip_region_validation      = true
  skip_get_ec2_platforms      = true
  s3_force_path_style         = true
  endpoints {{
{endpoints}
  }}
}}

resource "aws_s3_bucket" "data" {{
  bucket = "gp-e2e-data"
}}

resource "aws_dynamodb_table" "items" {{
  name         = "gp-e2e-items"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "pk"
  attribute {{
    name = "pk"
    type = "S"
  }}
}}

resource "aws_sqs_queue" "events" {{
  name = "gp-e2e-events"
}}

resource "aws_sns_topic" "events" {{
  name = "gp-e2e-events"
}}

resource "aws_sns_topic_subscription" "events" {{
  topic_arn = aws_sns_topic.events.arn
  protocol  = "sqs"
  endpoint  = aws_sqs_queue.events.arn
}}

resource "aws_iam_role" "worker" {{
  name = "gp-e2e-worker"
  assume_role_policy = jsonencode({{
    Version   = "2012-10-17"
    Statement = [{{ Effect = "Allow", Action = "sts:AssumeRole",
                    Principal = {{ Service = "lambda.amazonaws.com" }} }}]
  }})
}}

resource "aws_iam_role_policy" "worker" {{
  name = "access"
  role = aws_iam_role.worker.id
  policy = jsonencode({{
    Version = "2012-10-17"
    Statement = [
      {{ Effect = "Allow", Action = ["s3:GetObject"], Resource = "${{aws_s3_bucket.data.arn}}/*" }},
      {{ Effect = "Allow", Action = ["dynamodb:GetItem"], Resource = aws_dynamodb_table.items.arn }},
    ]
  }})
}}

resource "aws_ssm_parameter" "bucket_arn" {{
  name  = "/gp-e2e/bucket-arn"
  type  = "String"
  value = aws_s3_bucket.data.arn
}}

resource "aws_ssm_parameter" "topic_arn" {{
  name  = "/gp-e2e/topic-arn"
  type  = "String"
  value = aws_sns_topic.events.arn
}}
"""


IMPORTED_TF = f"""
resource "aws_ssm_parameter" "imported" {{
  name  = "{IMPORTED_NAME}"
  type  = "String"
  value = "made out of band"
}}
"""


# ------------------------------------------------------------------------------ fixtures
def build_mirror(binary: Path, base: Path) -> Path:
    """A filesystem mirror (unpacked layout) under `base` holding aws 3.39.0 `binary`."""
    pkg = base / "registry.terraform.io/hashicorp/aws/3.39.0" / PLATFORM
    pkg.mkdir(parents=True)
    target = pkg / binary.name
    try:
        os.link(binary, target)
    except OSError:
        shutil.copy2(binary, target)
    return base


@pytest.fixture(scope="module")
def aws_mirror(aws_provider_binary: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_mirror(aws_provider_binary, tmp_path_factory.mktemp("aws-mirror"))


def tool_env(tmp: Path) -> dict[str, str]:
    rc = tmp / "empty.tfrc"
    rc.write_text("")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("TF_VAR_", "TF_CLI_ARGS", "TF_LOG", "AWS_"))}
    env.update(TF_CLI_CONFIG_FILE=str(rc), CHECKPOINT_DISABLE="1", TF_IN_AUTOMATION="1",
               PYTHONPATH=str(ROOT))
    return env


def reset(moto_url: str) -> None:
    req = urllib.request.Request(moto_url + "/moto-api/reset", method="POST")
    with urllib.request.urlopen(req, timeout=10):
        pass


def client(service: str, moto_url: str) -> Any:
    return boto3.client(service, endpoint_url=moto_url, region_name="us-east-1",
                        aws_access_key_id="test", aws_secret_access_key="test")


# ------------------------------------------------------------------------------ what exists
def inventory(moto_url: str) -> dict[str, Any]:
    """What moto holds of the configuration's kinds of objects."""
    s3, ddb, sqs = client("s3", moto_url), client("dynamodb", moto_url), client("sqs", moto_url)
    sns, iam, ssm = client("sns", moto_url), client("iam", moto_url), client("ssm", moto_url)
    topics = [t["TopicArn"] for t in sns.list_topics()["Topics"]]
    roles = [r["RoleName"] for r in iam.list_roles()["Roles"]]
    params = {p["Name"]: ssm.get_parameter(Name=p["Name"])["Parameter"]["Value"]
              for p in ssm.describe_parameters()["Parameters"]}
    return {
        "buckets": sorted(b["Name"] for b in s3.list_buckets()["Buckets"]),
        "tables": sorted(ddb.list_tables()["TableNames"]),
        "queues": sorted(u.rsplit("/", 1)[-1] for u in sqs.list_queues().get("QueueUrls", [])),
        "topics": sorted(t.rsplit(":", 1)[-1] for t in topics),
        "subscriptions": sorted(
            (s["TopicArn"].rsplit(":", 1)[-1], s["Protocol"], s["Endpoint"].rsplit(":", 1)[-1])
            for t in topics for s in sns.list_subscriptions_by_topic(TopicArn=t)["Subscriptions"]),
        "roles": sorted(roles),
        "role_policies": sorted(
            (r, p) for r in roles for p in iam.list_role_policies(RoleName=r)["PolicyNames"]),
        "parameters": params,
    }


EMPTY: dict[str, Any] = {"buckets": [], "tables": [], "queues": [], "topics": [],
                         "subscriptions": [], "roles": [], "role_policies": [], "parameters": {}}
APPLIED: dict[str, Any] = {
    "buckets": ["gp-e2e-data"],
    "tables": ["gp-e2e-items"],
    "queues": ["gp-e2e-events"],
    "topics": ["gp-e2e-events"],
    "subscriptions": [("gp-e2e-events", "sqs", "gp-e2e-events")],
    "roles": ["gp-e2e-worker"],
    "role_policies": [("gp-e2e-worker", "access")],
    "parameters": {"/gp-e2e/bucket-arn": "arn:aws:s3:::gp-e2e-data",
                   "/gp-e2e/topic-arn": "arn:aws:sns:us-east-1:123456789012:gp-e2e-events"},
}


# ------------------------------------------------------------------------------ one tool
class Run:
    """One tool in one working directory."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.argv, self.cwd, self.env = argv, cwd, env

    def __call__(self, *args: str, expect: int = 0) -> str:
        proc = subprocess.run([*self.argv, *args, "-no-color"], cwd=self.cwd, env=self.env,
                              capture_output=True, text=True, timeout=600, check=False)
        if Path(self.argv[0]).name == "terraform":  # its words as groundplan prints them
            proc.stdout, proc.stderr = as_groundplan(proc.stdout), as_groundplan(proc.stderr)
        out = proc.stdout + proc.stderr
        assert proc.returncode == expect, f"{self.argv[-1]} {' '.join(args)}: {out}"
        return out

    def changes(self, planfile: str) -> list[tuple[str, list[str]]]:
        """(address, actions) of each resource change in a saved plan, by address."""
        doc = json.loads(self("show", "-json", planfile))
        return sorted((c["address"], c["change"]["actions"])
                      for c in doc.get("resource_changes", []))

    def state_addresses(self) -> list[str]:
        out = self("state", "list")
        return sorted(line for line in out.splitlines() if line.strip())


def scenario(argv: list[str], workdir: Path, mirror: Path, moto_url: str
             ) -> dict[str, list[tuple[str, list[str]]]]:
    """All steps with one tool; each saved plan's resource changes by step name."""
    reset(moto_url)
    workdir.mkdir()
    (workdir / "main.tf").write_text(config(moto_url))
    run = Run(argv, workdir, tool_env(workdir))
    plans: dict[str, list[tuple[str, list[str]]]] = {}

    run("init", f"-plugin-dir={mirror}")
    assert inventory(moto_url) == EMPTY
    run("plan", "-out=create.tfplan")
    plans["create"] = run.changes("create.tfplan")
    assert inventory(moto_url) == EMPTY  # planning creates nothing
    out = run("apply", "create.tfplan")
    assert "Apply complete! Resources: 9 added, 0 changed, 0 destroyed." in out
    assert inventory(moto_url) == APPLIED
    assert len(run.state_addresses()) == 9

    run("plan", "-detailed-exitcode", "-out=same.tfplan")
    plans["no-change"] = run.changes("same.tfplan")

    client("ssm", moto_url).put_parameter(Name=IMPORTED_NAME, Value="made out of band",
                                          Type="String")
    with open(workdir / "main.tf", "a") as fh:
        fh.write(IMPORTED_TF)
    out = run("import", "aws_ssm_parameter.imported", IMPORTED_NAME)
    assert "Import successful!" in out
    assert "aws_ssm_parameter.imported" in run.state_addresses()
    out = run("import", "aws_ssm_parameter.imported", IMPORTED_NAME, expect=1)
    assert "Resource already managed by groundplan" in out
    run("plan", "-detailed-exitcode", "-out=imported.tfplan")
    plans["after-import"] = run.changes("imported.tfplan")
    assert inventory(moto_url)["parameters"][IMPORTED_NAME] == "made out of band"

    run("plan", "-destroy", "-out=destroy.tfplan")
    plans["destroy"] = run.changes("destroy.tfplan")
    out = run("destroy", "-auto-approve")
    assert "Destroy complete! Resources: 10 destroyed." in out
    assert inventory(moto_url) == EMPTY
    assert run.state_addresses() == []
    return plans


@needs_terraform
def test_aws_lifecycle_matches_terraform(aws_mirror: Path, moto: str, tmp_path: Path) -> None:
    ours = scenario(GROUNDPLAN, tmp_path / "groundplan", aws_mirror, moto)
    theirs = scenario(["terraform"], tmp_path / "terraform", aws_mirror, moto)
    everything = sorted(a for a, _ in ours["create"])
    assert len(everything) == 9
    assert ours["create"] == [(a, ["create"]) for a in everything]
    assert all(actions == ["no-op"] for _, actions in ours["no-change"])
    assert ours == theirs
