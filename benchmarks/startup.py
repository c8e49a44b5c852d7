"""Start-up and fixed costs: groundplan beside terraform on commands where they dominate.

Each case is a whole process, timed wall-clock, the median of `--repeat` runs per tool:

- `version`;
- `plan` of a configuration with one output and nothing else (no providers);
- the first `plan -out` of `terraform_data` with `count = 1000` (+ one seed, as
  benchmarks/plan_apply.py) from an empty state;
- the no-change `plan -detailed-exitcode` at 1,000 and 5,000 instances.

The no-change plans run on a state groundplan applied (untimed) and copied into one directory
per tool; terraform reads groundplan's state as its own (the state format is terraform's), so
terraform's long applies (22 s at 1,000, ~441 s at 5,000) are not needed. terraform's
no-change plan at 5,000 takes ~36 s a run, so it is measured only with
`--terraform-noop-sizes 1000,5000`; otherwise the reference number measured on the 2-core
machine is shown, marked `ref`.

The table gives groundplan/terraform ratios of the median wall times (lower is better), the
ratio of their CPU times beside them (steadier on a busy machine: a wall ratio measured
under load says more about the load than about either tool), and the goals of issue #7:
`version` <= 3x, tiny plan <= 6x, first plan at 1,000 <= 1.0x, no-change plan at 1,000
<= 0.3x and at 5,000 <= 0.1x. It only prints; nothing here is a test.

    .venv/bin/python benchmarks/startup.py                 # every case, 5 runs each
    .venv/bin/python benchmarks/startup.py --repeat 9 --cases version,tiny
    .venv/bin/python benchmarks/startup.py --no-terraform
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import plan_apply as pa

TINY = 'output "greeting" {\n  value = "hello"\n}\n'

# terraform 1.11.4's no-change plan at 5,000 on the 2-core benchmark machine (wall seconds;
# its CPU time was not recorded).
TERRAFORM_REFERENCE = {"noop-5000": 36.0}


@dataclass(frozen=True)
class Case:
    key: str
    title: str
    goal: float  # groundplan/terraform ratio to stay under


CASES = (
    Case("version", "version", 3.0),
    Case("tiny", "plan, one output", 6.0),
    Case("plan-1000", "first plan, 1,000 instances", 1.0),
    Case("noop-1000", "no-change plan, 1,000", 0.3),
    Case("noop-5000", "no-change plan, 5,000", 0.1),
)


@dataclass(frozen=True)
class Timing:
    """Median wall seconds and median CPU seconds (user + system, the process and the
    children it waited for) of the runs of one case."""

    wall: float
    cpu: float


def _run(argv: list[str], cwd: Path, expect: tuple[int, ...]) -> tuple[float, float]:
    log = cwd / "last-command.log"
    with open(log, "wb") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, env=pa._env(), stdout=out,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in expect:
        tail = log.read_text("utf-8", "replace")[-2000:]
        raise SystemExit(f"{' '.join(argv[-4:])} exited {code} in {cwd}:\n{tail}")
    return wall, usage.ru_utime + usage.ru_stime


def _median_seconds(argv: list[str], cwd: Path, repeat: int, expect: tuple[int, ...] = (0,),
                    fresh: Path | None = None) -> Timing:
    """The medians of `repeat` runs of `argv` in `cwd`; with `fresh`, `cwd` is recreated as
    a copy of `fresh` before each run (for commands that write files)."""
    walls, cpus = [], []
    for _ in range(repeat):
        if fresh is not None:
            shutil.rmtree(cwd, ignore_errors=True)
            shutil.copytree(fresh, cwd)
        wall, cpu = _run(argv, cwd, expect)
        walls.append(wall)
        cpus.append(cpu)
    return Timing(statistics.median(walls), statistics.median(cpus))


def _dir(parent: Path, name: str, config: str) -> Path:
    d = parent / name
    d.mkdir(parents=True)
    (d / "main.tf").write_text(config, encoding="utf-8")
    return d


def _applied(work: Path, size: int) -> Path:
    """A directory with `size` instances applied by groundplan (the no-change plans' input)."""
    d = _dir(work, f"applied-{size}", pa.CONFIG.format(count=size))
    gp = pa._command("groundplan")
    pa.run_measured([*gp, "apply", "-input=false", "-no-color", "-auto-approve"], d)
    return d


def measure(case: str, tool: str, work: Path, repeat: int) -> Timing:
    """The timing of `case` for `tool` ("groundplan" or "terraform")."""
    cmd = pa._command(tool)
    base = work / tool
    base.mkdir(exist_ok=True)
    if case == "version":
        return _median_seconds([*cmd, "version"], _dir(base, "version", ""), repeat)
    if case == "tiny":
        d = _dir(base, "tiny", TINY)
        return _median_seconds([*cmd, "plan", "-input=false", "-no-color"], d, repeat,
                               expect=(0,))
    if case == "plan-1000":
        src = _dir(base, "plan-1000-src", pa.CONFIG.format(count=1000))
        return _median_seconds([*cmd, "plan", "-input=false", "-no-color", "-out=tfplan"],
                               base / "plan-1000", repeat, fresh=src)
    size = int(case.split("-")[1])
    applied = work / f"applied-{size}"
    if not applied.exists():
        _applied(work, size)
    d = base / f"noop-{size}"
    shutil.copytree(applied, d)
    return _median_seconds([*cmd, "plan", "-input=false", "-no-color", "-detailed-exitcode"],
                           d, repeat)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs per case and tool (median)")
    ap.add_argument("--cases", default=",".join(c.key for c in CASES),
                    help="comma-separated: " + ", ".join(c.key for c in CASES))
    ap.add_argument("--no-terraform", action="store_true", help="run groundplan only")
    ap.add_argument("--terraform-noop-sizes", default="1000",
                    help="sizes at which terraform's no-change plan is measured (else ref)")
    ap.add_argument("--keep", action="store_true", help="keep the working directory")
    args = ap.parse_args()
    wanted = set(args.cases.split(","))
    tf_noop = {int(s) for s in args.terraform_noop_sizes.split(",") if s}
    if not args.no_terraform and shutil.which("terraform") is None:
        raise SystemExit("terraform is not on PATH (use --no-terraform)")

    work = Path(tempfile.mkdtemp(prefix="gp-bench-startup-"))
    pa._PYCACHE = work / "pycache"  # bytecode kept as an installed groundplan has it
    pa.run_measured([*pa._command("groundplan"), "version"], work)  # warm the bytecode
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} CPUs, load average {load[0]:.1f}, {load[1]:.1f}, "
          f"{load[2]:.1f}; python {sys.version.split()[0]}; median of {args.repeat}; "
          f"work in {work}")
    rows: list[tuple[Case, Timing, Timing | None, bool]] = []
    for case in CASES:
        if case.key not in wanted:
            continue
        gp = measure(case.key, "groundplan", work, args.repeat)
        tf: Timing | None = None
        ref = False
        if not args.no_terraform:
            size = int(case.key.split("-")[1]) if case.key.startswith("noop-") else 0
            if size and size not in tf_noop:
                wall = TERRAFORM_REFERENCE.get(case.key)
                tf, ref = (Timing(wall, 0.0) if wall else None), True
            else:
                tf = measure(case.key, "terraform", work, args.repeat)
        rows.append((case, gp, tf, ref))
        print(f"  {case.title}: groundplan {gp.wall:.3f} s (cpu {gp.cpu:.3f} s)"
              + (f", terraform {tf.wall:.3f} s{' ref' if ref else f' (cpu {tf.cpu:.3f} s)'}"
                 if tf is not None else ""), flush=True)

    print("\nstart-up and fixed costs, median wall (and CPU) time; gp/tf lower is better")
    print(f"{'case':30} {'groundplan':>10} {'terraform':>11} {'gp/tf':>7} {'cpu gp/tf':>10}  goal")
    print("-" * 86)
    for case, gp, tf, ref in rows:
        tf_text = "-" if tf is None else f"{tf.wall:.3f} s" + (" ref" if ref else "")
        ratio_text, cpu_text, verdict = "-", "-", ""
        if tf is not None and tf.wall:
            ratio = gp.wall / tf.wall
            ratio_text = f"{ratio:.2f}x"
            verdict = "ok" if ratio <= case.goal else "MISSED"
            if tf.cpu:
                cpu_text = f"{gp.cpu / tf.cpu:.2f}x"
        print(f"{case.title:30} {gp.wall:8.3f} s {tf_text:>11} {ratio_text:>7} {cpu_text:>10}"
              f"  <= {case.goal:g}x {verdict}")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
