"""The layering rules of DESIGN.md, checked on the source: arrows point one way."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# engine may import boto3 only inside these packages (remote state and the KMS key provider).
BOTO3_ALLOWED = ("engine/backend/s3/", "engine/encryption/keyproviders/")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


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
