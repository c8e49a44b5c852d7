"""Saved plan files that cannot be used: terraform's messages as diagnostics, never a
traceback; and a plan is never left half-written.

The messages are those terraform 1.11.4 prints for the same files (`apply FILE`), checked
against the binary in tests/functional/test_bad_files.py.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from engine.diags import Diagnostics
from engine.plans import planfile as planfile_mod
from engine.plans.model import Action, OutputChange, Plan, PlanMode
from engine.plans.planfile import (
    PLAN_MEMBER,
    STATE_MEMBER,
    ConfigSnapshot,
    read_planfile,
    write_planfile,
)
from engine.states import State, StateFile
from engine.values import DYNAMIC, null, string

NEITHER = "couldn't load the provided path as either a local plan file ({}) or a saved cloud plan ({})"


def a_plan() -> Plan:
    return Plan(mode=PlanMode.NORMAL,
                output_changes=[OutputChange("o", Action.CREATE, null(DYNAMIC), string("x"))])


def a_state() -> StateFile:
    return StateFile(State(), lineage="lin", serial=2, terraform_version="1.11.4")


def write_good(path: Path) -> None:
    diags = write_planfile(str(path), a_plan(), a_state(), None, ConfigSnapshot())
    assert not diags.has_errors


def detail(diags: Diagnostics, path: Path) -> str:
    [d] = diags.errors
    assert d.summary == f'Failed to load "{path}" as a plan file'
    assert d.detail.startswith("Error: ")
    return d.detail.removeprefix("Error: ")


def rezip(src: Path, dst: Path, replace: dict[str, bytes | None]) -> None:
    """`src` copied to `dst` with members replaced (None drops a member)."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for name in zin.namelist():
            data = replace.get(name, zin.read(name))
            if data is not None:
                zout.writestr(name, data)


# ------------------------------------------------------------------ not a plan at all
@pytest.mark.parametrize(
    ("content", "local", "cloud"),
    [
        (b"not a zip\n", "zip: not a valid zip file",
         "invalid character 'o' in literal null (expecting 'u')"),
        (b"", "zip: not a valid zip file", "unexpected end of JSON input"),
        (b'{"a": 1}', "zip: not a valid zip file", "invalid remote plan format, must be 1"),
        (b'{"remote_plan_format": 1}', "zip: not a valid zip file", "invalid hostname"),
        (b'{"remote_plan_format": 1, "hostname": "h"}', "zip: not a valid zip file",
         "invalid run ID"),
        (b"[1]", "zip: not a valid zip file",
         "json: cannot unmarshal array into Go value of type cloudplan.SavedPlanBookmark"),
        (b'{"remote_plan_format": "1"}', "zip: not a valid zip file",
         "json: cannot unmarshal string into Go struct field SavedPlanBookmark.remote_plan_format "
         "of type int"),
    ],
)
def test_not_a_plan_file(tmp_path: Path, content: bytes, local: str, cloud: str) -> None:
    path = tmp_path / "p.plan"
    path.write_bytes(content)
    pf, diags = read_planfile(str(path))
    assert pf is None
    assert detail(diags, path) == NEITHER.format(local, cloud)


def test_zip_without_a_plan(tmp_path: Path) -> None:
    path = tmp_path / "p.plan"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("other", "x")
    pf, diags = read_planfile(str(path))
    assert pf is None
    assert detail(diags, path) == NEITHER.format(
        "the given file is not a valid plan file",
        "invalid character 'P' looking for beginning of value")


def test_truncated_plan_file(tmp_path: Path) -> None:
    good = tmp_path / "good.plan"
    write_good(good)
    path = tmp_path / "p.plan"
    path.write_bytes(good.read_bytes()[:300])
    pf, diags = read_planfile(str(path))
    assert pf is None
    assert detail(diags, path) == NEITHER.format(
        "zip: not a valid zip file", "invalid character 'P' looking for beginning of value")


def test_plan_written_by_terraform(tmp_path: Path) -> None:
    path = tmp_path / "p.plan"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("tfplan", b"\x0a\x02\x08\x01protobuf")
        zf.writestr("tfstate", "{}")
    pf, diags = read_planfile(str(path))
    assert pf is None
    assert detail(diags, path) == (
        "the given plan file was created by Terraform, not by groundplan; plan files cannot be "
        "transferred between different programs or versions")


# ------------------------------------------------------------------ damaged members
def test_member_with_a_bad_checksum(tmp_path: Path) -> None:
    good = tmp_path / "good.plan"
    write_planfile(str(tmp_path / "src.plan"), a_plan(), None, None, ConfigSnapshot())
    with zipfile.ZipFile(good, "w", compression=zipfile.ZIP_STORED) as zf, \
            zipfile.ZipFile(tmp_path / "src.plan") as src:
        for name in src.namelist():
            zf.writestr(name, src.read(name))
    data = bytearray(good.read_bytes())
    at = data.index(b'"mode"')  # inside the stored tfplan.json: its CRC no longer matches
    data[at + 1] = ord("M")
    path = tmp_path / "p.plan"
    path.write_bytes(bytes(data))
    pf, diags = read_planfile(str(path))
    assert pf is None
    assert detail(diags, path).startswith("failed to read plan from plan file: Bad CRC-32")


@pytest.mark.parametrize(
    "document",
    [b"{not json", b"[]", b'{"mode": 5}', json.dumps({"version": 99}).encode(), b"\xff\xfe"],
)
def test_malformed_plan_document(tmp_path: Path, document: bytes) -> None:
    good = tmp_path / "good.plan"
    write_good(good)
    path = tmp_path / "p.plan"
    rezip(good, path, {PLAN_MEMBER: document})
    pf, diags = read_planfile(str(path))
    assert pf is None
    assert detail(diags, path).startswith("failed to read plan from plan file: ")


def test_prior_state_in_the_plan_is_unreadable(tmp_path: Path) -> None:
    good = tmp_path / "good.plan"
    write_good(good)
    path = tmp_path / "p.plan"
    rezip(good, path, {STATE_MEMBER: b'{"version": 5}'})
    pf, diags = read_planfile(str(path))
    assert pf is None
    assert detail(diags, path).startswith(
        "failed to read prior state from plan file: The state file uses format version 5")


def test_a_good_plan_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "p.plan"
    write_good(path)
    pf, diags = read_planfile(str(path))
    assert not diags.has_errors and pf is not None
    assert pf.prior_state is not None and pf.prior_state.lineage == "lin"


# ------------------------------------------------------------------ durability
def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith(".tfplan-"))


def test_failure_in_the_middle_of_writing_keeps_the_old_plan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "p.plan"
    write_good(path)
    before = path.read_bytes()

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(planfile_mod.os, "fsync", broken_fsync)
    diags = write_planfile(str(path), a_plan(), None, None, ConfigSnapshot())
    [d] = diags.errors
    assert d.summary == "Failed to write plan file"
    assert "No space left on device" in d.detail
    assert path.read_bytes() == before
    assert _leftovers(tmp_path) == []


def test_encoder_failure_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "p.plan"

    def broken_encode(plan: Plan) -> object:
        raise ValueError("cannot encode")

    monkeypatch.setattr(planfile_mod, "encode_plan", broken_encode)
    diags = write_planfile(str(path), a_plan(), None, None, ConfigSnapshot())
    assert [d.summary for d in diags.errors] == ["Failed to write plan file"]
    assert not path.exists()
    assert list(tmp_path.iterdir()) == []


def test_directory_that_cannot_take_the_plan(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "dir" / "p.plan"
    diags = write_planfile(str(missing), a_plan(), None, None, ConfigSnapshot())
    assert [d.summary for d in diags.errors] == ["Failed to write plan file"]
    assert not (tmp_path / "no").exists()
