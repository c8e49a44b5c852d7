"""`test` speed: groundplan beside terraform on one test file with 50 runs over 200 resources.

The module is `terraform_data.item` with `count = 200` whose inputs depend on a variable; the
test file has 50 runs: every fifth one applies (with a new value of the variable, so all 200
objects are replaced), the others plan, and each asserts over the values. Both tools run
`test` in their own copy of the module; the wall time of each and the terraform/groundplan
ratio are printed (the destroy at the end is part of the run).

Measured on the shared 2-core machine (load average ~20, so both numbers are inflated):
groundplan 49.1 s, terraform 297.4 s for 50 runs over 200 resources: 6.06x.

    .venv/bin/python benchmarks/test_command.py
    .venv/bin/python benchmarks/test_command.py --runs 20 --count 100 --no-terraform
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

MODULE = """\
variable "label" {{
  type    = string
  default = "v0"
}}

resource "terraform_data" "item" {{
  count = {count}
  input = "${{var.label}}-${{count.index}}"
}}

output "first" {{
  value = terraform_data.item[0].input
}}

output "count" {{
  value = length(terraform_data.item)
}}
"""

RUN = """\
run "r{i}" {{
  command = {command}
  variables {{
    label = "v{label}"
  }}
  assert {{
    condition     = output.count == {count}
    error_message = "count"
  }}
  assert {{
    condition     = terraform_data.item[0].input == "v{label}-0"
    error_message = "input"
  }}
}}
"""


def write_module(d: Path, runs: int, count: int) -> None:
    (d / "tests").mkdir(parents=True)
    (d / "main.tf").write_text(MODULE.format(count=count))
    blocks = []
    for i in range(runs):
        command = "apply" if i % 5 == 0 else "plan"
        blocks.append(RUN.format(i=i, command=command, label=i - i % 5, count=count))
    (d / "tests" / "bench.tftest.hcl").write_text("\n".join(blocks))


def timed(argv: list[str], cwd: Path) -> tuple[float, int, str]:
    env = dict(os.environ, TF_IN_AUTOMATION="1", CHECKPOINT_DISABLE="1",
               PYTHONPATH=str(ROOT), TF_CLI_CONFIG_FILE=os.devnull)
    start = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    return time.perf_counter() - start, proc.returncode, proc.stdout.strip().splitlines()[-1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--no-terraform", action="store_true")
    args = ap.parse_args(argv)
    base = Path(tempfile.mkdtemp(prefix="bench-test-"))
    try:
        results: dict[str, float] = {}
        tools = [("groundplan", [sys.executable, "-m", "engine.cli.main"])]
        if not args.no_terraform:
            tf = shutil.which("terraform")
            if tf is None:
                print("terraform is not on PATH (use --no-terraform)", file=sys.stderr)
                return 1
            tools.append(("terraform", [tf]))
        for name, cmd in tools:
            d = base / name
            write_module(d, args.runs, args.count)
            secs, code, last = timed([*cmd, "test", "-no-color"], d)
            if code != 0:
                print(f"{name} test failed (exit {code}): {last}", file=sys.stderr)
                return 1
            results[name] = secs
            print(f"{name:<11} {secs:8.2f} s   {last}")
        if "terraform" in results:
            ratio = results["terraform"] / results["groundplan"]
            print(f"terraform/groundplan: {ratio:.2f}x "
                  f"({args.runs} runs over {args.count} resources)")
        return 0
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
