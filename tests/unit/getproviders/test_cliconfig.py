"""CLI configuration: provider_installation methods, patterns and implied mirrors."""

from __future__ import annotations

from pathlib import Path

from engine.addrs import Provider
from engine.cliconfig import implied_local_mirror_dirs, load_cli_config, parse_cli_config

AWS = Provider("registry.terraform.io", "hashicorp", "aws")
OTHER = Provider("example.com", "acme", "thing")


def test_provider_installation_methods() -> None:
    text = """
plugin_cache_dir = "/tmp/cache"
provider_installation {
  filesystem_mirror {
    path    = "/srv/mirror"
    include = ["hashicorp/*"]
  }
  direct {
    exclude = ["registry.terraform.io/hashicorp/*"]
  }
}
"""
    cfg, diags = parse_cli_config(text, "test.tfrc")
    assert not diags.has_errors, list(diags)
    assert cfg.provider_installation is not None
    mirror, direct = cfg.provider_installation
    assert (mirror.kind, mirror.location) == ("filesystem_mirror", "/srv/mirror")
    assert mirror.selects(AWS) and not mirror.selects(OTHER)
    assert direct.kind == "direct" and not direct.selects(AWS) and direct.selects(OTHER)


def test_bad_pattern_and_missing_path() -> None:
    _, diags = parse_cli_config('provider_installation {\n  direct {\n    include = ["a/b/c/d"]\n  }\n}\n', "x")
    assert diags.has_errors
    _, diags = parse_cli_config("provider_installation {\n  filesystem_mirror {\n  }\n}\n", "x")
    assert "Missing required argument" in [d.summary for d in diags]


def test_load_from_environment(tmp_path: Path) -> None:
    rc = tmp_path / "cli.tfrc"
    rc.write_text('provider_installation {\n  filesystem_mirror {\n    path = "/m"\n  }\n}\n')
    cfg, diags = load_cli_config({"TF_CLI_CONFIG_FILE": str(rc), "HOME": str(tmp_path)})
    assert not diags and cfg.provider_installation is not None
    cfg, _ = load_cli_config({"HOME": str(tmp_path)})
    assert cfg.provider_installation is None
    dirs = implied_local_mirror_dirs({"HOME": "/home/u"}, "/work")
    assert dirs[:3] == ["/work/terraform.d/plugins", "/home/u/.terraform.d/plugins", "/home/u/.local/share/terraform/plugins"]
