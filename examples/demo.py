"""`make demo`: run the groundplan CLI end to end on the examples, offline.

Copies each example configuration to a temporary directory and runs, printing each command
and its real output:

- examples/basic (outputs only): init, validate, plan, apply -auto-approve, output, output
  -json, and a second plan that finds no changes;
- examples/resources (terraform_data resources with dependencies, count, for_each, a
  provisioner and outputs): plan -out, show of the saved plan, apply of exactly that plan,
  state list, state show, output, graph, and a plan that finds no changes;
- the same configuration refactored (examples/refactor copied over it after the first apply):
  a `moved` block renames a resource and an `import` block adopts an existing object; the
  saved plan shows both (nothing replaced), applying it only rewrites the state, and the next
  plan finds no changes;
- the same configuration on shared state in S3 (a moto server on 127.0.0.1 started by the
  demo stands in for AWS): init with the S3 backend, apply, a second client blocked by the
  lock while the first waits at its approval prompt, then `state list` from that client.

Exits non-zero if any step does not behave as expected.
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
BASIC_STEPS: list[tuple[list[str], int]] = [
    (["init"], 0),
    (["validate"], 0),
    (["plan", "-var", "environment=prod", "-detailed-exitcode"], 2),
    (["apply", "-auto-approve", "-var", "environment=prod"], 0),
    (["output"], 0),
    (["output", "-json", "settings"], 0),
    (["output", "-raw", "prefix"], 0),
    (["plan", "-var", "environment=prod", "-detailed-exitcode"], 0),
]
RESOURCE_STEPS: list[tuple[list[str], int]] = [
    (["init"], 0),
    (["validate"], 0),
    (["plan", "-out=tfplan"], 0),
    (["show", "tfplan"], 0),
    (["apply", "tfplan"], 0),
    (["state", "list"], 0),
    (["state", "show", "terraform_data.network"], 0),
    (["output", "workers"], 0),
    (["graph"], 0),
    (["plan", "-detailed-exitcode"], 0),
]
# A step whose first argument is OVERLAY copies examples/<second argument> over the working copy.
OVERLAY = "@overlay"
REFACTOR_STEPS: list[tuple[list[str], int]] = [
    (["init"], 0),
    (["apply", "-auto-approve"], 0),
    ([OVERLAY, "refactor"], 0),
    (["plan", "-out=tfplan"], 0),
    (["show", "tfplan"], 0),
    (["apply", "tfplan"], 0),
    (["state", "list"], 0),
    (["plan", "-detailed-exitcode"], 0),
]
DEMOS = [("basic", BASIC_STEPS), ("resources", RESOURCE_STEPS),
         ("resources", REFACTOR_STEPS)]


def groundplan_command() -> list[str]:
    """The groundplan CLI: the venv's console script if present, else the module."""
    script = Path(sys.executable).parent / "groundplan"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "engine.cli.main"]


def run_demo(cmd: list[str], env: dict[str, str], name: str,
             steps: list[tuple[list[str], int]]) -> bool:
    """Run one example's steps in a temporary copy; whether each exited as expected."""
    with tempfile.TemporaryDirectory(prefix="groundplan-demo-") as tmp:
        work = Path(tmp) / name
        shutil.copytree(HERE / name, work)
        print(f"# working copy of examples/{name}: {work}\n", flush=True)
        for args, expected in steps:
            if args[0] == OVERLAY:
                print(f"$ cp examples/{args[1]}/*.tf .   # the next revision of the code\n",
                      flush=True)
                shutil.copytree(HERE / args[1], work, dirs_exist_ok=True)
                continue
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
                return False
        state = (work / "terraform.tfstate").read_text(encoding="utf-8")
        print("$ cat terraform.tfstate | head -12")
        print("\n".join(state.splitlines()[:12]) + "\n")
    return True


def _show(args: list[str], proc: subprocess.CompletedProcess[str], where: str) -> None:
    print(f"{where}$ groundplan {' '.join(args)}", flush=True)
    sys.stdout.write(proc.stdout)
    if proc.stdout and not proc.stdout.endswith("\n"):
        sys.stdout.write("\n")
    sys.stdout.write(proc.stderr)
    print(f"[exit code {proc.returncode}]\n", flush=True)


def run_s3_demo(cmd: list[str], env: dict[str, str]) -> bool:
    """examples/resources on an S3 bucket shared by two clients (see the module docstring)."""
    sys.path.insert(0, str(ROOT))
    import boto3

    from tests.functional.moto_serial import MotoServer
    from tests.functional.s3_support import BUCKET, REGION, backend_block

    env = {**env, "AWS_ACCESS_KEY_ID": "demo", "AWS_SECRET_ACCESS_KEY": "demo",
           "AWS_DEFAULT_REGION": REGION}
    with MotoServer() as url, tempfile.TemporaryDirectory(prefix="groundplan-demo-") as tmp:
        print(f"# a local S3 (moto) at {url}, bucket {BUCKET!r}\n", flush=True)
        boto3.client("s3", endpoint_url=url, region_name=REGION, aws_access_key_id="demo",
                     aws_secret_access_key="demo").create_bucket(Bucket=BUCKET)
        first, second = Path(tmp) / "alice", Path(tmp) / "bob"
        for d in (first, second):
            shutil.copytree(HERE / "resources", d)
            (d / "backend.tf").write_text(backend_block(url, key="demo/terraform.tfstate"))
        print("$ cat backend.tf\n" + (first / "backend.tf").read_text(), flush=True)

        def step(d: Path, args: list[str], expected: int) -> bool:
            proc = subprocess.run([*cmd, *args], cwd=d, env=env, capture_output=True,
                                  text=True, check=False)
            _show(args, proc, f"[{d.name}] ")
            if proc.returncode != expected:
                print(f"demo: `groundplan {' '.join(args)}` exited {proc.returncode}, "
                      f"expected {expected}", file=sys.stderr)
                return False
            return True

        if not (step(first, ["init"], 0) and step(second, ["init"], 0)
                and step(first, ["apply", "-auto-approve"], 0)):
            return False
        args = ["apply", "-var", "app=shop-v2"]
        print(f"[alice] $ groundplan {' '.join(args)}   # waits at its prompt, holding the lock",
              flush=True)
        held = subprocess.Popen([*cmd, *args], cwd=first, env=env, text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        assert held.stdout is not None
        seen = ""
        while "Enter a value:" not in seen:
            ch = held.stdout.read(1)
            if not ch:
                print(f"demo: the first client stopped early:\n{seen}", file=sys.stderr)
                return False
            seen += ch
        print("  ... (alice is at the approval prompt)\n", flush=True)
        blocked = step(second, ["plan", "-lock-timeout=0s"], 1)
        out, _ = held.communicate("no\n", timeout=300)
        print("[alice] answers no\n" + (seen + out).splitlines()[-1] + "\n", flush=True)
        if not blocked or held.returncode != 1:
            return False
        return step(second, ["state", "list"], 0)


def main() -> int:
    cmd = groundplan_command()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TF_IN_AUTOMATION": ""}
    for name, steps in DEMOS:
        if not run_demo(cmd, env, name, steps):
            return 1
    if not run_s3_demo(cmd, env):
        return 1
    print("demo: every step behaved as expected.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
