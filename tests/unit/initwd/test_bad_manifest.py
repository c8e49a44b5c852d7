"""`.terraform/modules/modules.json` that terraform cannot decode, and writing it safely."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.initwd import ModuleRecord, check_manifest, read_manifest, write_manifest
from engine.initwd import modules as modules_mod

PREFIX = "failed to read module manifest: error unmarshalling snapshot: "


def put(root: Path, text: str) -> None:
    path = root / ".terraform" / "modules" / "modules.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("garbage{", "invalid character 'g' looking for beginning of value"),
        ("[1]", "json: cannot unmarshal array into Go value of type modsdir.manifestSnapshotFile"),
        ('{"Modules": 5}', "json: cannot unmarshal number into Go struct field "
                           "manifestSnapshotFile.Modules of type []modsdir.Record"),
        ('{"Modules": [1]}', "json: cannot unmarshal number into Go struct field "
                             "manifestSnapshotFile.Modules of type modsdir.Record"),
        ('{"Modules": [{"Key": 1}]}', "json: cannot unmarshal number into Go struct field "
                                      "Record.Modules.Key of type string"),
    ],
)
def test_undecodable_manifest(tmp_path: Path, text: str, expected: str) -> None:
    put(tmp_path, text)
    [d] = check_manifest(str(tmp_path)).errors
    assert (d.summary, d.detail) == (PREFIX + expected, "")
    assert read_manifest(str(tmp_path)) == []


@pytest.mark.parametrize("text", ["", "null", '{"Modules": null}', '{"Modules": []}'])
def test_empty_manifests_are_fine(tmp_path: Path, text: str) -> None:
    put(tmp_path, text)
    assert not check_manifest(str(tmp_path))
    assert read_manifest(str(tmp_path)) == []


def test_absent_manifest_is_fine(tmp_path: Path) -> None:
    assert not check_manifest(str(tmp_path))


def test_manifest_round_trip(tmp_path: Path) -> None:
    records = [ModuleRecord("", "", "."), ModuleRecord("m", "./mod", "mod")]
    assert not write_manifest(str(tmp_path), records)
    assert read_manifest(str(tmp_path)) == records
    assert not check_manifest(str(tmp_path))


def test_failed_write_keeps_the_old_manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    put(tmp_path, '{"Modules":[]}')

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(modules_mod.os, "fsync", broken_fsync)
    diags = write_manifest(str(tmp_path), [ModuleRecord("", "", ".")])
    assert [d.summary for d in diags.errors] == ["Failed to update module manifest"]
    directory = tmp_path / ".terraform" / "modules"
    assert (directory / "modules.json").read_text() == '{"Modules":[]}'
    assert sorted(p.name for p in directory.iterdir()) == ["modules.json"]
