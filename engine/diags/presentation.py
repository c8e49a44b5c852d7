"""How terraform orders and groups diagnostics before printing them for people.

- `sort_key(diag)`: tfdiags' sort order (Diagnostics.Sort, a stable sort): warnings before
  errors, then diagnostics without a subject, then by file (fewer path segments first, then
  by name), start offset and end offset; otherwise in the order they were reported.
- `consolidate_warnings(diags, threshold)`: tfdiags' ConsolidateWarnings: once `threshold`
  warnings with one summary (and a subject) have been seen, later ones with that summary are
  folded into the last one shown, whose detail then ends with "(and N more similar warnings
  elsewhere)". Warnings from check blocks (tagged NO_CONSOLIDATE) are never folded.
- `for_people(diags)`: both, as terraform's human views apply them (threshold 1).
- `compact_warnings(groups)`: the `-compact-warnings` list of warnings.

JSON output keeps the reported order and every diagnostic; only human output uses these.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable

from engine.diags.diagnostic import Diagnostic

#: The `extra` tag of diagnostics that consolidation leaves alone (terraform's
#: DiagnosticExtraDoNotConsolidate, which check blocks' rules carry).
NO_CONSOLIDATE = "no-consolidate"


def sort_key(diag: Diagnostic) -> tuple[int, int, int, str, int, int]:
    """See the module docstring."""
    subj = diag.subject
    if subj is None:
        return (int(diag.is_error), 0, 0, "", 0, 0)
    name = subj.filename
    return (int(diag.is_error), 1, name.count(os.sep), name, subj.start_offset, subj.end_offset)


@dataclasses.dataclass
class _Shown:
    diag: Diagnostic
    count: int = 1


def consolidate_warnings(diags: Iterable[Diagnostic], threshold: int
                         ) -> list[tuple[Diagnostic, int]]:
    """See the module docstring; each diagnostic kept comes with the number of reported
    diagnostics it stands for (1, or 1 + the warnings folded into it)."""
    out: list[_Shown] = []
    seen: dict[str, int] = {}
    groups: dict[str, _Shown] = {}
    for diag in diags:
        if diag.is_error or diag.subject is None or diag.extra == NO_CONSOLIDATE:
            out.append(_Shown(diag))
            continue
        group = groups.get(diag.summary)
        if group is not None:
            group.count += 1
            continue
        seen[diag.summary] = seen.get(diag.summary, 0) + 1
        entry = _Shown(diag)
        if seen[diag.summary] == threshold:
            groups[diag.summary] = entry
        out.append(entry)
    for entry in groups.values():
        if entry.count < 2:
            continue
        more = ("(and one more similar warning elsewhere)" if entry.count == 2
                else f"(and {entry.count - 1} more similar warnings elsewhere)")
        detail = f"{entry.diag.detail}\n\n{more}" if entry.diag.detail else more
        entry.diag = dataclasses.replace(entry.diag, detail=detail)
    return [(e.diag, e.count) for e in out]


def compact_warnings(groups: list[tuple[Diagnostic, int]]) -> str:
    """terraform's -compact-warnings list of consolidated warnings (below its "Warnings:"
    heading): each summary with where it was first reported and how many more there are."""
    out: list[str] = []
    for diag, count in groups:
        out.append(f"- {diag.summary}\n")
        subj = diag.subject
        if subj is not None:
            more = f" (and {count - 1} more)" if count > 1 else ""
            out.append(f"  on {subj.filename} line {subj.start.line}{more}\n")
        elif count > 1:
            out.append(f"  ({count} occurences of this warning)\n")
    return "".join(out)


def for_people(diags: Iterable[Diagnostic]) -> list[tuple[Diagnostic, int]]:
    """See the module docstring (with the counts of `consolidate_warnings`)."""
    return consolidate_warnings(sorted(diags, key=sort_key), 1)
