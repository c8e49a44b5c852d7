"""Version constraints (`">= 1.2, < 2.0"`, `"~> 1.11"`) as hashicorp/go-version reads them.

`decode_version_constraint(attr)` keeps the source text and range and parses each clause;
`VersionConstraint.allows(version)` checks a version; `check_core_version` is Terraform's
"Unsupported Terraform Core version" check of `required_version`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.configs.exprs import static_value
from engine.diags import Diagnostics, error
from engine.hcl.ast import Attribute
from engine.source import Range
from engine.version import TERRAFORM_VERSION

_VERSION = (
    r"v?([0-9]+(?:\.[0-9]+)*?)"
    r"(-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)|(-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)))?"
    r"(\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))?"
)
_VERSION_RE = re.compile(r"^" + _VERSION + r"$")
_CLAUSE_RE = re.compile(r"^\s*(=|!=|>=|<=|>|<|~>)?\s*(" + _VERSION + r")\s*$")


@dataclass(frozen=True, slots=True)
class Version:
    """A parsed version: numeric segments (padded to three), pre-release text, original."""

    segments: tuple[int, ...]
    prerelease: str
    original: str
    given_segments: int

    @staticmethod
    def parse(text: str) -> Version | None:
        m = _VERSION_RE.match(text.strip())
        if not m:
            return None
        nums = [int(p) for p in m.group(1).split(".")]
        given = len(nums)
        while len(nums) < 3:
            nums.append(0)
        pre = m.group(3) or m.group(6) or ""
        return Version(tuple(nums), pre, text.strip(), given)

    def _cmp(self, other: Version) -> int:
        if self.segments != other.segments:
            return -1 if self.segments < other.segments else 1
        if self.prerelease == other.prerelease:
            return 0
        if not self.prerelease:
            return 1
        if not other.prerelease:
            return -1
        return -1 if self.prerelease < other.prerelease else 1


@dataclass(frozen=True, slots=True)
class Clause:
    """One clause of a version constraint: an operator and a version."""

    op: str
    version: Version

    def allows(self, v: Version) -> bool:
        c = v._cmp(self.version)
        op = self.op
        # a pre-release only satisfies a clause naming a pre-release of the same version
        if v.prerelease and (not self.version.prerelease or v.segments != self.version.segments):
            return False
        if op in ("", "="):
            return c == 0
        if op == "!=":
            return c != 0
        if op == ">":
            return c > 0
        if op == "<":
            return c < 0
        if op == ">=":
            return c >= 0
        if op == "<=":
            return c <= 0
        # ~>: at least this version, and the same leading segments but the last given one
        if c < 0:
            return False
        keep = max(self.version.given_segments - 1, 1)
        return v.segments[:keep] == self.version.segments[:keep]

    def __str__(self) -> str:
        return f"{self.op} {self.version.original}".strip()


@dataclass(slots=True)
class VersionConstraint:
    """A constraint string as written, where it was, and its parsed clauses."""

    text: str
    decl_range: Range
    clauses: list[Clause] = field(default_factory=list)

    def allows(self, version: str) -> bool:
        v = Version.parse(version)
        if v is None:
            return False
        return all(c.allows(v) for c in self.clauses)


def parse_constraint(text: str) -> list[Clause] | None:
    """The clauses of a comma-separated constraint string, or None if it is malformed."""
    out: list[Clause] = []
    for part in text.split(","):
        m = _CLAUSE_RE.match(part)
        if not m:
            return None
        v = Version.parse(m.group(2))
        if v is None:
            return None
        out.append(Clause(m.group(1) or "", v))
    return out


def decode_version_constraint(attr: Attribute) -> tuple[VersionConstraint | None, Diagnostics]:
    """A `version` / `required_version` argument: a static string of constraint clauses."""
    val, diags = static_value(attr.expr)
    if val is None:
        return None, diags
    if val.is_null:
        return VersionConstraint("", attr.range), diags
    raw = val.v
    if isinstance(raw, bool) or not isinstance(raw, (str, int)):
        diags.append(
            error(
                "Invalid version constraint",
                f"A string value is required for {attr.name}.",
                attr.expr.range,
            )
        )
        return None, diags
    text = str(raw)
    clauses = parse_constraint(text)
    if clauses is None:
        diags.append(
            error(
                "Invalid version constraint",
                "This string does not use correct version constraint syntax.",
                attr.expr.range,
            )
        )
        return None, diags
    return VersionConstraint(text, attr.range, clauses), diags


def check_core_version(
    constraints: list[VersionConstraint], version: str = TERRAFORM_VERSION, module: str = ""
) -> Diagnostics:
    """Terraform's error for each `required_version` the running version does not satisfy;
    `module` names a child module as terraform does (`module.a (from ./a)`), "" the root."""
    diags = Diagnostics()
    subject = f"Module {module}" if module else "This configuration"
    for c in constraints:
        if not c.allows(version):
            diags.append(
                error(
                    "Unsupported Terraform Core version",
                    f"{subject} does not support Terraform version {version}. To "
                    "proceed, either choose another supported Terraform version or update this "
                    "version constraint. Version constraints are normally set for good reason, so "
                    "updating the constraint may lead to other errors or unexpected behavior.",
                    c.decl_range,
                )
            )
    return diags
