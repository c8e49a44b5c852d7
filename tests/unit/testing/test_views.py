"""The summary line terraform prints after a test suite."""

from __future__ import annotations

from engine.testing.files import Run, TestFile
from engine.testing.runner import ERROR, FAIL, PASS, PENDING, SKIP, FileResult, RunResult
from engine.testing.views import conclusion_text


def _files(*statuses: int) -> list[FileResult]:
    tf = TestFile("t.tftest.hcl")
    runs = [RunResult(Run(f"r{i}", None), i, s) for i, s in enumerate(statuses)]  # type: ignore[arg-type]
    return [FileResult(tf, max(statuses, default=PASS), runs)]


def test_success_failure_and_skips() -> None:
    assert conclusion_text(_files(PASS, PASS), PASS) == "Success! 2 passed, 0 failed."
    assert conclusion_text(_files(PASS, FAIL, ERROR), ERROR) == "Failure! 1 passed, 2 failed."
    assert conclusion_text(_files(ERROR, SKIP), ERROR) == "Failure! 0 passed, 1 failed, 1 skipped."
    assert conclusion_text([], PENDING) == "Executed 0 tests."
