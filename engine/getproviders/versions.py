"""Provider versions and version constraints as Terraform's provider installer reads them.

Terraform selects provider versions with apparentlymart/go-versions ("Ruby-style"
constraints), which differs from the module/core `required_version` syntax:

- `parse_version("3.39.0")` -> `Version` (MAJOR.MINOR.PATCH, optional `-pre` and `+meta`);
  None when malformed.
- `parse_constraints(">= 1.2, < 2.0")` -> list of `Selection` (raises `ConstraintError`);
  an omitted part (`1.2`) is unconstrained: `= 1.2` means any 1.2.x, `> 1.2` above every
  1.2.x; `~> 1.2` is >= 1.2.0 and < 2.0.0, `~> 1.2.3` is >= 1.2.3 and < 1.3.0, `~> 1` is `~> 1.0`.
- `allows(selections, version)`: a pre-release matches only when some `=` clause names
  exactly that pre-release; every other clause must hold too.
- `constraints_string(selections)`: the normalised text written in lock files and init
  messages (deduplicated, sorted by boundary then operator, omitted parts as 0).
- `newest_allowed(selections, versions)`: the selection Terraform makes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_VERSION_RE = re.compile(
    r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)"
    r"(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$"
)
_BOUND_RE = re.compile(
    r"^v?([0-9]+)(?:\.([0-9]+))?(?:\.([0-9]+))?"
    r"(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$"
)
_CLAUSE_RE = re.compile(r"^\s*(=|!=|>=|<=|>|<|~>)?\s*(\S+)\s*$")


class ConstraintError(ValueError):
    """A constraint string that does not use the provider constraint syntax."""


def _pre_key(pre: str) -> tuple[tuple[int, int | str], ...]:
    out: list[tuple[int, int | str]] = []
    for ident in pre.split("."):
        out.append((0, int(ident)) if ident.isdigit() else (1, ident))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Version:
    """A semantic version; ordering follows semver precedence (metadata ignored)."""

    major: int
    minor: int
    patch: int
    prerelease: str = ""
    metadata: str = ""

    def key(self) -> tuple[int, int, int, int, tuple[tuple[int, int | str], ...]]:
        """Sort key: a release sorts after its pre-releases."""
        if self.prerelease:
            return (self.major, self.minor, self.patch, 0, _pre_key(self.prerelease))
        return (self.major, self.minor, self.patch, 1, ())

    def __lt__(self, other: Version) -> bool:
        return self.key() < other.key()

    def same(self, other: Version) -> bool:
        """Equal precedence (build metadata ignored)."""
        return self.key() == other.key()

    def __str__(self) -> str:
        text = f"{self.major}.{self.minor}.{self.patch}"
        if self.prerelease:
            text += "-" + self.prerelease
        if self.metadata:
            text += "+" + self.metadata
        return text


def parse_version(text: str) -> Version | None:
    """A version in canonical MAJOR.MINOR.PATCH[-pre][+meta] form, or None."""
    m = _VERSION_RE.match(text)
    if m is None:
        return None
    return Version(int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4) or "", m.group(5) or "")


@dataclass(frozen=True, slots=True)
class Selection:
    """One clause: an operator (`=`, `!=`, `>`, `>=`, `<`, `<=`, `~>`) and a boundary whose
    omitted parts are None. `~>` remembers how many parts were written."""

    op: str
    major: int
    minor: int | None
    patch: int | None
    prerelease: str = ""
    metadata: str = ""

    @property
    def zero(self) -> Version:
        """The boundary with omitted parts as 0."""
        return Version(self.major, self.minor or 0, self.patch or 0, self.prerelease, self.metadata)

    @property
    def minor_only(self) -> bool:
        """`~> X` or `~> X.Y`: the pessimistic operator that fixes the major version."""
        return self.op == "~>" and self.patch is None

    def _in_prefix(self, v: Version) -> bool:
        """Whether `v` falls in the range this boundary names (`1.2` names every 1.2.x)."""
        if v.major != self.major:
            return False
        if self.minor is not None and v.minor != self.minor:
            return False
        if self.patch is not None and v.patch != self.patch:
            return False
        if self.patch is not None:
            return v.prerelease == self.prerelease
        return not v.prerelease

    def allows(self, v: Version) -> bool:
        """Whether `v` satisfies this clause (pre-release gating is done by `allows`)."""
        b = self.zero
        op = self.op
        if op == "=":
            return self._in_prefix(v)
        if op == "!=":
            return not self._in_prefix(v)
        if op == ">=":
            return not v < b
        if op == "<":
            return v < b
        if op == ">":
            return not v < b and not self._in_prefix(v)
        if op == "<=":
            return v < b or self._in_prefix(v)
        # ~>
        if v < b:
            return False
        if self.minor_only:
            return v.major == self.major
        return v.major == self.major and v.minor == (self.minor or 0)


def _parse_selection(text: str) -> Selection:
    m = _CLAUSE_RE.match(text)
    if m is None:
        raise ConstraintError(f'invalid constraint "{text.strip()}"')
    bm = _BOUND_RE.match(m.group(2))
    if bm is None:
        raise ConstraintError(f'invalid version "{m.group(2)}"')
    op = m.group(1) or "="
    minor = int(bm.group(2)) if bm.group(2) is not None else None
    patch = int(bm.group(3)) if bm.group(3) is not None else None
    return Selection(op, int(bm.group(1)), minor, patch, bm.group(4) or "", bm.group(5) or "")


def parse_constraints(text: str) -> list[Selection]:
    """The clauses of a comma-separated constraint string ("" means any version)."""
    if not text.strip():
        return []
    return [_parse_selection(part) for part in text.split(",")]


def allows(selections: Iterable[Selection], version: Version) -> bool:
    """Whether `version` meets every clause; pre-releases only when requested exactly."""
    sels = list(selections)
    if version.prerelease and not any(
        s.op == "=" and s.patch is not None and s.zero.same(version) for s in sels
    ):
        return False
    return all(s.allows(version) for s in sels)


def newest_allowed(selections: Iterable[Selection], versions: Iterable[Version]) -> Version | None:
    """The newest of `versions` that `selections` allow, or None."""
    sels = list(selections)
    best: Version | None = None
    for v in versions:
        if allows(sels, v) and (best is None or best < v):
            best = v
    return best


_OP_PRIORITY = {">": 1, ">=": 2, "=": 3, "~>patch": 4, "~>minor": 5, "<=": 6, "<": 7, "!=": 8}


def _op_key(s: Selection) -> str:
    if s.op == "~>":
        return "~>minor" if s.minor_only else "~>patch"
    return s.op


def constraints_string(selections: Iterable[Selection]) -> str:
    """Terraform's normalised form of a set of clauses (as in lock files)."""
    seen: dict[tuple[str, Version], None] = {}
    for s in selections:
        seen[(_op_key(s), s.zero)] = None
    ordered = sorted(seen, key=lambda k: (k[1].key(), k[1].metadata, _OP_PRIORITY[k[0]]))
    parts: list[str] = []
    for opk, b in ordered:
        prefix = {"=": "", "~>patch": "~> ", "~>minor": "~> "}.get(opk, opk + " ")
        body = f"{b.major}.{b.minor}" if opk == "~>minor" else f"{b.major}.{b.minor}.{b.patch}"
        if b.prerelease:
            body += "-" + b.prerelease
        if b.metadata:
            body += "+" + b.metadata
        parts.append(prefix + body)
    return ", ".join(parts)
