"""Registry and remote modules, side by side with terraform: `init`, then `validate` and `plan`.

A module registry on 127.0.0.1 over HTTPS (`tests.registry_server`, its CA given to both tools
with SSL_CERT_FILE) serves module versions and archives built here; git repositories made with
`git init` serve `git::file://` sources. Each case runs the same configuration through
`terraform init` and `groundplan init` in two directories and compares the output (terraform's
through the product-name substitution), the exit codes, modules.json and the installed files
(a git checkout's `.git` aside), then `validate` and `plan -no-color` where init succeeded.
"""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conformance.harness import ROOT, require_terraform
from tests.product_name import as_groundplan
from tests.registry_server import ModuleRegistry, tar_gz

pytestmark = pytest.mark.conformance

NET = {
    "main.tf": 'variable "x" {\n  default = "a"\n}\n\noutput "y" {\n  value = var.x\n}\n\n'
               'module "inner" {\n  source = "./modules/inner"\n}\n\noutput "z" {\n  value = module.inner.z\n}\n',
    "modules/inner/main.tf": 'output "z" {\n  value = 2\n}\n',
}


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleRegistry]:
    with ModuleRegistry(tmp_path_factory.mktemp("registry")) as reg:
        for v in ("1.0.0", "1.2.0", "2.0.0", "2.1.0-beta1"):
            reg.add_version("acme/net/aws", v, {**NET, "VERSION": v})
        reg.files["escape.tar.gz"] = _escaping_archive()
        reg.versions["acme/evil/aws"] = ["1.0.0"]
        reg.locations[("acme/evil/aws", "1.0.0")] = "/archives/escape.tar.gz"
        reg.add_file("plain.tar.gz", tar_gz(NET))
        reg.broken.add("acme/broken/aws")
        reg.add_version("acme/esc/aws", "1.0.0", {"main.tf": 'module "up" {\n  source = "../../x"\n}\n'})
        packed = io.BytesIO()
        with zipfile.ZipFile(packed, "w") as zf:
            zf.writestr("main.tf", 'output "y" {\n  value = "zip"\n}\n')
        reg.add_file("m.zip", packed.getvalue())
        reg.add_file("page", b'<html><head><meta name="terraform-get" content="/archives/m.zip"></head></html>')
        reg.add_file("fullpage", f'<meta name="terraform-get" content="https://{reg.host}/archives/m.zip">'.encode())
        yield reg


def _escaping_archive() -> bytes:
    return tar_gz({"main.tf": 'output "y" {\n  value = 1\n}\n', "../evil.tf": "# outside\n"})


def _env(reg: ModuleRegistry, cli_config: Path | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.update(SSL_CERT_FILE=str(reg.ca_pem), TF_IN_AUTOMATION="1", CHECKPOINT_DISABLE="1",
               TF_CLI_CONFIG_FILE=str(cli_config) if cli_config else os.devnull, PYTHONPATH=str(ROOT))
    env.pop("TF_LOG", None)
    return env


def _run(tool: str, cwd: Path, env: dict[str, str], *args: str) -> tuple[int, str, str]:
    cmd = [require_terraform()] if tool == "terraform" else [sys.executable, "-m", "engine.cli.main"]
    proc = subprocess.run([*cmd, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=180)
    if tool == "terraform":
        return proc.returncode, as_groundplan(proc.stdout), as_groundplan(proc.stderr)
    return proc.returncode, proc.stdout, proc.stderr


def _tree(root: Path) -> dict[str, str]:
    """Relative path -> content of the installed module files (links followed, `.git` out)."""
    out: dict[str, str] = {}
    base = root / ".terraform" / "modules"
    for dirpath, dirnames, filenames in os.walk(base, followlinks=True):
        dirnames[:] = sorted(d for d in dirnames if d != ".git")
        for f in filenames:
            p = Path(dirpath) / f
            out[str(p.relative_to(root))] = p.read_text(errors="replace")
    return out


class Pair:
    """One configuration in a terraform directory and a groundplan directory."""

    def __init__(self, tmp: Path, files: dict[str, str], env: dict[str, str]) -> None:
        self.dirs = {"terraform": tmp / "tf", "groundplan": tmp / "gp"}
        self.env = env
        for d in self.dirs.values():
            d.mkdir()
            for name, text in files.items():
                (d / name).write_text(text)

    def run(self, *args: str) -> dict[str, tuple[int, str, str]]:
        return {tool: _run(tool, d, self.env, *args) for tool, d in self.dirs.items()}

    def same(self, *args: str) -> tuple[int, str, str]:
        got = self.run(*args)
        assert got["groundplan"] == got["terraform"], args
        return got["terraform"]

    def manifest(self, tool: str) -> str:
        p = self.dirs[tool] / ".terraform" / "modules" / "modules.json"
        return p.read_text() if p.exists() else ""

    def same_install(self) -> None:
        assert self.manifest("groundplan") == self.manifest("terraform")
        assert _tree(self.dirs["groundplan"]) == _tree(self.dirs["terraform"])


def test_registry_constraint_exact_nested_subdir(registry: ModuleRegistry, tmp_path: Path) -> None:
    cfg = f'''module "a" {{
  source  = "{registry.host}/acme/net/aws"
  version = "~> 1.0"
}}

module "b" {{
  source  = "{registry.host}/acme/net/aws//modules/inner"
  version = "2.0.0"
}}

module "pre" {{
  source  = "{registry.host}/acme/net/aws"
  version = "2.1.0-beta1"
}}

module "newest" {{
  source = "{registry.host}/acme/net/aws"
}}

output "all" {{
  value = [module.a.y, module.a.z, module.b.z, module.pre.y, module.newest.y]
}}
'''
    pair = Pair(tmp_path, {"main.tf": cfg}, _env(registry))
    code, out, _ = pair.same("init", "-no-color")
    assert code == 0, out
    assert f"Downloading {registry.host}/acme/net/aws 1.2.0 for a..." in out
    assert f"Downloading {registry.host}/acme/net/aws 2.0.0 for newest..." in out
    pair.same_install()
    assert '"Version":"2.1.0-beta1"' in pair.manifest("groundplan")
    assert pair.same("validate", "-no-color")[0] == 0
    code, out, _ = pair.same("plan", "-no-color")
    assert code == 0 and "all = [" in out
    # `modules` lists each with its version (and a constraint other than that version);
    # terraform orders nested siblings and JSON records at random: compared sorted
    listed = pair.run("modules")
    assert {t: sorted(r[1].split("\n")) for t, r in listed.items()} == \
        {t: sorted(listed["terraform"][1].split("\n")) for t in listed}
    assert f'"a"[{registry.host}/acme/net/aws] 1.2.0 (~> 1.0)' in listed["groundplan"][1]
    as_json = pair.run("modules", "-json")
    records = {t: sorted(json.loads(r[1])["modules"], key=lambda m: (m["key"], m["source"]))
               for t, r in as_json.items()}
    assert records["groundplan"] == records["terraform"]


@pytest.mark.parametrize("module,version", [("acme/net/aws", "~> 5.0"), ("acme/missing/aws", ">= 0"),
                                            ("acme/evil/aws", "1.0.0")])
def test_registry_errors(registry: ModuleRegistry, tmp_path: Path, module: str, version: str) -> None:
    cfg = f'module "a" {{\n  source  = "{registry.host}/{module}"\n  version = "{version}"\n}}\n'
    pair = Pair(tmp_path, {"main.tf": cfg}, _env(registry))
    code, _, err = pair.same("init", "-no-color")
    assert code == 1 and "Error: " in err
    pair.same_install()
    assert not (pair.dirs["groundplan"] / ".terraform" / "modules" / "evil.tf").exists()


def test_http_archive_and_unsupported(registry: ModuleRegistry, tmp_path: Path) -> None:
    cfg = (f'module "h" {{\n  source = "https://{registry.host}/archives/plain.tar.gz//modules/inner"\n}}\n\n'
           f'module "x" {{\n  source = "foo::https://{registry.host}/archives/plain.tar.gz"\n}}\n')
    pair = Pair(tmp_path, {"main.tf": cfg}, _env(registry))
    code, _, err = pair.same("init", "-no-color")
    assert code == 1 and "Failed to download module" in err
    pair.same_install()
    (pair.dirs["terraform"] / "main.tf").write_text(cfg.split("\n\n")[0] + "\n")
    (pair.dirs["groundplan"] / "main.tf").write_text(cfg.split("\n\n")[0] + "\n")
    assert pair.same("init", "-no-color")[0] == 0
    pair.same_install()
    assert pair.same("plan", "-no-color")[0] == 0


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


MORE = {
    "unreachable": "127.0.0.1:{dead}/acme/net/aws",
    "registry_500": "{host}/acme/broken/aws",
    "escape_from_package": "{host}/acme/esc/aws",
    "zip": "https://{host}/archives/m.zip",
    "meta_relative": "https://{host}/archives/page",
    "meta_full": "https://{host}/archives/fullpage",
    "http_404": "https://{host}/archives/nope.tar.gz",
    "git_missing": "git::file:///nonexistent/repo?ref=v1",
    "no_dot_slash": "foo/bar",
}


@pytest.mark.parametrize("case", sorted(MORE))
def test_more_sources(registry: ModuleRegistry, tmp_path: Path, case: str) -> None:
    source = MORE[case].format(host=registry.host, dead=_closed_port())
    cfg = f'module "a" {{\n  source = "{source}"\n}}\n'
    pair = Pair(tmp_path, {"main.tf": cfg}, _env(registry))
    code, _, _ = pair.same("init", "-no-color")
    assert code == (0 if case in ("zip", "meta_full") else 1)
    pair.same_install()
    if code == 0:
        assert pair.same("plan", "-no-color")[0] == 0
    # a second init reuses what the first installed, and fails (or not) the same way
    pair.same("init", "-no-color")
    pair.same_install()


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args], cwd=repo,
                   check=True, capture_output=True)


def test_git_ref_depth_subdir_and_local_archive(registry: ModuleRegistry, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "sub").mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    (repo / "main.tf").write_text('output "v" {\n  value = "one"\n}\n')
    (repo / "sub" / "main.tf").write_text('output "s" {\n  value = "sub one"\n}\n')
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "one")
    _git(repo, "tag", "v1.0")
    (repo / "main.tf").write_text('output "v" {\n  value = "two"\n}\n')
    _git(repo, "commit", "-qam", "two")
    packed = tmp_path / "packed.tar.gz"
    packed.write_bytes(tar_gz(NET))
    cfg = (f'module "g" {{\n  source = "git::file://{repo}?ref=v1.0"\n}}\n\n'
           f'module "s" {{\n  source = "git::file://{repo}//sub?ref=v1.0"\n}}\n\n'
           f'module "head" {{\n  source = "git::file://{repo}"\n}}\n\n'
           f'module "shallow" {{\n  source = "git::file://{repo}?ref=v1.0&depth=1"\n}}\n\n'
           f'module "packed" {{\n  source = "{packed}"\n}}\n\n'
           'output "o" {\n  value = [module.g.v, module.s.s, module.head.v, module.shallow.v, module.packed.y]\n}\n')
    work = tmp_path / "work"
    work.mkdir()
    pair = Pair(work, {"main.tf": cfg}, _env(registry))
    assert pair.same("init", "-no-color")[0] == 0
    pair.same_install()
    code, out, _ = pair.same("plan", "-no-color")
    assert code == 0 and '"one"' in out and '"two"' in out


def test_reinit_reuses_and_upgrade(registry: ModuleRegistry, tmp_path: Path) -> None:
    registry.add_version("acme/up/aws", "1.0.0", {**NET, "VERSION": "1.0.0"})
    cfg = f'module "u" {{\n  source  = "{registry.host}/acme/up/aws"\n  version = "~> 1.0"\n}}\n'
    cfg += 'module "l" {\n  source = "./local"\n}\n'
    pair = Pair(tmp_path, {"main.tf": cfg}, _env(registry))
    for d in pair.dirs.values():
        (d / "local").mkdir()
        (d / "local" / "main.tf").write_text('output "l" {\n  value = 1\n}\n')
    assert pair.same("init", "-no-color")[0] == 0
    registry.add_version("acme/up/aws", "1.1.0", {**NET, "VERSION": "1.1.0"})
    code, out, _ = pair.same("init", "-no-color")
    assert code == 0 and "Downloading" not in out and "- l in" not in out
    pair.same_install()
    assert '"Version":"1.0.0"' in pair.manifest("groundplan")
    code, out, _ = pair.same("init", "-upgrade", "-no-color")
    assert code == 0 and "1.1.0 for u..." in out
    pair.same_install()
    assert '"Version":"1.1.0"' in pair.manifest("groundplan")
    # a constraint the installed version no longer meets: that module is installed again
    for d in pair.dirs.values():
        (d / "main.tf").write_text(cfg.replace('"~> 1.0"', '"1.0.0"'))
    code, out, _ = pair.same("init", "-no-color")
    assert code == 0 and "1.0.0 for u..." in out and "- l in" not in out
    pair.same_install()


def test_credentials_from_cli_config(registry: ModuleRegistry, tmp_path: Path) -> None:
    rc = tmp_path / "cli.tfrc"
    rc.write_text(f'credentials "{registry.host}" {{\n  token = "s3cret-token"\n}}\n')
    cfg = f'module "a" {{\n  source  = "{registry.host}/acme/net/aws"\n  version = "1.0.0"\n}}\n'
    pair = Pair(tmp_path, {"main.tf": cfg}, _env(registry, rc))
    seen = {}
    for tool, d in pair.dirs.items():
        registry.requests.clear()
        code, _, err = _run(tool, d, pair.env, "init", "-no-color")
        assert code == 0, err
        seen[tool] = sorted(set(registry.requests))
    assert seen["groundplan"] == seen["terraform"]
    assert ("/v1/modules/acme/net/aws/versions", "Bearer s3cret-token") in seen["groundplan"]


def test_archive_refuses_links_out(tmp_path: Path) -> None:
    from engine.initwd.archive import ArchiveError, extract

    link = tarfile.TarInfo("main.tf")
    link.type = tarfile.SYMTYPE
    link.linkname = "../../etc/passwd"
    path = tmp_path / "a.tar.gz"
    path.write_bytes(tar_gz({}, [link]))
    with pytest.raises(ArchiveError, match="points outside"):
        extract(str(path), "tar.gz", str(tmp_path / "out"))
    path.write_bytes(tar_gz({"/abs.tf": "x"}))
    with pytest.raises(ArchiveError, match="absolute"):
        extract(str(path), "tar.gz", str(tmp_path / "out2"))
