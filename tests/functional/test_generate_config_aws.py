"""`plan -generate-config-out` with the real hashicorp/aws 3.39.0 provider against moto, vs
terraform: an SQS queue (with a JSON policy and tags) made out of band is imported by an
import block with no resource configuration. Both tools must generate the same file (the
policy as `jsonencode(...)`, the tags as a map, computed-only attributes and the legacy `id`
left out, optional empty strings as null) and plan the same changes (address, actions,
import, generated configuration).

Not compared: the plan text. groundplan plans the import of an object with generated
configuration as a no-op whose values are the object read; terraform plans the generated
configuration through the provider, and for this legacy-SDK provider its rendering then
shows the optional attributes written as null (`kms_master_key_id = null`), which the
object read holds as "".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.functional.test_aws_end_to_end import GROUNDPLAN, Run, client, reset, tool_env

pytestmark = pytest.mark.conformance
QUEUE = "gp-generated-queue"
POLICY = {"Version": "2012-10-17", "Statement": [
    {"Effect": "Allow", "Principal": "*", "Action": "sqs:SendMessage", "Resource": "*"}]}


def config(endpoint: str) -> str:
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
  endpoints {{
    sqs = "{endpoint}"
    sts = "{endpoint}"
  }}
}}

variable "queue_url" {{
  type = string
}}

import {{
  to = aws_sqs_queue.q
  id = var.queue_url
}}
"""


@pytest.fixture(scope="module")
def aws_mirror(aws_provider_binary: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.functional.test_aws_end_to_end import build_mirror

    return build_mirror(aws_provider_binary, tmp_path_factory.mktemp("aws-genconfig-mirror"))


def run_tool(argv: list[str], workdir: Path, mirror: Path, moto_url: str) -> dict[str, Any]:
    reset(moto_url)
    url = client("sqs", moto_url).create_queue(
        QueueName=QUEUE, Attributes={"Policy": json.dumps(POLICY)},
        tags={"team": "core", "env": "test"})["QueueUrl"]
    workdir.mkdir(parents=True)
    (workdir / "main.tf").write_text(config(moto_url))
    run = Run(argv, workdir, tool_env(workdir))
    var = f"-var=queue_url={url}"
    run("init", f"-plugin-dir={mirror}", "-input=false")
    plan_text = run("plan", "-out=p", "-input=false", "-generate-config-out=generated.tf", var,
                    expect=0)
    doc = json.loads(run("show", "-json", "p"))
    changes = [(c["address"], c["change"]["actions"], c["change"].get("importing"),
                c["change"].get("generated_config")) for c in doc.get("resource_changes", [])]
    return {"plan": plan_text.replace(url, "<url>"), "changes": changes,
            "file": (workdir / "generated.tf").read_text()}


@pytest.mark.usefixtures("terraform_required")
def test_generated_config_for_an_sqs_queue_matches_terraform(aws_mirror: Path, moto: str,
                                                             tmp_path: Path) -> None:
    theirs = run_tool(["terraform"], tmp_path / "terraform", aws_mirror, moto)
    ours = run_tool(GROUNDPLAN, tmp_path / "groundplan", aws_mirror, moto)
    assert ours["file"] == theirs["file"]
    assert "jsonencode(" in ours["file"]
    assert ours["changes"] == theirs["changes"]
    assert [c[1] for c in ours["changes"]] == [["no-op"]]
    for out in (ours, theirs):
        assert "# (config will be generated)" in out["plan"]
