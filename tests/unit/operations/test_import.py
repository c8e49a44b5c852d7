"""The import operation without the CLI."""

from __future__ import annotations

import json
from pathlib import Path

from engine.operations import ImportRequest, import_resource
from tests.unit.operations.conftest import RecordingView, backend_of


def _request(root: Path, view: RecordingView, address: str, import_id: str) -> ImportRequest:
    return ImportRequest(working_dir=str(root), backend=backend_of(root), view=view,
                         address=address, import_id=import_id)


def test_import_writes_the_object_and_reports_progress(workdir: Path) -> None:
    (workdir / "main.tf").write_text('resource "terraform_data" "a" {}\n', encoding="utf-8")
    view = RecordingView()
    result = import_resource(_request(workdir, view, "terraform_data.a", "abc-123"))
    assert result.success, [d.summary for d in result.diagnostics]
    assert view.events[:2] == [("importing", ("terraform_data.a", "abc-123")),
                               ("prepared", ("terraform_data.a", "terraform_data"))]
    state = json.loads((workdir / "terraform.tfstate").read_text(encoding="utf-8"))
    [res] = state["resources"]
    assert res["instances"][0]["attributes"]["id"] == "abc-123"
    again = import_resource(_request(workdir, RecordingView(), "terraform_data.a", "abc-123"))
    assert [d.summary for d in again.diagnostics.errors] == [
        "Resource already managed by groundplan"]


def test_import_target_must_be_declared_and_managed(workdir: Path) -> None:
    (workdir / "main.tf").write_text('resource "terraform_data" "a" {}\n', encoding="utf-8")
    missing = import_resource(_request(workdir, RecordingView(), "terraform_data.b", "x"))
    assert missing.not_in_config and not missing.success
    data = import_resource(_request(workdir, RecordingView(), "data.terraform_data.a", "x"))
    assert [d.summary for d in data.diagnostics] == ["Invalid address"]
    bad = import_resource(_request(workdir, RecordingView(), "not an address", "x"))
    assert [d.summary for d in bad.diagnostics] == ["Invalid address"]
    assert not (workdir / "terraform.tfstate").exists()
