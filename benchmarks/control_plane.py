"""The control plane's apply fan-out beside the critical path and the local walker.

A random layered graph of N `time_sleep` resources (the repository's Python `time`
provider, so every node really waits: create durations drawn from 0.1-2 s with a fixed seed,
dependencies by `depends_on` on up to two nodes of earlier layers) is applied

1. through the local control plane (`groundplan cloud local`'s parts: moto's server in a
   process of its own, its Step Functions executing infra/statemachine.asl.json, the node
   tasks asynchronous invocations of the apply-node function run by the handlers in this
   process), with the function's reserved concurrency = C, auto-applied, and
2. by the local walker: `groundplan apply tfplan -parallelism=10` on the same files.

Printed: the fan-out makespan (first node start to last node end, from the node items), the
lower bound max(critical path, total work / C), their ratio (goal ≤ 1.3), the run's whole
apply (approval to state written) and the local walker's apply beside it, the bytes the
node tasks read per node (from S3: the plan file once per warm function; dependency results
from the node items they are kept in), and the CPU time per node during the apply of this
process (every handler, the engine, the bridge) and of moto's server process (S3, DynamoDB,
the Step Functions interpreter): less affected by other load on the machine than wall time,
and on this 2-core machine the makespan's floor.

    .venv/bin/python benchmarks/control_plane.py                 # 500 nodes, C = 40
    .venv/bin/python benchmarks/control_plane.py --nodes 100 --concurrency 20
    .venv/bin/python benchmarks/control_plane.py --chain 10 --latency 0.1 --no-local

`--chain N` applies a chain of N nodes instead (each waits for the one before it, every
node `--latency` seconds): the makespan less the critical path, per node, is what one level
of the graph costs the fan-out beyond its provider's own time.

`--profile FILE` runs the handlers' process under cProfile with a profiler in every thread,
timed by each thread's CPU clock (time.thread_time: waits cost nothing), and writes the merged
stats of the threads that finished to FILE for `pstats`; the top functions by own CPU time
are printed.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import json
import os
import pstats
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def graph(n: int, seed: int) -> tuple[dict[str, list[str]], dict[str, float]]:
    rnd = random.Random(seed)
    layers: list[list[str]] = []
    names: list[str] = []
    while len(names) < n:
        width = min(n - len(names), rnd.randint(5, 40))
        layer = [f"n{len(names) + i}" for i in range(width)]
        names.extend(layer)
        layers.append(layer)
    deps: dict[str, list[str]] = {}
    earlier: list[str] = []
    for layer in layers:
        for name in layer:
            k = rnd.randint(0, 2) if earlier else 0
            deps[name] = sorted(set(rnd.sample(earlier[-80:], min(k, len(earlier[-80:])))))
        earlier.extend(layer)
    durations = {name: round(rnd.uniform(0.1, 2.0), 2) for name in names}
    return deps, durations


def chain(n: int, latency: float) -> tuple[dict[str, list[str]], dict[str, float]]:
    deps = {f"n{i}": ([f"n{i - 1}"] if i else []) for i in range(n)}
    return deps, {name: latency for name in deps}


def config(deps: dict[str, list[str]], durations: dict[str, float]) -> str:
    out = ['terraform {\n  required_providers {\n    time = { source = "hashicorp/time" }\n  }\n}\n']
    for name, ds in deps.items():
        out.append(f'resource "time_sleep" "{name}" {{\n'
                   f'  create_duration = "{int(durations[name] * 1000)}ms"\n')
        if ds:
            out.append("  depends_on = [" + ", ".join(f"time_sleep.{d}" for d in ds) + "]\n")
        out.append("}\n")
    return "".join(out)


def critical_path(deps: dict[str, list[str]], durations: dict[str, float]) -> float:
    finish: dict[str, float] = {}
    for name in deps:  # names are in topological order (layers)
        finish[name] = durations[name] + max((finish[d] for d in deps[name]), default=0.0)
    return max(finish.values())


def run(cmd: list[str], cwd: Path) -> float:
    started = time.monotonic()
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{out.stdout}\n{out.stderr}")
    return time.monotonic() - started


def process_cpu(pid: int | None) -> float:
    """User + system CPU seconds of process `pid` so far (Linux /proc; 0 elsewhere)."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def parse_time(text: str) -> dt.datetime:
    return dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ")


class ThreadProfiles:
    """A cProfile per thread started while installed, on the thread's CPU clock."""

    def __init__(self) -> None:
        self.done: list[cProfile.Profile] = []
        self._mu = threading.Lock()
        self._run = threading.Thread.run

    def install(self) -> None:
        original, done, mu = self._run, self.done, self._mu

        def run(thread: threading.Thread) -> None:
            prof = cProfile.Profile(time.thread_time)
            prof.enable()
            try:
                original(thread)
            finally:
                prof.disable()
                with mu:
                    done.append(prof)

        threading.Thread.run = run  # type: ignore[method-assign,assignment]

    def dump(self, path: str, top: int = 40) -> None:
        threading.Thread.run = self._run  # type: ignore[method-assign]
        with self._mu:
            profiles = list(self.done)
        if not profiles:
            return
        stats = pstats.Stats(profiles[0])
        for prof in profiles[1:]:
            stats.add(prof)
        stats.dump_stats(path)
        print(f"cProfile of {len(profiles)} finished threads (CPU time) in {path}:")
        stats.sort_stats("tottime").print_stats(top)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=500)
    ap.add_argument("--concurrency", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--no-local", action="store_true", help="skip the local walker")
    ap.add_argument("--chain", type=int, default=0, help="a chain of N nodes instead")
    ap.add_argument("--latency", type=float, default=0.1, help="each chain node's latency")
    ap.add_argument("--timeline", metavar="FILE", default="",
                    help="write each node's start and end (seconds from the first start) to FILE")
    ap.add_argument("--profile", metavar="FILE", default="",
                    help="profile the control plane (every thread, CPU time) into FILE")
    args = ap.parse_args()
    py = sys.executable
    deps, durations = (chain(args.chain, args.latency) if args.chain
                       else graph(args.nodes, args.seed))
    args.nodes = len(deps)
    work = Path(tempfile.mkdtemp(prefix="groundplan-bench-cp-"))
    mirror = work / "mirror"
    subprocess.run([py, "-m", "engine.plugin.sdk.package", str(mirror), "time"], cwd=ROOT,
                   check=True, capture_output=True)
    cfg_dir = work / "config"
    cfg_dir.mkdir()
    (cfg_dir / "main.tf").write_text(config(deps, durations))
    run([py, "-m", "engine.cli.main", "init", f"-plugin-dir={mirror}"], cfg_dir)
    cp = critical_path(deps, durations)
    total = sum(durations.values())
    bound = max(cp, total / args.concurrency)
    print(f"graph: {args.nodes} nodes, {sum(len(d) for d in deps.values())} edges, "
          f"work {total:.1f} s, critical path {cp:.1f} s, lower bound at C={args.concurrency}: "
          f"{bound:.1f} s")

    from engine.cli.remote_client import RemoteClient
    from functions.common import artifacts, fanout
    from functions.local.cloud import LocalCloud

    read_bytes = [0, 0]  # from S3, results from node items
    mu = threading.Lock()
    original_get = artifacts.get
    original_results = fanout.read_results

    def counted_get(bucket: str, key: str) -> bytes:
        data = original_get(bucket, key)
        with mu:
            read_bytes[0] += len(data)
        return data

    def counted_results(run_id: str, keys: list[str]) -> dict[str, Any]:
        found = original_results(run_id, keys)
        with mu:
            read_bytes[1] += sum(len(json.dumps(doc)) for doc in found.values())
        return found

    profiles = ThreadProfiles()
    if args.profile:
        profiles.install()
    with LocalCloud(plugin_dir=str(mirror), max_concurrency=args.concurrency) as cloud:
        client = RemoteClient(cloud.api_url, cloud.token)
        client.create_workspace("bench", approvers=["U1"])
        cv = client.upload_configuration("bench", str(cfg_dir))
        artifacts.get = counted_get
        fanout.read_results = counted_results
        run_doc = client.start_run("bench", cv, auto_apply=True)
        deadline = time.monotonic() + 3600
        cpu_applying = None  # this process's CPU time when the apply was first seen
        moto_applying = 0.0  # and moto's server process's
        while run_doc["status"] not in ("applied", "errored"):
            if time.monotonic() > deadline:
                raise SystemExit("the run did not finish within an hour")
            time.sleep(0.2)
            run_doc = client.run(run_doc["id"])
            if cpu_applying is None and run_doc["status"] not in ("pending", "planning"):
                cpu_applying = time.process_time()
                moto_applying = process_cpu(cloud.moto_pid)
        cpu = time.process_time() - (cpu_applying or 0.0)
        moto_cpu = process_cpu(cloud.moto_pid) - moto_applying
        if run_doc["status"] != "applied":
            raise SystemExit(f"the run errored: {run_doc['error']}")
        nodes = fanout.all_nodes(run_doc["id"])
        starts = [parse_time(str(n.started_at)) for n in nodes]
        ends = [parse_time(str(n.finished_at)) for n in nodes]
        makespan = (max(ends) - min(starts)).total_seconds()
        if args.timeline:
            first = min(starts)
            Path(args.timeline).write_text(json.dumps([
                {"id": n.node_id, "key": n.address, "deps": [str(d) for d in n.deps or []],
                 "start": (s - first).total_seconds(), "end": (e - first).total_seconds()}
                for n, s, e in zip(nodes, starts, ends, strict=True)], indent=1))
        history = {h["status"]: parse_time(h["at"]) for h in run_doc["status_history"]}
        whole = (history["applied"] - history["applying"]).total_seconds()
        # bytes read by node tasks: the plan (once per warm function) and dependency results
        per_node = read_bytes[0] / len(nodes)
        results_per_node = read_bytes[1] / len(nodes)
    print(f"state machine fan-out: makespan {makespan:.1f} s = {makespan / bound:.2f}x the "
          f"lower bound (goal <= 1.3x); whole apply incl. prepare/finalize {whole:.1f} s")
    print(f"bytes read per node: {per_node:,.0f} from S3, {results_per_node:,.0f} of "
          f"dependency results from node items; CPU per node during the apply: "
          f"handlers {cpu / args.nodes * 1000:.0f} ms ({cpu:.1f} s in all), moto's server "
          f"{moto_cpu / args.nodes * 1000:.0f} ms ({moto_cpu:.1f} s)")
    if args.profile:
        profiles.dump(args.profile)
    if args.chain:
        print(f"per level beyond the provider's latency: {(makespan - cp) / args.chain:.3f} s")
    if not args.no_local:
        local = work / "local"
        local.mkdir()
        (local / "main.tf").write_text(config(deps, durations))
        run([py, "-m", "engine.cli.main", "init", f"-plugin-dir={mirror}"], local)
        run([py, "-m", "engine.cli.main", "plan", "-out=tfplan"], local)
        walker = run([py, "-m", "engine.cli.main", "apply", "-parallelism=10", "tfplan"], local)
        print(f"local walker -parallelism=10: apply {walker:.1f} s; state machine makespan / "
              f"walker = {makespan / walker:.2f}x, whole run apply / walker = {whole / walker:.2f}x")
    os.system(f"rm -rf {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
