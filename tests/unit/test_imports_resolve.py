"""Every import of a project module names a module that exists.

mypy runs with `ignore_missing_imports` (for third-party packages without stubs), which also
hides an import of one of our own modules that was moved or removed. Most such imports are
lazy (inside a function), so nothing fails until that code path runs. This test reads every
`import engine...` / `from engine... import ...` (and `functions`, `providers`, `tests`)
statement, at any depth, and checks that the module it names is a file or package in the
repository.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "functions", "providers", "tests")
SOURCES = ("engine", "functions", "providers", "tests", "benchmarks", "examples")


def _exists(module: str) -> bool:
    path = ROOT.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file() or path.is_dir()


def _imported_modules(tree: ast.AST) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return [(line, m) for line, m in found if m.split(".")[0] in PACKAGES]


def test_every_project_import_names_an_existing_module() -> None:
    missing = []
    for base in SOURCES:
        for path in sorted((ROOT / base).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for line, module in _imported_modules(tree):
                if not _exists(module):
                    missing.append(f"{path.relative_to(ROOT)}:{line}: {module}")
    assert missing == []


def test_the_check_sees_a_missing_module() -> None:
    tree = ast.parse("def f():\n    from engine.no_such_package.mod import x\n")
    (line, module), = _imported_modules(tree)
    assert (line, module) == (2, "engine.no_such_package.mod") and not _exists(module)
