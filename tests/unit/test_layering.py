"""The layering rules of DESIGN.md, checked on the source: arrows point one way.

`RANKS` lists every engine package once, lowest first. A module of one package may import
only from packages of a lower rank, so no two packages import each other, directly or in a
circle. `KNOWN_EXCEPTIONS` names the imports that still break the rule, each with the work
that removes it; an exception that is no longer needed fails the test too, so the list only
shrinks. `engine/cli` is a front end: it parses arguments, builds requests for
`engine.operations`, and renders; it does not reach into the planner, the walker or the
state machinery.
"""

from __future__ import annotations

import ast
import fnmatch
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# engine may import boto3 only inside these packages (remote state and the KMS key provider).
BOTO3_ALLOWED = ("engine/backend/s3/", "engine/encryption/keyproviders/")

#: Engine packages, lowest first; one rank may hold several packages that do not import
#: each other.
RANKS: list[tuple[str, ...]] = [
    ("addrs", "gocompat", "source"),
    ("diags", "values"),
    ("hcl", "states"),
    ("checks", "lang"),
    ("configs",),
    ("backend", "cliconfig", "graph", "initwd"),
    ("getproviders",),
    ("depsfile",),
    ("providercache",),
    ("plugin",),
    ("core",),
    ("encryption", "plans"),
    ("provisioners",),
    ("apply",),
    ("operations", "testing"),
    ("cli",),
]

#: (importing package, imported package) pairs that still break the ranks, and why; an entry
#: goes with the work that removes it. The ground floor (issue #7) removed the last cycles:
#: source ranges below diags and hcl, type expressions in configs, check assertions in core,
#: the installer in providercache, the apply graph in apply.
KNOWN_EXCEPTIONS: dict[tuple[str, str], str] = {}

#: What `engine/cli` must not import: the planner and its parts, the walker and graph
#: builders, the applier, and the state machinery (storage, locks, journal, managers). The
#: state and plan models, their file formats and renderers, hooks and addresses are fine.
CLI_FORBIDDEN = (
    "engine.graph",
    "engine.apply",
    "engine.plans.planner*",
    "engine.plans.refresh",
    "engine.plans.importing",
    "engine.plans.moves_*",
    "engine.plans.validate*",
    "engine.plans.objchange",
    "engine.states.local",
    "engine.states.lock",
    "engine.states.manager",
    "engine.states.journal",
    "engine.states.sync",
    "engine.states.workspaces",
    "engine.states.LocalState",
    "engine.states.StateManager",
    "engine.states.workspaces",
    "engine.core.instances",
    "engine.core.root",
)


#: CLI modules that still reach into the state machinery, and why. They were written in
#: parallel with the operation layer (the S3 backend and state-command work) and merged after
#: it; each goes when its `-state=FILE` / lock handling moves behind engine.backend.
CLI_KNOWN_EXCEPTIONS: dict[str, str] = {
    "engine/cli/state_meta.py": "state commands open -state=FILE with LocalState/FilesystemLocker",
    "engine/cli/cmd_state_mv.py": "state mv's -state-out manager",
    "engine/cli/cmd_state.py": "state list/show read -state=FILE with LocalState",
    "engine/cli/cmd_workspace.py": "workspace new -state=FILE locks with acquire/release",
    "engine/cli/cmd_force_unlock.py": "force-unlock calls states.lock.force_unlock directly",
}


def _forbidden_in_cli(name: str) -> bool:
    """Whether `name` (a module, or a module's name as imported) is one of CLI_FORBIDDEN or
    inside one."""
    return any(fnmatch.fnmatchcase(name, pat) or fnmatch.fnmatchcase(name, pat + ".*")
               for pat in CLI_FORBIDDEN)


def _imports(path: Path) -> frozenset[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return frozenset(names)


def _sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def _package(path: Path) -> str | None:
    parts = path.relative_to(ROOT / "engine").parts
    return parts[0] if len(parts) > 1 else None


def _rank() -> dict[str, int]:
    return {pkg: i for i, rank in enumerate(RANKS) for pkg in rank}


@functools.cache
def _package_imports() -> dict[tuple[str, str], list[str]]:
    """(importing package, imported package) -> the modules that import it that way."""
    found: dict[tuple[str, str], list[str]] = {}
    for path in _sources("engine"):
        pkg = _package(path)
        if pkg is None:
            continue
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] != "engine" or len(parts) < 2 or parts[1] == pkg:
                continue
            if not (ROOT / "engine" / parts[1]).is_dir():
                continue  # `from engine import x` of a module, or a name in engine/__init__
            found.setdefault((pkg, parts[1]), []).append(path.relative_to(ROOT).as_posix())
    return found


def test_every_engine_package_has_one_rank() -> None:
    listed = [pkg for rank in RANKS for pkg in rank]
    assert len(listed) == len(set(listed)), "a package is listed twice"
    packages = {p.name for p in (ROOT / "engine").iterdir()
                if p.is_dir() and (p / "__init__.py").exists()}
    assert packages == set(listed)


def test_packages_import_only_lower_ranks() -> None:
    rank = _rank()
    offenders = []
    for (pkg, other), where in sorted(_package_imports().items()):
        if rank[other] < rank[pkg] or (pkg, other) in KNOWN_EXCEPTIONS:
            continue
        offenders.append(f"engine.{pkg} imports engine.{other} ({sorted(set(where))[0]}, ...)")
    assert offenders == []


def test_known_exceptions_are_still_needed() -> None:
    rank = _rank()
    found = _package_imports()
    stale = [pair for pair in KNOWN_EXCEPTIONS
             if pair not in found and rank[pair[1]] >= rank[pair[0]]]
    assert stale == [], "remove these from KNOWN_EXCEPTIONS"


def test_no_import_circle_between_packages() -> None:
    """Apart from the known exceptions, the package import graph has no cycle."""
    from engine.graph.digraph import DiGraph, strongly_connected_components

    g = DiGraph()
    for (pkg, other) in _package_imports():
        if (pkg, other) not in KNOWN_EXCEPTIONS:
            g.add_edge(pkg, other)
    cycles = [c for c in strongly_connected_components(g) if len(c) > 1]
    assert cycles == []


def test_cli_is_a_front_end() -> None:
    offenders = []
    for path in _sources("engine/cli"):
        if path.relative_to(ROOT).as_posix() in CLI_KNOWN_EXCEPTIONS:
            continue
        for name in _imports(path):
            if _forbidden_in_cli(name):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_engine_never_imports_the_control_plane_or_providers() -> None:
    offenders = []
    for path in _sources("engine"):
        for name in _imports(path):
            if name.split(".")[0] in ("functions", "providers", "tests"):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_engine_imports_boto3_only_in_backends() -> None:
    offenders = []
    for path in _sources("engine"):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(BOTO3_ALLOWED):
            continue
        for name in _imports(path):
            if name.split(".")[0] in ("boto3", "botocore", "pynamodb"):
                offenders.append(f"{rel} imports {name}")
    assert offenders == []


def test_providers_use_only_the_plugin_sdk() -> None:
    offenders = []
    for path in _sources("providers"):
        for name in _imports(path):
            if name.startswith("engine.") and not name.startswith(
                ("engine.plugin.sdk", "engine.values")
            ):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []
