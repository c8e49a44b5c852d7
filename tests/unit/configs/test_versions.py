"""Version constraints as hashicorp/go-version reads them, and the core version check."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.configs.versions import Version, parse_constraint
from tests.unit.configs.helpers import summarize, validate_here, write


def _allows(constraint: str, version: str) -> bool:
    clauses = parse_constraint(constraint)
    assert clauses is not None, constraint
    v = Version.parse(version)
    assert v is not None
    return all(c.allows(v) for c in clauses)


@pytest.mark.parametrize(
    ("constraint", "version", "ok"),
    [
        ("~> 1.11", "1.11.4", True),
        ("~> 1.11", "1.99.0", True),
        ("~> 1.11", "2.0.0", False),
        ("~> 1.11.0", "1.11.4", True),
        ("~> 1.11.0", "1.12.0", False),
        (">= 1.5, < 2.0", "1.11.4", True),
        (">= 1.5, < 2.0", "2.0.0", False),
        ("= 1.11.4", "1.11.4", True),
        ("1.11.4", "1.11.5", False),
        ("!= 1.11.4", "1.11.4", False),
        ("> 1.0", "1.0.0", False),
        ("<= 1.0", "1.0.0", True),
        (">= 1.0", "1.2.0-beta1", False),
        ("= 1.2.0-beta1", "1.2.0-beta1", True),
    ],
)
def test_constraint_matching(constraint: str, version: str, ok: bool) -> None:
    assert _allows(constraint, version) is ok


@pytest.mark.parametrize("bad", ["~~> 1", ">= ", "1.x", "latest", ">= 1,"])
def test_malformed_constraints(bad: str) -> None:
    assert parse_constraint(bad) is None


def test_required_version_rejects_this_version(tmp_path: Path) -> None:
    write(tmp_path, {"main.tf": 'terraform {\n  required_version = "~> 1.5.0"\n}\n'})
    assert summarize(validate_here(tmp_path)) == [
        (
            "error",
            "Unsupported Terraform Core version",
            "This configuration does not support Terraform version 1.11.4. To proceed, either "
            "choose another supported Terraform version or update this version constraint. "
            "Version constraints are normally set for good reason, so updating the constraint "
            "may lead to other errors or unexpected behavior.",
            2,
            3,
        )
    ]
