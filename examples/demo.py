"""`make demo`: run the groundplan CLI end to end on examples/basic, offline.

Copies the example configuration to a temporary directory and runs, printing each command
and its real output: init, validate, plan, apply -auto-approve, output, output -json, and a
second plan that finds no changes. Exits non-zero if any step does not behave as expected.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# (arguments, expected exit code)
STEPS: list[tuple[list[str], int]] = [
    (["init"], 0),
    (["validate"], 0),
    (["plan", "-var", "environment=prod", "-detailed-exitcode"], 2),
    (["apply", "-auto-approve", "-var", "environment=prod"], 0),
    (["output"], 0),
    (["output", "-json", "settings"], 0),
    (["output", "-raw", "prefix"], 0),
    (["plan", "-var", "environment=prod", "-detailed-exitcode"], 0),
]


def groundplan_command() -> list[str]:
    """The groundplan CLI: the venv's console script if present, else the module."""
    script = Path(sys.executable).parent / "groundplan"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "engine.cli.main"]


def main() -> int:
    cmd = groundplan_command()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TF_IN_AUTOMATION": ""}
    with tempfile.TemporaryDirectory(prefix="groundplan-demo-") as tmp:
        work = Path(tmp) / "basic"
        shutil.copytree(HERE / "basic", work)
        print(f"# working copy of examples/basic: {work}\n", flush=True)
        for args, expected in STEPS:
            print(f"$ groundplan {' '.join(args)}", flush=True)
            proc = subprocess.run(
                [*cmd, *args], cwd=work, env=env, capture_output=True, text=True, check=False
            )
            sys.stdout.write(proc.stdout)
            if proc.stdout and not proc.stdout.endswith("\n"):
                sys.stdout.write("\n")
            sys.stdout.write(proc.stderr)
            print(f"[exit code {proc.returncode}]\n", flush=True)
            if proc.returncode != expected:
                print(
                    f"demo: `groundplan {' '.join(args)}` exited {proc.returncode}, "
                    f"expected {expected}",
                    file=sys.stderr,
                )
                return 1
        state = (work / "terraform.tfstate").read_text(encoding="utf-8")
        print("$ cat terraform.tfstate | head -12")
        print("\n".join(state.splitlines()[:12]))
    print("\ndemo: every step behaved as expected.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
