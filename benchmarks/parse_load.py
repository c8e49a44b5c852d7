"""Parse-and-load speed: groundplan beside `terraform validate` on the same generated files.

Prints, for 1,000 and 5,000 resource blocks, groundplan's time to parse and load the
configuration in process (best of 3), groundplan's `validate` command end to end, and
`terraform validate`, with ratios. Goal: 1,000 blocks under 0.5 s, 5,000 under 2.5 s.
"""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.generate import write_blocks_config  # noqa: E402


def _time_load(directory: Path) -> float:
    from engine.configs import load_config

    best = float("inf")
    for _ in range(3):
        gc.collect()
        start = time.perf_counter()
        _config, diags = load_config(str(directory))
        elapsed = time.perf_counter() - start
        if diags.has_errors:
            raise SystemExit(f"load failed: {[d.summary for d in diags.errors][:3]}")
        best = min(best, elapsed)
    return best


def _time_command(argv: list[str], cwd: Path) -> float | None:
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "CHECKPOINT_DISABLE": "1"}
    start = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        print(f"  ! {' '.join(argv[:3])} failed: {(proc.stdout + proc.stderr).strip()[:300]}")
        return None
    return elapsed


def main() -> int:
    terraform = shutil.which("terraform")
    print("parse + load, groundplan vs terraform validate (seconds; lower is better)")
    print(f"{'blocks':>7} {'gp load':>9} {'gp validate':>12} {'tf validate':>12} {'tf/gp':>7}")
    for count in (1000, 5000):
        with tempfile.TemporaryDirectory(prefix="gp-bench-") as tmp:
            work = Path(tmp)
            write_blocks_config(work, count)
            load = _time_load(work)
            gp_cmd = [sys.executable, "-m", "engine.cli.main", "validate"]
            gp = _time_command(gp_cmd, work)
            tf = _time_command([terraform, "validate"], work) if terraform else None
            ratio = f"{tf / gp:.2f}" if tf and gp else "n/a"
            gp_s = f"{gp:.3f}" if gp is not None else "failed"
            tf_s = f"{tf:.3f}" if tf is not None else "missing"
            print(f"{count:>7} {load:>9.3f} {gp_s:>12} {tf_s:>12} {ratio:>7}")
    if terraform is None:
        print("terraform is not on PATH: no side-by-side numbers")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
