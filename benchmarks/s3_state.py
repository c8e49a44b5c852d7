"""State on S3: plan and apply of N `terraform_data` instances on S3 (moto) beside local state,
and beside terraform on the same bucket.

One `terraform_data.seed` and `terraform_data.item` with `count = N` (N + 1 instances). For
each of groundplan/local, groundplan/s3 and terraform/s3 (and terraform/local with
`--terraform-local`) a fresh directory runs `init`, `plan -out=tfplan`, `apply tfplan` and a
no-change `plan -detailed-exitcode`; each step's wall time is printed with the ratios
s3/local (what the remote state costs) and terraform/groundplan on S3. The S3 side is a moto
server on 127.0.0.1 (tests/functional/moto_serial.py) with the lock object on
(`use_lockfile`), each tool with its own key in one bucket.

    .venv/bin/python benchmarks/s3_state.py                 # N = 1,000
    .venv/bin/python benchmarks/s3_state.py --size 200 --no-terraform
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.functional.moto_serial import MotoServer  # noqa: E402
from tests.functional.s3_support import BUCKET, REGION, backend_block  # noqa: E402

CONFIG = """\
resource "terraform_data" "seed" {{
  input = "seed"
}}

resource "terraform_data" "item" {{
  count = {n}
  input = "${{terraform_data.seed.id}}-${{count.index}}"
}}
"""
STEPS = [("init", ["init", "-input=false"], 0), ("plan", ["plan", "-out=tfplan", "-input=false"], 0),
         ("apply", ["apply", "-input=false", "tfplan"], 0),
         ("re-plan", ["plan", "-detailed-exitcode", "-input=false"], 0)]


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "AWS_"))}
    env.update(TF_CLI_CONFIG_FILE=os.devnull, TF_IN_AUTOMATION="1", CHECKPOINT_DISABLE="1",
               PYTHONPATH=str(ROOT), AWS_ACCESS_KEY_ID="bench", AWS_SECRET_ACCESS_KEY="bench",
               AWS_DEFAULT_REGION=REGION)
    return env


def _command(tool: str) -> list[str]:
    if tool == "terraform":
        path = shutil.which("terraform")
        if path is None:
            raise SystemExit("terraform is not on PATH (use --no-terraform)")
        return [path]
    return [sys.executable, "-m", "engine.cli.main"]


def run_case(tool: str, backend: str, n: int, url: str, work: Path) -> dict[str, float]:
    d = work / f"{tool}-{backend}"
    d.mkdir()
    (d / "main.tf").write_text(CONFIG.format(n=n))
    if backend == "s3":
        (d / "backend.tf").write_text(backend_block(url, key=f"bench/{tool}.tfstate"))
    times: dict[str, float] = {}
    for name, args, expected in STEPS:
        start = time.perf_counter()
        proc = subprocess.run([*_command(tool), *args], cwd=d, env=_env(), capture_output=True,
                              text=True, check=False)
        times[name] = time.perf_counter() - start
        if proc.returncode != expected:
            raise SystemExit(f"{tool}/{backend} {name} exited {proc.returncode}:\n"
                             f"{proc.stdout}{proc.stderr}")
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=1000)
    ap.add_argument("--no-terraform", action="store_true")
    ap.add_argument("--terraform-local", action="store_true")
    opts = ap.parse_args()
    cases = [("groundplan", "local"), ("groundplan", "s3")]
    if not opts.no_terraform:
        cases.append(("terraform", "s3"))
        if opts.terraform_local:
            cases.append(("terraform", "local"))
    results: dict[tuple[str, str], dict[str, float]] = {}
    with MotoServer() as url, tempfile.TemporaryDirectory(prefix="gp-bench-s3-") as tmp:
        import boto3

        boto3.client("s3", endpoint_url=url, region_name=REGION, aws_access_key_id="bench",
                     aws_secret_access_key="bench").create_bucket(Bucket=BUCKET)
        for tool, backend in cases:
            results[(tool, backend)] = run_case(tool, backend, opts.size, url, Path(tmp))
            print(f"{tool:>10}/{backend:<5} " + "  ".join(
                f"{k} {v:6.2f}s" for k, v in results[(tool, backend)].items()), flush=True)
    print(f"\n{opts.size + 1} instances, wall seconds per step")
    header = f"{'step':<8}" + "".join(f"{t + '/' + b:>18}" for t, b in cases)
    header += f"{'gp s3/local':>13}" + ("" if opts.no_terraform else f"{'tf/gp on s3':>13}")
    print(header)
    for name, _, _ in STEPS:
        row = f"{name:<8}" + "".join(f"{results[c][name]:>18.2f}" for c in cases)
        row += f"{results[('groundplan', 's3')][name] / results[('groundplan', 'local')][name]:>13.2f}"
        if not opts.no_terraform:
            row += f"{results[('terraform', 's3')][name] / results[('groundplan', 's3')][name]:>13.2f}"
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
