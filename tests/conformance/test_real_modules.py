"""Real community modules, side by side with terraform, against moto with the real aws 3.39.0.

The modules under `modules/` are vendored, unmodified, from terraform-aws-modules at the newest
tags whose `versions.tf` accepts hashicorp/aws 3.39.0 (`modules/SOURCES.txt` names repository,
tag, sub-directory and commit of each; every directory keeps the module's LICENSE):

    vpc (v3.7.0), security-group (v5.3.1), key-pair (v1.0.1)                 -> roots/network
    s3-bucket (v2.8.0), dynamodb-table (v1.2.2)                              -> roots/storage
    sqs (v3.1.0), sns (v3.2.0), cloudwatch//modules/log-group (v3.3.0)       -> roots/messaging
    iam//modules/{iam-assumable-role, iam-policy, iam-user,
                  iam-group-with-policies} (v4.24.1)                         -> roots/iam

Each root configuration calls its modules as their README examples do, configured only where
moto or the 3.39.0 provider needs it: the VPC example runs with `enable_nat_gateway` and
`enable_vpn_gateway` false (they were not tried against moto; NAT gateways make the provider
wait for their state) and without DHCP options (moto does not keep their tags, so even
terraform's re-plan after apply is not empty); iam-user has no login profile or access key
(both need a PGP key to encrypt their secrets); sns is at v3.2.0, because v3.3.0 declares
aws >= 3.37 but outputs `aws_sns_topic.owner`, which 3.39.0 does not have (terraform fails
too). KMS is left out: no terraform-aws-kms release accepts 3.39.0 (the oldest needs >= 3.72).
The modules of one group share a root, so one `init`, plan and apply serve several modules;
one moto server (emptied before each tool's run) and one provider binary serve every group.

For every group each tool runs: `init -plugin-dir`, `plan -out` (its whole `show -json`
document), `apply` of that plan, `show -json` of the state, a re-plan that must find no changes
(`-detailed-exitcode` exits 0), a destroy plan (`plan -destroy -out`, its document), `destroy
-auto-approve`, after which the state file holds no resources and no outputs. groundplan's
documents must equal terraform's after the scenario runner's normalisations, with the ids
moto and the provider make up (resource ids such as `vpc-…`, route and rule ids, IAM unique
ids, `name_prefix` names, timestamps) masked as placeholders naming their kind — they differ
between any two runs — and without `relevant_attributes` (see `normalise`).

Two more roots, `roots/dynamic_iterators` and `roots/destroy_outputs`, hold the general causes
behind the two failures the modules showed (a `dynamic` block's iterator taken for a resource
reference; outputs in the style `concat(x.this.*.id, [""])[0]` failing while everything is
destroyed), each with a small local module, through the same steps.

Run as a script to compare one group and print the differences:
`python -m tests.conformance.test_real_modules GROUP`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.conformance.harness import require_terraform
from tests.conformance.scenario_runner import document_diff, normalise_document
from tests.functional.conftest import _fetch_aws_provider, _provider_cache_dir
from tests.functional.conftest import moto_server as moto_server

pytestmark = [pytest.mark.conformance, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
MODULES = Path(__file__).resolve().parent / "modules"
GROUPS = ("network", "storage", "messaging", "iam")
# The two general causes behind the modules' failures, each as a small root of its own.
CAUSES = ("dynamic_iterators", "destroy_outputs")
GROUNDPLAN = [sys.executable, "-m", "engine.cli.main"]
SERVICES = ("ec2", "s3", "iam", "sts", "sqs", "sns", "dynamodb", "cloudwatchlogs", "kms")


def provider_tf(endpoint: str) -> str:
    """The aws provider block pointed at moto (see /work/shared/reference/aws-provider-on-moto)."""
    endpoints = "\n".join(f'    {s:<14} = "{endpoint}"' for s in SERVICES)
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
"""


def build_mirror(binary: Path, base: Path) -> Path:
    """A filesystem mirror (terraform's unpacked layout) under `base` holding `binary`."""
    pkg = base / "registry.terraform.io/hashicorp/aws/3.39.0/linux_amd64"
    pkg.mkdir(parents=True, exist_ok=True)
    target = pkg / binary.name
    if not target.exists():
        try:
            os.link(binary, target)
        except OSError:
            shutil.copy2(binary, target)
    return base


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


def prepare(group: str, base: Path, endpoint: str) -> Path:
    """A copy of the vendored modules with `group`'s root (plus the provider file) in it."""
    tree = base / "modules"
    shutil.copytree(MODULES, tree, ignore=shutil.ignore_patterns(".terraform*", "*.tfstate*"))
    root = tree / "roots" / group
    (root / "provider.tf").write_text(provider_tf(endpoint))
    return root


# ------------------------------------------------------------------------------ normalising
_MOTO_IDS = [
    # Route ids: "r-" + route table id + a hash of the destination.
    (re.compile(r"\br-rtb-[0-9a-f]+\b"), "r-rtb-<id>"),
    # Security group rule ids: a hash over the rule and its group's (moto-made) id.
    (re.compile(r"\bsgrule-\d+\b"), "sgrule-<id>"),
    # The provider's unique names (name_prefix + timestamp + counter, 26 digits).
    (re.compile(r"(?<![0-9])20\d{24}(?![0-9])"), "<unique-id>"),
    # EC2-style resource ids: prefix, dash, 8 or 17 hex digits.
    (re.compile(r"\b(vpc|subnet|sg|sgr|rtb|rtbassoc|igw|acl|aclassoc|dopt|eni|eipalloc|eipassoc|"
                r"nat|vgw|key|vpce|pl|ami|i)-[0-9a-f]{8,17}\b"), r"\1-<id>"),
    (re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)\b"), "<time>"),
]


# Attributes whose whole value moto draws at random (IAM's unique ids: no fixed shape).
_MOTO_ID_ATTRIBUTES = frozenset({"unique_id", "policy_id"})


def _mask(value: Any) -> Any:
    if isinstance(value, str):
        for pattern, repl in _MOTO_IDS:
            value = pattern.sub(repl, value)
        return value
    if isinstance(value, list):
        return [_mask(v) for v in value]
    if isinstance(value, dict):
        return {_mask(k): f"<{k}>" if k in _MOTO_ID_ATTRIBUTES and isinstance(v, str) else _mask(v)
                for k, v in value.items()}
    return value


def normalise(doc: Any) -> Any:
    """A `show -json` document with the scenario runner's normalisations and moto's ids masked.

    `relevant_attributes` is left out: terraform's list follows references transitively
    through the configuration of every referenced resource, guided by the provider schema
    (globalref's MetaReferences); groundplan's follows only direct references, locals,
    module inputs and outputs, so for these modules it lists fewer entries."""
    doc = _mask(normalise_document(doc))
    if isinstance(doc, dict):
        doc.pop("relevant_attributes", None)
    return doc


# ------------------------------------------------------------------------------ one tool
class Tool:
    """One tool in one working directory; each call must exit as `expect` says."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.argv, self.cwd, self.env = argv, cwd, env

    def __call__(self, *args: str, expect: int = 0) -> str:
        proc = subprocess.run([*self.argv, *args, "-no-color"] if args[0] != "show" else
                              [*self.argv, *args], cwd=self.cwd, env=self.env,
                              capture_output=True, text=True, timeout=900, check=False)
        out = proc.stdout + proc.stderr
        assert proc.returncode == expect, (
            f"{' '.join(self.argv[-1:])} {' '.join(args)} exited {proc.returncode}: {out}")
        return proc.stdout

    def document(self, *args: str) -> Any:
        return json.loads(self("show", "-json", *args), parse_float=Decimal, parse_int=Decimal)


def lifecycle(argv: list[str], group: str, base: Path, mirror: Path, moto_url: str
              ) -> dict[str, Any]:
    """Every step of one tool on `group`'s root; the normalised documents by step name."""
    reset(moto_url)
    base.mkdir(parents=True)
    root = prepare(group, base, moto_url)
    tool = Tool(argv, root, tool_env(base))
    docs: dict[str, Any] = {}
    tool("init", f"-plugin-dir={mirror}")
    tool("plan", "-out=create.tfplan")
    docs["create plan"] = normalise(tool.document("create.tfplan"))
    tool("apply", "create.tfplan")
    docs["applied state"] = normalise(tool.document())
    tool("plan", "-detailed-exitcode", "-out=again.tfplan")
    docs["re-plan"] = normalise(tool.document("again.tfplan"))
    tool("plan", "-destroy", "-out=destroy.tfplan")
    docs["destroy plan"] = normalise(tool.document("destroy.tfplan"))
    tool("destroy", "-auto-approve")
    # nothing is left: the state file itself (no provider needed to read it)
    final = json.loads((root / "terraform.tfstate").read_text())
    docs["destroyed state"] = {"resources": final["resources"], "outputs": final["outputs"]}
    assert docs["destroyed state"] == {"resources": [], "outputs": {}}, docs["destroyed state"]
    return docs


def compare(group: str, base: Path, mirror: Path, moto_url: str) -> list[str]:
    """The steps at which groundplan's documents differ from terraform's, with their diffs."""
    theirs = lifecycle([require_terraform()], group, base / "terraform", mirror, moto_url)
    ours = lifecycle(GROUNDPLAN, group, base / "groundplan", mirror, moto_url)
    return [f"{step}:\n{document_diff(theirs[step], ours[step])}"
            for step in theirs if theirs[step] != ours[step]]


# ------------------------------------------------------------------------------ the tests
@pytest.fixture(scope="module")
def aws_mirror(tmp_path_factory: pytest.TempPathFactory) -> Path:
    binary = _fetch_aws_provider(_provider_cache_dir())
    return build_mirror(binary, tmp_path_factory.mktemp("aws-mirror"))


@pytest.mark.parametrize("group", GROUPS + CAUSES)
def test_real_modules_match_terraform(group: str, aws_mirror: Path, moto_server: str,
                                      tmp_path: Path) -> None:
    differences = compare(group, tmp_path, aws_mirror, moto_server)
    assert not differences, "\n".join(differences)


def test_every_vendored_module_is_used_and_licensed() -> None:
    sources = [line.split()[0] for line in (MODULES / "SOURCES.txt").read_text().splitlines()
               if line.strip()]
    used = set()
    for group in GROUPS:
        for tf in (MODULES / "roots" / group).glob("*.tf"):
            used |= set(re.findall(r'source\s*=\s*"\.\./\.\./([^"]+)"', tf.read_text()))
    assert sorted(used) == sorted(sources)
    for name in sources:
        assert (MODULES / name / "LICENSE").read_text().startswith("\n") or \
            "Apache License" in (MODULES / name / "LICENSE").read_text()


def _moto_for_script() -> Iterator[str]:
    """A moto server for the script mode (the pytest fixture's generator, called directly)."""
    yield from moto_server._get_wrapped_function()()  # type: ignore[attr-defined]


def main(argv: list[str]) -> int:
    """Compare the named groups (all by default) and print what differs."""
    binary = _fetch_aws_provider(_provider_cache_dir())
    with tempfile.TemporaryDirectory() as tmp:
        mirror = build_mirror(binary, Path(tmp) / "mirror")
        servers = _moto_for_script()
        url = next(servers)
        try:
            failed = 0
            for group in argv or GROUPS:
                diffs = compare(group, Path(tmp) / group, mirror, url)
                print(f"== {group}: {'equal' if not diffs else 'DIFFERS'}")
                for d in diffs:
                    print(d)
                failed += bool(diffs)
        finally:
            servers.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
