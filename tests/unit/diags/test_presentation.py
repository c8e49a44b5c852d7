"""terraform's ordering and folding of diagnostics for people (engine.diags.presentation)."""

from __future__ import annotations

import dataclasses

from engine.diags import error, warning
from engine.diags.presentation import (
    NO_CONSOLIDATE,
    compact_warnings,
    consolidate_warnings,
    for_people,
    sort_key,
)
from engine.source import Range, SourceFile

TEXT = "line one\nline two\nline three\n"
MAIN = SourceFile("main.tf", TEXT)
NESTED = SourceFile("mod/a.tf", TEXT)
OTHER = SourceFile("b.tf", TEXT)


def _at(file: SourceFile, start: int, end: int | None = None) -> Range:
    return Range(file, start, start + 1 if end is None else end)


def test_sorted_warnings_first_then_unlocated_then_by_file_and_offset() -> None:
    diags = [
        error("e nested", "", _at(NESTED, 0)),
        error("e main late", "", _at(MAIN, 12)),
        error("e unlocated"),
        error("e main early", "", _at(MAIN, 2)),
        error("e main early longer", "", _at(MAIN, 2, 8)),
        error("e other", "", _at(OTHER, 0)),
        warning("w main", "", _at(MAIN, 20)),
    ]
    order = [d.summary for d in sorted(diags, key=sort_key)]
    assert order == ["w main", "e unlocated", "e other", "e main early", "e main early longer",
                     "e main late", "e nested"]


def test_equal_keys_keep_reported_order() -> None:
    a, b = error("first", "", _at(MAIN, 3)), error("second", "", _at(MAIN, 3))
    assert [d.summary for d in sorted([a, b], key=sort_key)] == ["first", "second"]


def test_warnings_with_one_summary_fold_into_the_first() -> None:
    diags = [warning("Same", "Detail.", _at(MAIN, i)) for i in (0, 9, 18)]
    [(shown, count)] = consolidate_warnings(diags, 1)
    assert count == 3
    assert shown.subject == diags[0].subject
    assert shown.detail == "Detail.\n\n(and 2 more similar warnings elsewhere)"


def test_one_more_and_empty_detail() -> None:
    diags = [warning("Same", "", _at(MAIN, 0)), warning("Same", "", _at(MAIN, 9))]
    [(shown, count)] = consolidate_warnings(diags, 1)
    assert (shown.detail, count) == ("(and one more similar warning elsewhere)", 2)


def test_errors_unlocated_and_check_warnings_are_never_folded() -> None:
    check = dataclasses.replace(warning("Check", "x", _at(MAIN, 0)), extra=NO_CONSOLIDATE)
    diags = [error("E", "", _at(MAIN, 0)), error("E", "", _at(MAIN, 9)), warning("U"),
             warning("U"), check, dataclasses.replace(check, subject=_at(MAIN, 9))]
    kept = consolidate_warnings(diags, 1)
    assert [(d.summary, n) for d, n in kept] == [("E", 1), ("E", 1), ("U", 1), ("U", 1),
                                                 ("Check", 1), ("Check", 1)]
    assert all("similar" not in d.detail for d, _ in kept)


def test_threshold_two_shows_the_first_and_folds_from_the_second() -> None:
    diags = [warning("Same", "d", _at(MAIN, i)) for i in (0, 9, 18, 20)]
    kept = consolidate_warnings(diags, 2)
    assert [(d.detail, n) for d, n in kept] == [
        ("d", 1), ("d\n\n(and 2 more similar warnings elsewhere)", 3)]


def test_for_people_sorts_before_folding() -> None:
    late, early = warning("Same", "d", _at(MAIN, 18)), warning("Same", "d", _at(MAIN, 0))
    [(shown, count)] = for_people([late, early])
    assert shown.subject == early.subject and count == 2


def test_compact_list() -> None:
    text = compact_warnings([(warning("A", "", _at(MAIN, 9)), 3), (warning("B"), 1),
                             (warning("C"), 2)])
    assert text == ("- A\n  on main.tf line 2 (and 2 more)\n- B\n"
                    "- C\n  (2 occurences of this warning)\n")
