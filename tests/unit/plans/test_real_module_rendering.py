"""Plan JSON details the real community modules exposed (issue #12).

- `show -json PLAN` loads the configuration snapshot again; modules that sit above the root
  (`source = "../../vpc"`, as modules' own examples call them) must land inside the temporary
  tree, or the document silently lost its whole `configuration`.
- `configuration.provider_config`: a provider block's nested blocks (aws `endpoints`) are
  rendered through the provider's schema, and `version_constraint` is the constraint as
  written.
"""

from __future__ import annotations

from pathlib import Path

from engine.addrs import parse_provider_source
from engine.configs.loader import load_config
from engine.operations.planfiles import _climbs
from engine.operations.planfiles import snapshot_configuration as load_snapshot
from engine.plans.planfile import PlanFile, snapshot_config
from engine.plans.render_json_config import config_to_json
from engine.plugin.protocol import GetProviderSchemaResponse
from engine.plugin.schema import Attribute, Block, NestedBlock, Nesting, Schema
from engine.values import STRING
from tests.modules_init import init_modules


def test_climbs_counts_levels_above_the_root() -> None:
    assert _climbs(".") == 0
    assert _climbs("mod") == 0
    assert _climbs("../../vpc") == 2
    assert _climbs("../a/../../b") == 2
    assert _climbs("a/../../b") == 1
    assert _climbs("/abs/path") == 0


def test_snapshot_with_modules_above_the_root_loads(tmp_path: Path) -> None:
    root = tmp_path / "examples" / "complete"
    root.mkdir(parents=True)
    (tmp_path / "main.tf").write_text('variable "n" {}\noutput "n" { value = var.n }\n')
    (root / "main.tf").write_text('module "m" {\n  source = "../../"\n  n = 1\n}\n')
    snap = snapshot_config(str(root), {"m": ("../..", "../../")})
    pf = PlanFile(plan=None, prior_state=None, prev_run_state=None,  # type: ignore[arg-type]
                  config=snap, lock_file=None, config_hash=snap.hash())
    config, diags = load_snapshot(pf)
    assert not diags.has_errors, [(d.summary, d.detail) for d in diags]
    assert config is not None
    assert "m" in config.children
    assert "n" in config.children["m"].module.outputs


AWS_LIKE = Schema(block=Block(
    attributes={"region": Attribute(type=STRING, optional=True)},
    block_types={"endpoints": NestedBlock(Block(
        attributes={"s3": Attribute(type=STRING, optional=True)}), Nesting.SET)},
))


def test_provider_config_renders_nested_blocks_and_constraint_text(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(
        'terraform {\n  required_providers {\n'
        '    aws = { source = "hashicorp/aws", version = ">= 3.0, < 4.0" }\n  }\n}\n'
        'provider "aws" {\n  region = "us-east-1"\n  endpoints {\n    s3 = "http://x"\n  }\n}\n')
    init_modules(tmp_path)
    config, diags = load_config(str(tmp_path))
    assert not diags.has_errors
    schemas = {parse_provider_source("hashicorp/aws"): GetProviderSchemaResponse(provider=AWS_LIKE)}
    doc = config_to_json(config, schemas)
    aws = doc["provider_config"]["aws"]
    assert aws["version_constraint"] == ">= 3.0, < 4.0"
    assert aws["expressions"] == {
        "region": {"constant_value": "us-east-1"},
        "endpoints": [{"s3": {"constant_value": "http://x"}}],
    }
