"""The deployment files, checked by independent tools: cfn-lint and `sam validate --lint` on
template.yaml, the OpenAPI validator on infra/openapi.yaml (and its routes are the API
function's), the ASL parsed with every substitution the template provides."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]
TEMPLATE = ROOT / "template.yaml"
SAM = os.environ.get("GROUNDPLAN_SAM", str(ROOT / ".venv-sam" / "bin" / "sam"))


def _cfn_yaml() -> dict:
    class Loader(yaml.SafeLoader):
        pass

    def tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> object:
        if isinstance(node, yaml.ScalarNode):
            return {suffix: loader.construct_scalar(node)}
        if isinstance(node, yaml.SequenceNode):
            return {suffix: loader.construct_sequence(node)}
        return {suffix: loader.construct_mapping(node)}

    Loader.add_multi_constructor("!", tag)
    return yaml.load(TEMPLATE.read_text(), Loader=Loader)


def test_template_passes_cfn_lint() -> None:
    exe = Path(sys.executable).parent / "cfn-lint"
    out = subprocess.run([str(exe), str(TEMPLATE)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_template_passes_sam_validate_lint() -> None:
    assert shutil.which(SAM) or Path(SAM).exists(), (
        f"aws-sam-cli not found at {SAM}: `make test` installs it into .venv-sam")
    env = {**os.environ, "SAM_CLI_TELEMETRY": "0", "AWS_DEFAULT_REGION": "us-east-1"}
    out = subprocess.run([SAM, "validate", "--lint", "-t", str(TEMPLATE)], capture_output=True,
                         text=True, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "is a valid SAM Template" in out.stdout + out.stderr


def test_state_machine_substitutions_are_all_provided() -> None:
    asl = (ROOT / "infra" / "statemachine.asl.json").read_text()
    wanted = set(re.findall(r"\$\{(\w+)\}", asl))
    machine = _cfn_yaml()["Resources"]["RunStateMachine"]["Properties"]
    assert set(machine["DefinitionSubstitutions"]) == wanted
    filled = re.sub(r"\$\{(\w+)\}", "1", asl)
    doc = json.loads(filled)
    assert doc["StartAt"] == "Plan"
    assert "QueryLanguage" not in doc  # JSONPath


def test_every_function_has_least_privilege_without_star_actions_on_data() -> None:
    resources = _cfn_yaml()["Resources"]
    for name, res in resources.items():
        if res["Type"] != "AWS::Serverless::Function":
            continue
        for policy in res["Properties"].get("Policies", []):
            for stmt in policy.get("Statement", []) if isinstance(policy, dict) else []:
                actions = stmt["Action"] if isinstance(stmt["Action"], list) else [stmt["Action"]]
                assert not any(a == "*" or a.endswith(":*") for a in actions), (name, actions)


def test_buckets_are_versioned_encrypted_private_and_tls_only() -> None:
    resources = _cfn_yaml()["Resources"]
    buckets = [n for n, r in resources.items() if r["Type"] == "AWS::S3::Bucket"]
    assert sorted(buckets) == ["ArtifactBucket", "ConfigurationBucket", "StateBucket"]
    policies = {r["Properties"]["Bucket"]["Ref"]: r for r in resources.values()
                if r["Type"] == "AWS::S3::BucketPolicy"}
    for b in buckets:
        props = resources[b]["Properties"]
        assert props["VersioningConfiguration"] == {"Status": "Enabled"}
        assert props["BucketEncryption"]["ServerSideEncryptionConfiguration"][0][
            "ServerSideEncryptionByDefault"]["SSEAlgorithm"] == "aws:kms"
        assert all(props["PublicAccessBlockConfiguration"].values())
        stmt = policies[b]["Properties"]["PolicyDocument"]["Statement"][0]
        assert stmt["Effect"] == "Deny"
        assert stmt["Condition"] == {"Bool": {"aws:SecureTransport": "false"}}


def test_openapi_document_is_valid_and_matches_the_resolver_routes() -> None:
    from openapi_spec_validator import validate

    spec = yaml.safe_load((ROOT / "infra" / "openapi.yaml").read_text())
    validate(spec)
    documented = set()
    for path, item in spec["paths"].items():
        for method in item:
            if method in ("get", "post", "put", "delete", "patch"):
                documented.add((method.upper(), re.sub(r"\{(\w+)\}", "{}", path)))
    from functions.api.handler import app

    routes = {(route.method, re.sub(r"<(\w+)>", "{}", route.path))
              for route in app._static_routes + app._dynamic_routes}
    routes.add(("POST", "/slack/interactions"))  # the approval function's route
    assert documented == routes
