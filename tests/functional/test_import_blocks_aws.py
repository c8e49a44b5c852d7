"""An `import` block with the real hashicorp/aws 3.39.0 provider against moto, vs terraform.

An SQS queue is created out of band with boto3; the configuration declares it and an import
block whose id is the queue URL (from a variable). Each tool (moto emptied, queue created
again first) runs `init -plugin-dir`, `plan -out -detailed-exitcode` (exit 2), `apply PLANFILE`
and a no-change `plan -detailed-exitcode` (exit 0). The saved plans' resource changes (address,
actions, importing) must be the same for both tools, the queue must be the only one in moto,
and the state must hold it under its URL.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.functional.test_aws_end_to_end import GROUNDPLAN, Run, client, reset, tool_env

pytestmark = pytest.mark.conformance
QUEUE = "gp-import-queue"


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

resource "aws_sqs_queue" "q" {{
  name = "{QUEUE}"
}}
"""


@pytest.fixture(scope="module")
def aws_mirror(aws_provider_binary: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.functional.test_aws_end_to_end import build_mirror

    return build_mirror(aws_provider_binary, tmp_path_factory.mktemp("aws-import-mirror"))


def run_tool(argv: list[str], workdir: Path, mirror: Path, moto_url: str) -> dict[str, Any]:
    reset(moto_url)
    url = client("sqs", moto_url).create_queue(QueueName=QUEUE)["QueueUrl"]
    workdir.mkdir(parents=True)
    (workdir / "main.tf").write_text(config(moto_url))
    run = Run(argv, workdir, tool_env(workdir))
    var = f"-var=queue_url={url}"
    run("init", f"-plugin-dir={mirror}", "-input=false")
    plan_text = run("plan", "-out=p", "-input=false", "-detailed-exitcode", var, expect=2)
    doc = json.loads(run("show", "-json", "p"))
    changes = sorted((c["address"], c["change"]["actions"], c["change"].get("importing"))
                     for c in doc.get("resource_changes", []))
    apply_text = run("apply", "-input=false", "p")
    run("plan", "-input=false", "-detailed-exitcode", var, expect=0)
    state = json.loads((workdir / "terraform.tfstate").read_text())
    queues = client("sqs", moto_url).list_queues().get("QueueUrls", [])
    return {"changes": changes, "url": url, "plan_text": plan_text, "apply_text": apply_text,
            "ids": [i["attributes"]["id"] for r in state["resources"] for i in r["instances"]],
            "queues": queues}


@pytest.mark.usefixtures("terraform_required")
def test_import_block_sqs_queue_matches_terraform(aws_mirror: Path, moto: str,
                                                  tmp_path: Path) -> None:
    ours = run_tool(GROUNDPLAN, tmp_path / "groundplan", aws_mirror, moto)
    theirs = run_tool(["terraform"], tmp_path / "terraform", aws_mirror, moto)
    url = ours["url"]
    assert ours["changes"] == theirs["changes"]
    assert [(a, imp) for a, _actions, imp in ours["changes"]] == [
        ("aws_sqs_queue.q", {"id": url})]
    assert ours["ids"] == theirs["ids"] == [url]
    assert ours["queues"] == theirs["queues"] == [url]
    for out in (ours, theirs):
        assert f"aws_sqs_queue.q: Preparing import... [id={url}]" in out["plan_text"]
        assert "Apply complete! Resources: 1 imported, " in out["apply_text"]
