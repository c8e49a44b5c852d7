"""The cost of state and plan encryption at 5,000 instances.

1. End to end: `terraform_data` with `count = N` (+ one seed), run three ways in fresh
   directories: without encryption, with `pbkdf2` (OpenTofu's defaults: 600,000 iterations
   of SHA-512) + `aes_gcm` for state and plan, and with the `external` test key program +
   `aes_gcm`. Steps: `plan -out=tfplan` from an empty state, `apply tfplan`, the no-change
   `plan -detailed-exitcode`. Wall time of each, and the difference to the unencrypted run.
2. In process: the state document of the applied N-instance run, encrypted 20 times and
   decrypted 20 times through one `TargetEncryption` (what one apply does on its timer and at
   the end), with the number of PBKDF2 derivations it took: one for the writer (its salt is
   drawn once a process, as OpenTofu's) and one for the reader (cached by salt), not one a
   write.

    .venv/bin/python benchmarks/encryption.py [--size 5000] [--repeat 1]
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

CONFIG = """\
terraform {{
{encryption}}}

resource "terraform_data" "seed" {{
  input = "seed"
}}

resource "terraform_data" "item" {{
  count = {size}
  input = "${{terraform_data.seed.id}}-${{count.index}}"
}}
"""

PBKDF2 = """\
  encryption {
    key_provider "pbkdf2" "k" {
      passphrase = "benchmark-passphrase-of-some-length"
    }
    method "aes_gcm" "m" {
      keys = key_provider.pbkdf2.k
    }
    state { method = method.aes_gcm.m }
    plan { method = method.aes_gcm.m }
  }
"""


def external() -> str:
    prog = ROOT / "tests" / "external_keyprovider.py"
    return PBKDF2.replace(
        'key_provider "pbkdf2" "k" {\n      passphrase = "benchmark-passphrase-of-some-length"\n'
        "    }", f'key_provider "external" "k" {{\n      command = ["{sys.executable}", '
        f'"{prog}", "benchmark-secret"]\n    }}').replace("key_provider.pbkdf2.k",
                                                           "key_provider.external.k")


VARIANTS = {"none": "", "pbkdf2": PBKDF2, "external": external()}
STEPS = (("plan", ["plan", "-out=tfplan", "-input=false"], (0,)),
         ("apply", ["apply", "-input=false", "tfplan"], (0,)),
         ("no-change plan", ["plan", "-input=false", "-detailed-exitcode"], (0,)))


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TF_")}
    env.update({"PYTHONPATH": str(ROOT), "TF_IN_AUTOMATION": "1"})
    return env


def run_variant(name: str, size: int, base: Path) -> dict[str, float]:
    workdir = base / name
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    (workdir / "main.tf").write_text(CONFIG.format(encryption=VARIANTS[name], size=size))
    times: dict[str, float] = {}
    for step, args, codes in STEPS:
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "engine.cli.main", *args], cwd=workdir,
                              env=_env(), capture_output=True, text=True)
        times[step] = time.perf_counter() - start
        if proc.returncode not in codes:
            raise SystemExit(f"{name} {step} exited {proc.returncode}:\n{proc.stdout}\n"
                             f"{proc.stderr}")
    return times


def in_process(state_file: Path, rounds: int = 20) -> dict[str, float]:
    """Milliseconds of the first and of each later write and read of `state_file`'s document
    through one pbkdf2 + aes_gcm target, the derivations they took and the payload size."""
    from engine.encryption.keyproviders import pbkdf2
    from engine.encryption.keyproviders.pbkdf2 import Pbkdf2KeyProvider
    from engine.encryption.methods.aes_gcm import AesGcm
    from engine.encryption.targets import TargetEncryption

    def target() -> TargetEncryption:
        kp = Pbkdf2KeyProvider("key_provider.pbkdf2.k", "key_provider.pbkdf2.k",
                               passphrase="benchmark-passphrase-of-some-length")
        return TargetEncryption("state", [AesGcm("method.aes_gcm.m", kp)])

    def timed(fn: object, n: int) -> tuple[float, float]:
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        first = time.perf_counter() - start
        start = time.perf_counter()
        for _ in range(n - 1):
            fn()  # type: ignore[operator]
        return first * 1000, (time.perf_counter() - start) * 1000 / (n - 1)

    plain = state_file.read_bytes()
    before = pbkdf2.derivations
    writer = target()
    stored = writer.encrypt(plain)
    pbkdf2._derived.clear()
    writer = target()
    w_first, w_next = timed(lambda: writer.encrypt(plain), rounds)
    pbkdf2._derived.clear()  # the reader is another process: nothing derived yet
    reader = target()
    r_first, r_next = timed(lambda: reader.decrypt(stored), rounds)
    return {"bytes": len(plain), "write_first": w_first, "write_next": w_next,
            "read_first": r_first, "read_next": r_next,
            "derivations": pbkdf2.derivations - before - 1}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args(argv)
    base = Path(tempfile.mkdtemp(prefix="gp-encryption-bench-"))
    try:
        results: dict[str, dict[str, float]] = {}
        for name in VARIANTS:
            best: dict[str, float] = {}
            for _ in range(args.repeat):
                got = run_variant(name, args.size, base)
                best = {k: min(v, best.get(k, v)) for k, v in got.items()}
            results[name] = best
            print(f"  {name}: " + ", ".join(f"{k} {v:.2f} s" for k, v in best.items()),
                  flush=True)
        print(f"\nterraform_data count = {args.size} (+1 seed): seconds (difference to none)")
        print(f"{'step':<16}" + "".join(f"{n:>20}" for n in VARIANTS))
        for step, _, _ in STEPS:
            row = f"{step:<16}"
            for name in VARIANTS:
                t = results[name][step]
                diff = t - results["none"][step]
                row += f"{t:>12.2f}" + (f" ({diff:+.2f})" if name != "none" else " " * 8)
            print(row)
        m = in_process(base / "none" / "terraform.tfstate")
        print(f"\nin process, the {m['bytes'] / 1e6:.1f} MB state of that run through pbkdf2 "
              f"(600,000 x SHA-512) + aes_gcm, 20 writes then 20 reads: first write "
              f"{m['write_first']:.0f} ms (derives the key), later writes {m['write_next']:.1f} "
              f"ms each; first read {m['read_first']:.0f} ms (derives), later reads "
              f"{m['read_next']:.1f} ms each; {m['derivations']:.0f} PBKDF2 derivations for the "
              "40 operations")
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
