"""Provider version constraints: parsing, matching, normalisation, newest selection."""

from __future__ import annotations

import pytest

from engine.getproviders.versions import (
    ConstraintError,
    allows,
    constraints_string,
    newest_allowed,
    parse_constraints,
    parse_version,
)


def _v(text: str):  # type: ignore[no-untyped-def]
    v = parse_version(text)
    assert v is not None
    return v


@pytest.mark.parametrize(
    ("given", "normalised"),
    [
        (">= 3.0, < 4.0, ~> 3", ">= 3.0.0, ~> 3.0, < 4.0.0"),  # as terraform 1.11.4 wrote it
        ("~> 3.0", "~> 3.0"),
        ("= 3.39.0", "3.39.0"),
        ("3.39.0", "3.39.0"),
        (">= 1.2, < 2.0", ">= 1.2.0, < 2.0.0"),
        ("!= 1.5.0, >= 1.0", ">= 1.0.0, != 1.5.0"),
        ("~> 1.2.3", "~> 1.2.3"),
        (">= 2, >= 2.0.0", ">= 2.0.0"),
        ("", ""),
    ],
)
def test_constraints_string(given: str, normalised: str) -> None:
    assert constraints_string(parse_constraints(given)) == normalised


@pytest.mark.parametrize(
    ("constraint", "version", "ok"),
    [
        ("~> 3.0", "3.39.0", True),
        ("~> 3.0", "4.0.0", False),
        ("~> 3.39.0", "3.39.5", True),
        ("~> 3.39.0", "3.40.0", False),
        (">= 1.2, < 2.0", "1.9.9", True),
        (">= 1.2, < 2.0", "2.0.0", False),
        ("!= 3.39.0", "3.39.0", False),
        ("= 3.39.0", "3.39.0", True),
        ("= 1.2", "1.2.7", True),
        ("> 1.2", "1.2.7", False),
        ("<= 1.2", "1.2.7", True),
        (">= 1.0", "1.3.0-beta1", False),
        ("1.3.0-beta1", "1.3.0-beta1", True),
    ],
)
def test_allows(constraint: str, version: str, ok: bool) -> None:
    assert allows(parse_constraints(constraint), _v(version)) is ok


def test_newest_allowed_picks_the_newest_release() -> None:
    versions = [_v(t) for t in ("3.1.0", "3.39.0", "3.9.0", "4.0.0", "3.40.0-rc1")]
    assert str(newest_allowed(parse_constraints("~> 3.0"), versions)) == "3.39.0"
    assert newest_allowed(parse_constraints("~> 5.0"), versions) is None
    assert str(newest_allowed([], versions)) == "4.0.0"


def test_bad_constraint_and_version() -> None:
    with pytest.raises(ConstraintError):
        parse_constraints(">= banana")
    assert parse_version("1.2") is None
    assert parse_version("01.2.3") is None
    assert str(_v("1.2.3-rc.1+build")) == "1.2.3-rc.1+build"
    assert _v("1.2.3-rc.1") < _v("1.2.3") < _v("1.10.0")
