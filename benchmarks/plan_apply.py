"""Plan and apply speed: groundplan beside terraform on the same `terraform_data` configuration.

For each size N the configuration is one `terraform_data.seed` and `terraform_data.item` with
`count = N` whose input depends on the seed (`"${terraform_data.seed.id}-${count.index}"`),
so N + 1 instances. Each tool runs, in its own empty directory:

1. `plan -out=tfplan` from an empty state,
2. `apply tfplan` (the saved plan),
3. `plan -detailed-exitcode` again (must report no changes: exit 0),

and each step's wall time and peak RSS (the `ru_maxrss` `os.wait4` reports for that process
and its waited-for children) are printed, with terraform/groundplan ratios and the goals at
5,000 beside the numbers. Per-instance times show whether groundplan grows linearly.

terraform is run at 1,000 only unless `--terraform-sizes` says otherwise: its apply of 5,000
instances takes about 441 s on the 2-core machine, so the table shows the reference numbers
measured there (marked `ref`) instead. `--no-terraform` skips it altogether.

    .venv/bin/python benchmarks/plan_apply.py                      # 1,000 and 5,000
    .venv/bin/python benchmarks/plan_apply.py --sizes 1000,5000,10000 --no-terraform
    .venv/bin/python benchmarks/plan_apply.py --sizes 5000 --no-terraform --profile 5000

`--profile N` also runs groundplan's plan and apply at size N with `-parallelism=1` under
cProfile (in every thread but the UI's tickers; time in fsync/fdatasync and waits on queues
and locks reported apart) and prints the functions with the most own time (`--keep`
keeps the .prof files).
"""

from __future__ import annotations

import argparse
import itertools
import os
import pstats
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CONFIG = """\
resource "terraform_data" "seed" {{
  input = "seed"
}}

resource "terraform_data" "item" {{
  count = {count}
  input = "${{terraform_data.seed.id}}-${{count.index}}"
}}
"""

STEPS = ("plan", "apply", "noop")
STEP_TITLES = {"plan": "plan", "apply": "apply plan", "noop": "no-change plan"}

# terraform 1.11.4 at 5,000 on the 2-core benchmark machine (seconds; peak RSS in MB).
TERRAFORM_REFERENCE = {5000: {"plan": 5.8, "apply": 441.0, "noop": 36.0, "rss": 560.0}}

# groundplan's goals at 5,000 instances.
GOALS = {"plan": 2.0, "apply": 10.0, "noop": 3.0, "rss": 400.0}
GOAL_SIZE = 5000


@dataclass
class Step:
    seconds: float
    rss_mb: float


@dataclass
class Result:
    steps: dict[str, Step]
    reference: bool = False  # numbers quoted, not measured


# Where groundplan's bytecode goes (set by main). An installed groundplan has its .pyc files;
# without them every command would compile ~190 modules first (PYTHONDONTWRITEBYTECODE=1 is
# set in some development shells), so the benchmark keeps bytecode in its own directory and
# warms it up before measuring.
_PYCACHE: Path | None = None


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_VAR_", "TF_CLI_ARGS"))}
    env.update(TF_CLI_CONFIG_FILE=os.devnull, CHECKPOINT_DISABLE="1", PYTHONPATH=str(ROOT))
    env.pop("TF_LOG", None)
    if _PYCACHE is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(_PYCACHE)
    return env


def _command(tool: str) -> list[str]:
    if tool == "terraform":
        path = shutil.which("terraform")
        if path is None:
            raise SystemExit("terraform is not on PATH (use --no-terraform)")
        return [path]
    return [sys.executable, "-m", "engine.cli.main"]


def run_measured(argv: list[str], cwd: Path, expect: tuple[int, ...] = (0,)) -> Step:
    """Run `argv` in `cwd`: wall seconds and peak RSS (MB) of the process (output to a file)."""
    log = cwd / "last-command.log"
    with open(log, "wb") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, env=_env(), stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL)
        _pid, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in expect:
        tail = log.read_text("utf-8", "replace")[-2000:]
        raise SystemExit(f"{' '.join(argv[-4:])} exited {proc.returncode} in {cwd}:\n{tail}")
    return Step(elapsed, usage.ru_maxrss / 1024.0)  # ru_maxrss is in KiB on Linux


def measure(tool: str, size: int, workdir: Path, repeat: int = 1) -> Result:
    """Plan, apply the saved plan, plan again, in a fresh directory under `workdir`; with
    `repeat` > 1 the best time of each step and the highest RSS."""
    workdir.mkdir(exist_ok=True)
    runs = [_measure_once(tool, size, workdir / f"{tool}-{size}-{i}") for i in range(repeat)]
    return Result({
        step: Step(min(r.steps[step].seconds for r in runs),
                   max(r.steps[step].rss_mb for r in runs))
        for step in STEPS
    })


def _measure_once(tool: str, size: int, cwd: Path) -> Result:
    cwd.mkdir()
    (cwd / "main.tf").write_text(CONFIG.format(count=size), encoding="utf-8")
    cmd = _command(tool)
    steps = {
        "plan": run_measured([*cmd, "plan", "-input=false", "-no-color", "-out=tfplan"], cwd),
        "apply": run_measured([*cmd, "apply", "-input=false", "-no-color", "tfplan"], cwd),
        "noop": run_measured(
            [*cmd, "plan", "-input=false", "-no-color", "-detailed-exitcode"], cwd
        ),
    }
    return Result(steps)


# Runs the CLI in-process with a cProfile in each thread, so work done by the graph walker's
# workers counts too, and merges the finished threads' profiles. The UI's "Still creating..."
# ticker threads only wait and are left out. Run with -parallelism=1 so that a thread's wall
# time is not inflated by waiting for the GIL.
_PROFILE_BOOTSTRAP = """
import cProfile, pstats, sys, threading
out, argv = sys.argv[1], sys.argv[2:]
done = []
mu = threading.Lock()
_run = threading.Thread.run
def run(self):
    if self.name == "ui-still-running":
        return _run(self)
    prof = cProfile.Profile()
    prof.enable()
    try:
        _run(self)
    finally:
        prof.disable()
        with mu:
            done.append(prof)
threading.Thread.run = run
main_prof = cProfile.Profile()
main_prof.enable()
code = 1
try:
    from engine.cli.main import main
    code = main(argv)
finally:
    main_prof.disable()
    with mu:
        stats = pstats.Stats(main_prof)
        for prof in done:
            stats.add(prof)
    stats.dump_stats(out)
sys.exit(code)
"""


_WAITS = frozenset({
    "<method 'get' of '_queue.SimpleQueue' objects>",
    "<method 'acquire' of '_thread.lock' objects>",
})
_SYNCS = frozenset({"<built-in method posix.fdatasync>", "<built-in method posix.fsync>"})


def profile(size: int, workdir: Path, top: int) -> list[Path]:
    """Run groundplan's plan and apply at `size` under cProfile (every thread, CPU time);
    print the functions with the most own time."""
    cwd = workdir / f"profile-{size}"
    cwd.mkdir()
    (cwd / "main.tf").write_text(CONFIG.format(count=size), encoding="utf-8")
    outputs = []
    one = "-parallelism=1"
    for name, args in (("plan", ["plan", one, "-input=false", "-no-color", "-out=tfplan"]),
                       ("apply", ["apply", one, "-input=false", "-no-color", "tfplan"])):
        prof = cwd / f"{name}.prof"
        step = run_measured([sys.executable, "-c", _PROFILE_BOOTSTRAP, str(prof), *args], cwd)
        stats = pstats.Stats(str(prof))
        rows = []
        waiting = syncing = 0.0
        for (filename, line, func), (_cc, nc, tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
            if func in _WAITS:
                waiting += tt
                continue
            if func in _SYNCS:
                syncing += tt
                continue
            rows.append((tt, ct, nc, _where(filename, line, func)))
        rows.sort(reverse=True)
        total = sum(r[0] for r in rows)
        print(f"\ncProfile, groundplan {name} -parallelism=1 at {size:,} ({step.seconds:.2f} s "
              f"wall under the profiler): {total:.2f} s busy in all threads; left out: "
              f"{syncing:.2f} s in fsync/fdatasync, {waiting:.2f} s waiting on queues and locks. "
              f"Top {top} by own time (share of busy):")
        print(f"{'own s':>7} {'share':>6} {'cum s':>7} {'calls':>9}  function")
        for tt, ct, nc, where in rows[:top]:
            print(f"{tt:>7.3f} {tt / total:>6.1%} {ct:>7.3f} {nc:>9}  {where}")
        outputs.append(prof)
    return outputs


def _where(filename: str, line: int, func: str) -> str:
    try:
        rel = Path(filename).resolve().relative_to(ROOT)
        return f"{rel}:{line}:{func}"
    except ValueError:
        if filename == "~":
            return func
        return f"{Path(filename).name}:{line}:{func}"


# ---------------------------------------------------------------------------- printing
def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    return f"{value:.0f} MB" if unit == "MB" else f"{value:.2f} s"


def print_table(sizes: list[int], gp: dict[int, Result], tf: dict[int, Result]) -> None:
    print("\nplan / apply / no-change plan, terraform_data with count = N (+1 seed); "
          "lower is better")
    head = f"{'N':>6}  {'step':<15} {'groundplan':>11} {'terraform':>14} {'tf/gp':>7}  goal@5000"
    print(head)
    print("-" * len(head))
    for size in sizes:
        g = gp[size]
        t = tf.get(size)
        for step in (*STEPS, "rss"):
            if step == "rss":
                gv = max(s.rss_mb for s in g.steps.values())
                tv = None
                if t is not None:
                    tv = (TERRAFORM_REFERENCE[size]["rss"] if t.reference
                          else max(s.rss_mb for s in t.steps.values()))
                unit, title = "MB", "peak RSS"
            else:
                gv = g.steps[step].seconds
                tv = None
                if t is not None:
                    tv = (TERRAFORM_REFERENCE[size][step] if t.reference
                          else t.steps[step].seconds)
                unit, title = "s", STEP_TITLES[step]
            ratio = f"{tv / gv:.1f}x" if tv and gv else "-"
            ref = " ref" if t is not None and t.reference else ""
            goal = ""
            if size == GOAL_SIZE:
                limit = GOALS[step]
                verdict = "ok" if gv <= limit else "MISSED"
                goal = f"<= {_fmt(limit, unit)} {verdict}"
            print(f"{size:>6}  {title:<15} {_fmt(gv, unit):>11} {_fmt(tv, unit) + ref:>14} "
                  f"{ratio:>7}  {goal}")


def print_growth(sizes: list[int], gp: dict[int, Result]) -> None:
    def row(label: str, ms: list[float], rss_kb: float) -> str:
        return f"{label:>11} " + " ".join(f"{v:>15.3f}" for v in ms) + f" {rss_kb:>9.1f} KB"

    def rss(size: int) -> float:
        return max(x.rss_mb for x in gp[size].steps.values())

    print("\ngroundplan per instance (ms per instance, peak RSS per instance); the marginal "
          "rows leave start-up out: flat = linear growth")
    print(f"{'N':>11} " + " ".join(f"{STEP_TITLES[s]:>15}" for s in STEPS) + f" {'peak RSS':>12}")
    for size in sizes:
        steps = gp[size].steps
        print(row(str(size), [1000 * steps[s].seconds / (size + 1) for s in STEPS],
                  1024 * rss(size) / (size + 1)))
    for prev, size in itertools.pairwise(sizes):
        extra = size - prev
        print(row(f"{prev}-{size}",
                  [1000 * (gp[size].steps[s].seconds - gp[prev].steps[s].seconds) / extra
                   for s in STEPS],
                  1024 * (rss(size) - rss(prev)) / extra))
    if len(sizes) > 1:
        lo, hi = sizes[0], sizes[-1]
        growth = " ".join(
            f"{STEP_TITLES[s]} x{(gp[hi].steps[s].seconds / gp[lo].steps[s].seconds):.2f}"
            for s in STEPS
        )
        print(f"time {lo:,} -> {hi:,} (x{hi / lo:.0f} instances): {growth}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,5000",
                    help="comma-separated counts (default 1000,5000)")
    ap.add_argument("--no-terraform", action="store_true", help="run groundplan only")
    ap.add_argument("--terraform-sizes", default="1000",
                    help="sizes at which terraform runs too (default 1000; its apply at "
                         "5,000 takes ~441 s); other sizes show reference numbers if known")
    ap.add_argument("--profile", type=int, default=0, metavar="N",
                    help="also profile groundplan's plan and apply at N with cProfile")
    ap.add_argument("--top", type=int, default=25, help="profile rows to print (default 25)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="groundplan runs per size; best time of each step (default 1)")
    ap.add_argument("--keep", action="store_true", help="keep the working directories")
    ap.add_argument("--no-bytecode", action="store_true",
                    help="leave PYTHONDONTWRITEBYTECODE as it is (no warm bytecode cache)")
    args = ap.parse_args(argv)
    sizes = sorted({int(s) for s in args.sizes.split(",") if s.strip()})
    tf_sizes = set() if args.no_terraform else {
        int(s) for s in args.terraform_sizes.split(",") if s.strip()}

    global _PYCACHE
    workdir = Path(tempfile.mkdtemp(prefix="gp-bench-plan-apply-"))
    try:
        if not args.no_bytecode:
            _PYCACHE = workdir / "pycache"
            measure("groundplan", 1, workdir / "warm-up")  # compiles and caches the bytecode
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"machine: {os.cpu_count()} CPUs, load average {load}; python "
              f"{sys.version.split()[0]}; bytecode {'cached' if _PYCACHE else 'as the env says'}"
              f"; work in {workdir}")
        gp: dict[int, Result] = {}
        tf: dict[int, Result] = {}
        for size in sizes:
            gp[size] = measure("groundplan", size, workdir, max(args.repeat, 1))
            _progress("groundplan", size, gp[size])
            if size in tf_sizes:
                tf[size] = measure("terraform", size, workdir)
                _progress("terraform", size, tf[size])
            elif not args.no_terraform and size in TERRAFORM_REFERENCE:
                tf[size] = Result({}, reference=True)
        print_table(sizes, gp, tf)
        print_growth(sizes, gp)
        if any(r.reference for r in tf.values()):
            print("ref = terraform 1.11.4 measured earlier on the same 2-core machine")
        if args.profile:
            profile(args.profile, workdir, args.top)
    finally:
        if args.keep:
            print(f"\nkept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


def _progress(tool: str, size: int, result: Result) -> None:
    parts = ", ".join(f"{STEP_TITLES[k]} {v.seconds:.2f} s / {v.rss_mb:.0f} MB"
                      for k, v in result.steps.items())
    print(f"  {tool} {size:,}: {parts}", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
