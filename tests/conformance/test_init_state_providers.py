"""Providers only the state needs, side by side with terraform 1.11.

A state holds objects of `random_string` and `null_resource` (made by terraform itself with
the repository's random and null providers from a filesystem mirror, `engine.plugin.sdk.package`),
and the configuration no longer declares them. Then:

- `init -plugin-dir=MIRROR` must install the providers the state names as well as the
  configuration's, as terraform does (so their objects' destruction can be planned): same
  output, same lock file, and `plan` then plans both destructions the same way;
- in a directory initialised before the state arrived, `plan` must refuse as terraform does:
  one "Missing required provider" ("This state requires provider ...") per provider, in
  terraform's order.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.plugin.sdk.package import PROVIDERS, package
from tests.conformance.harness import Run, run_groundplan, run_terraform

pytestmark = pytest.mark.slow

BEFORE = """resource "random_string" "s" {
  length  = 8
  special = false
}

resource "null_resource" "n" {}

resource "terraform_data" "keep" {}
"""
AFTER = 'resource "terraform_data" "keep" {}\n'


@pytest.fixture(scope="module")
def mirror(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("state-providers-mirror")
    for name in ("random", "null"):
        package(name, PROVIDERS[name], root)
    return root


@pytest.fixture(scope="module")
def state(tmp_path_factory: pytest.TempPathFactory, mirror: Path) -> Path:
    """A state terraform wrote for BEFORE."""
    work = tmp_path_factory.mktemp("state-providers-setup")
    (work / "main.tf").write_text(BEFORE, encoding="utf-8")
    assert run_terraform(work, "init", "-no-color", f"-plugin-dir={mirror}").code == 0
    applied = run_terraform(work, "apply", "-auto-approve", "-no-color")
    assert applied.code == 0, applied.stderr
    return work / "terraform.tfstate"


_PHASE = {"Finding": 1, "Reusing": 1, "Installing": 2, "Installed": 2, "Using": 2}


def _progress_key(line: str) -> tuple[int, str]:
    """(phase, provider) of one of init's progress lines; the built-in announcement first."""
    words = line.split()
    if "built" in words:
        return 0, words[1]
    provider = next((w for w in words if "/" in w), "")
    return _PHASE.get(words[1], 3), provider.rstrip(".")


def _steady(init_output: str) -> str:
    """init's output with each run of progress lines ("- Finding ...", "- Installing ...")
    in a fixed order: terraform's installer visits the providers in Go's map order, a
    different one from run to run, but always every query before every installation, and
    each installation's two lines together."""
    lines = init_output.split("\n")
    out: list[str] = []
    run: list[str] = []
    for line in [*lines, None]:
        if line is not None and line.startswith("- "):
            run.append(line)
            continue
        out.extend(sorted(run, key=_progress_key))  # stable: an installation's lines stay
        run = []
        if line is not None:
            out.append(line)
    return "\n".join(out)


def _tool(name: str) -> Callable[..., Run]:
    return run_terraform if name == "terraform" else run_groundplan


def _removed(tool: str, work: Path, state: Path, mirror: Path) -> list[tuple[int, str, str]]:
    work.mkdir()
    (work / "main.tf").write_text(AFTER, encoding="utf-8")
    shutil.copy(state, work / "terraform.tfstate")
    run = _tool(tool)
    init = run(work, "init", "-no-color", f"-plugin-dir={mirror}")
    plan = run(work, "plan", "-no-color")
    return [(init.code, _steady(init.stdout), init.stderr),
            (plan.code, _refreshed_in_order(plan.stdout), plan.stderr)]


def _refreshed_in_order(plan_output: str) -> str:
    """The plan's output with its "Refreshing state..." lines sorted: both tools refresh the
    objects concurrently, so they print those lines in the order the reads finish."""
    lines = plan_output.split("\n")
    refreshing = [i for i, ln in enumerate(lines) if ": Refreshing state... " in ln]
    for i, line in zip(refreshing, sorted(lines[i] for i in refreshing), strict=True):
        lines[i] = line
    return "\n".join(lines)


def test_init_installs_the_providers_only_the_state_names(tmp_path: Path, state: Path,
                                                          mirror: Path) -> None:
    want = _removed("terraform", tmp_path / "tf", state, mirror)
    got = _removed("groundplan", tmp_path / "gp", state, mirror)
    assert got == want
    lock = (tmp_path / "gp" / ".terraform.lock.hcl").read_text(encoding="utf-8")
    assert lock == (tmp_path / "tf" / ".terraform.lock.hcl").read_text(encoding="utf-8")
    assert 'provider "registry.terraform.io/hashicorp/random"' in lock
    assert 'provider "registry.terraform.io/hashicorp/null"' in lock
    assert want[1][0] == 0 and "Plan: 0 to add, 0 to change, 2 to destroy." in want[1][1]


def _not_installed(tool: str, work: Path, state: Path, mirror: Path) -> tuple[int, str, str]:
    work.mkdir()
    (work / "main.tf").write_text(AFTER, encoding="utf-8")
    run = _tool(tool)
    assert run(work, "init", "-no-color", f"-plugin-dir={mirror}").code == 0
    shutil.copy(state, work / "terraform.tfstate")
    plan = run(work, "plan", "-no-color")
    return plan.code, plan.stdout, _errors_in_order(plan.stderr)


def _errors_in_order(stderr: str) -> str:
    """The errors sorted: terraform finds the providers the state requires in Go's map order,
    so it reports the missing ones in an order that changes from run to run."""
    head, *errors = stderr.split("\nError: ")
    return "\nError: ".join([head, *sorted(errors)])


def test_plan_names_each_provider_the_state_needs(tmp_path: Path, state: Path,
                                                  mirror: Path) -> None:
    want = _not_installed("terraform", tmp_path / "tf", state, mirror)
    got = _not_installed("groundplan", tmp_path / "gp", state, mirror)
    assert got == want
    assert want[0] == 1 and want[2].count("This state requires provider") == 2
