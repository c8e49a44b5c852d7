"""Edit distance and the "Did you mean ...?" suggestion of HCL and Terraform.

`name_suggestion` is HCL's `nameSuggestion` / Terraform's `didyoumean.NameSuggestion`: the
first candidate, in the order given, whose Levenshtein distance from the given name is below 3.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["distance", "name_suggestion"]


def distance(a: str, b: str) -> int:
    """The Levenshtein distance between `a` and `b` (insert, delete, substitute: cost 1)."""
    if a == b:
        return 0
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def name_suggestion(given: str, candidates: Iterable[str]) -> str:
    """The first of `candidates` within edit distance 2 of `given`, else ""."""
    for candidate in candidates:
        if distance(given, candidate) < 3:
            return candidate
    return ""
