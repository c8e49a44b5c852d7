"""State files that cannot be used: terraform's diagnostics, never an exception, never a
half-written file.

The expected texts are what terraform 1.11.4 prints for the same files (checked against the
binary in tests/functional/test_bad_files.py); here they pin `read_state`, `LocalState` and
`go_syntax_error` without a subprocess.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.diags import Diagnostics
from engine.gocompat.json_syntax import go_syntax_error
from engine.states import LocalState, State, read_state
from engine.states import local as local_mod
from engine.states.state import OutputValue, StateFile
from engine.states.statefile import write_state
from engine.values import string

UNSUPPORTED = "Unsupported state file format"
NO_VERSION = ('The state file does not have a "version" attribute, which is required to '
              "identify the format version.")
NULL = 'provider["registry.terraform.io/hashicorp/null"]'


def errors(diags: Diagnostics) -> list[tuple[str, str]]:
    return [(d.summary, d.detail) for d in diags.errors]


def v4(resources: list[object] | None = None, **top: object) -> str:
    doc: dict[str, object] = {"version": 4, "terraform_version": "1.11.4", "serial": 1,
                              "lineage": "l", "outputs": {}, "resources": resources or []}
    doc.update(top)
    return json.dumps(doc)


def resource(**fields: object) -> dict[str, object]:
    rs: dict[str, object] = {"mode": "managed", "type": "null_resource", "name": "a",
                             "provider": NULL,
                             "instances": [{"schema_version": 0, "attributes": {"id": "1"}}]}
    rs.update(fields)
    return rs


# ------------------------------------------------------------------ Go's JSON syntax errors
@pytest.mark.parametrize(
    ("data", "message", "offset"),
    [
        (b'{"version": 4, "terraform_version": "1.11.4", "ser', "unexpected end of JSON input", 50),
        (b'{"version": 4,, }', "invalid character ',' looking for beginning of object key string", 15),
        (b"not a zip\n", "invalid character 'o' in literal null (expecting 'u')", 2),
        (b"PK\x03\x04", "invalid character 'P' looking for beginning of value", 1),
        (b"\n  \n", "unexpected end of JSON input", 4),
        (b"{} x", "invalid character 'x' after top-level value", 4),
        (b'"\\x"', "invalid character 'x' in string escape code", 3),
        (b"[1,]", "invalid character ']' looking for beginning of value", 4),
        (b'{"a" 1}', "invalid character '1' after object key", 6),
        (b'{"a": 1 "b"}', "invalid character '\"' after object key:value pair", 9),
        (b"[1 2]", "invalid character '2' after array element", 4),
        (b"1.x", "invalid character 'x' after decimal point in numeric literal", 3),
        (b"-", "invalid character ' ' in numeric literal", 1),
        (b"1e+", "invalid character ' ' in exponent of numeric literal", 3),
        (b'"a\x01"', "invalid character '\\x01' in string literal", 3),
        (b'"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape", 6),
        (b"'a'", "invalid character '\\'' looking for beginning of value", 1),
    ],
)
def test_go_syntax_errors(data: bytes, message: str, offset: int) -> None:
    found = go_syntax_error(data)
    assert found is not None
    assert (found.msg, found.offset) == (message, offset)


@pytest.mark.parametrize("data", [b"{}", b"[1, 2.5e-3, -0]", b' {"a": [true, false, null]} ', b"12"])
def test_go_syntax_accepts_valid_json(data: bytes) -> None:
    assert go_syntax_error(data) is None


# ------------------------------------------------------------------ format and version
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"version": 4, "ser', [
            (UNSUPPORTED, "The state file could not be parsed as JSON: syntax error at byte offset 19."),
            (UNSUPPORTED, NO_VERSION)]),
        ("\n", [
            (UNSUPPORTED, "The state file could not be parsed as JSON: syntax error at byte offset 1."),
            (UNSUPPORTED, NO_VERSION)]),
        ("[1,2]", [
            (UNSUPPORTED, "The version in the state file is array. A positive whole number is required."),
            (UNSUPPORTED, NO_VERSION)]),
        ("null", [(UNSUPPORTED, NO_VERSION)]),
        ('{"serial": 1}', [(UNSUPPORTED, NO_VERSION)]),
        ('{"version": "4"}', [
            (UNSUPPORTED, "The version in the state file is string. A positive whole number is required.")]),
        ('{"version": -1}', [
            (UNSUPPORTED, "The version in the state file is number -1. A positive whole number is required.")]),
        ('{"version": 4.5}', [
            (UNSUPPORTED, "The version in the state file is number 4.5. A positive whole number is required.")]),
        ('{"version": 0}', [(UNSUPPORTED, (
            "The state file uses JSON syntax but has a version number of zero. There was never a "
            "JSON-based state format zero, so this state file is invalid and cannot be processed."))]),
        ('{"version": 5, "terraform_version": "2.0.0"}', [(UNSUPPORTED, (
            "The state file uses format version 5, which is not supported by Terraform 1.11.4. "
            "This state file was created by Terraform 2.0.0."))]),
        ('{"version": 5}', [(UNSUPPORTED, (
            "The state file uses format version 5, which is not supported by Terraform 1.11.4. "
            "This state file may have been created by a newer version of Terraform."))]),
        ("tfstate\x00\x01binary", [(UNSUPPORTED, (
            "The state is stored in a legacy binary format that is not supported since Terraform "
            "v0.7. To continue, first upgrade the state using Terraform 0.6.16 or earlier."))]),
    ],
)
def test_unusable_documents(text: str, expected: list[tuple[str, str]]) -> None:
    sf, diags = read_state(text)
    assert sf is None
    assert errors(diags) == expected


def test_version_3_is_upgraded_as_terraform_upgrades_it() -> None:
    sf, diags = read_state('{"version": 3, "terraform_version": "0.11.14", "serial": 2, '
                           '"lineage": "l", "modules": [{"path": ["root"], "resources": '
                           '{"null_resource.a.1": {"primary": {"id": "x", "tainted": true}}}}]}')
    assert not diags.has_errors and sf is not None
    assert (sf.lineage, sf.serial, sf.terraform_version) == ("l", 2, "0.11.14")
    [rs] = sf.state.resources
    assert (rs.type, rs.name, rs.provider) == (
        "null_resource", "a", 'provider["registry.terraform.io/-/null"]')
    [inst] = rs.instances
    assert inst.index_key == 1
    assert inst.current is not None and inst.current.attributes_flat == {"id": "x"}
    assert inst.current.status == "tainted"


def test_version_3_that_cannot_be_upgraded() -> None:
    sf, diags = read_state('{"version": 3, "modules": [{"path": ["child"]}]}')
    assert sf is None
    [(summary, detail)] = errors(diags)
    assert summary == "State format upgrade failed"
    assert detail == ("Error upgrading state file format from version 3 to version 4: state "
                      'contains invalid module path []string{"child"}.')


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"version": 4, "lineage": 5}',
         ("Invalid state file format", 'The state file field "lineage" has invalid value number')),
        ('{"version": 4, "serial": "1"}',
         ("Invalid state file format", 'The state file field "serial" has invalid value string')),
        ('{"version": 4, "serial": -2}',
         ("Invalid state file format", 'The state file field "serial" has invalid value number -2')),
        ('{"version": 4, "resources": {}}',
         ("Invalid state file format", 'The state file field "resources" has invalid value object')),
        (v4([resource(instances=[{"schema_version": "x"}])]),
         ("Invalid state file format",
          'The state file field "resources.instances.schema_version" has invalid value string')),
        (v4([resource(mode=7)]),
         ("Invalid state file format", 'The state file field "resources.mode" has invalid value number')),
    ],
)
def test_invalid_structure(text: str, expected: tuple[str, str]) -> None:
    sf, diags = read_state(text)
    assert sf is None
    assert errors(diags) == [expected]


# ------------------------------------------------------------------ v4 content
META = "Invalid resource instance metadata in state"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (v4([resource(mode="weird")]), [("Invalid resource mode in state", (
            'State contains a resource with mode "weird" ("null_resource" "a") which is not supported.'))]),
        (v4([resource(instances=[{"index_key": True, "attributes": {}}])]), [(META, (
            "Resource null_resource.a has an instance with the invalid instance key true."))]),
        (v4([resource(instances=[{"index_key": [1, "a"], "attributes": {}}])]), [(META, (
            'Resource null_resource.a has an instance with the invalid instance key []interface {}{1, "a"}.'))]),
        (v4([resource(instances=[{"status": "zzz", "attributes": {}}])]), [(META, (
            'Instance null_resource.a has invalid status "zzz".'))]),
        (v4([resource(instances=[{"index_key": 0, "deposed": "abc", "attributes": {}}])]), [(META, (
            'Instance null_resource.a[0] has an object with deposed key "abc", which is not correctly formatted.'))]),
        (v4([resource(instances=[{"attributes": {}}, {"attributes": {}}])]), [(
            "Duplicate resource instance in state",
            "Instance null_resource.a appears multiple times in the state file.")]),
        (v4(terraform_version="banana"), [("Invalid Terraform version string", (
            'State file claims to have been written by Terraform version "banana", which is not a valid '
            "version string."))]),
        (v4(outputs={"o": {"value": 1, "type": "banana"}}), [("Invalid output value type in state", (
            'The state file has an invalid type specification for output "o": invalid primitive type '
            'name "banana".'))]),
    ],
)
def test_invalid_content(text: str, expected: list[tuple[str, str]]) -> None:
    sf, diags = read_state(text)
    assert sf is None
    assert errors(diags) == expected


@pytest.mark.parametrize(
    "text",
    [
        v4(lineage=None),  # missing lineage: terraform reads it (and plans) as ""
        v4(terraform_version="9.9.9"),  # newer terraform_version: not an error in 1.11
        v4([resource()]),  # a provider the configuration may not mention: the planner's business
        v4([resource(instances=[{"index_key": 1.0, "attributes": {}}])]),  # JSON number keys
    ],
)
def test_readable_oddities(text: str) -> None:
    sf, diags = read_state(text)
    assert not diags.has_errors and sf is not None


def test_bytes_that_are_not_utf8_are_a_diagnostic() -> None:
    sf, diags = read_state(b"\xff\xfe{}")
    assert sf is None
    assert errors(diags)[0] == (
        UNSUPPORTED, "The state file could not be parsed as JSON: syntax error at byte offset 1.")


# ------------------------------------------------------------------ LocalState reading
def test_directory_in_place_of_the_state_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "terraform.tfstate").mkdir()
    sf, diags = LocalState(str(tmp_path / "terraform.tfstate")).read()
    assert sf is None
    assert errors(diags) == [("Failed to read state file",
                              "The state file could not be read: read terraform.tfstate: is a directory")]


def test_empty_file_is_no_state_but_whitespace_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "terraform.tfstate"
    path.write_bytes(b"")
    assert LocalState(str(path)).read() == (None, Diagnostics())
    path.write_bytes(b" \n")
    sf, diags = LocalState(str(path)).read()
    assert sf is None and diags.has_errors


def test_an_unreadable_state_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "terraform.tfstate"
    path.write_text('{"version": 4, "ser')
    storage = LocalState(str(path))
    _, diags = storage.read()
    assert diags.has_errors
    written, wdiags = storage.write(State())
    assert written is None
    assert [d.summary for d in wdiags.errors] == ["Failed to save state"]
    assert path.read_text() == '{"version": 4, "ser'
    assert not (tmp_path / "terraform.tfstate.backup").exists()


# ------------------------------------------------------------------ durability
def _state_with_output(value: str) -> State:
    st = State()
    st.outputs["o"] = OutputValue(string(value))
    return st


def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith(".tmp-"))


def test_failure_in_the_middle_of_writing_keeps_the_old_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "terraform.tfstate"
    storage = LocalState(str(path))
    first, diags = storage.write(_state_with_output("one"))
    assert first is not None and not diags.has_errors
    before = path.read_bytes()

    def broken_fsync(fd: int) -> None:  # the data is half on its way to disk
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(local_mod.os, "fsync", broken_fsync)
    written, diags = storage.write(_state_with_output("two"))
    assert written is None
    assert [d.summary for d in diags.errors] == ["Failed to save state"]
    assert "No space left on device" in diags.errors[0].detail
    assert path.read_bytes() == before
    assert _leftovers(tmp_path) == []


def test_failed_rename_keeps_the_old_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "terraform.tfstate"
    storage = LocalState(str(path))
    storage.write(_state_with_output("one"))
    before = path.read_bytes()

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(13, "Permission denied")

    monkeypatch.setattr(local_mod.os, "replace", broken_replace)
    written, diags = storage.write(_state_with_output("two"))
    assert written is None and diags.has_errors
    assert path.read_bytes() == before
    assert _leftovers(tmp_path) == []


def test_serialiser_failure_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "terraform.tfstate"
    storage = LocalState(str(path))
    storage.write(_state_with_output("one"))
    before = path.read_bytes()

    def broken_write_state(sf: StateFile) -> str:
        raise ValueError("cannot encode this value")

    monkeypatch.setattr(local_mod, "write_state", broken_write_state)
    written, diags = storage.write(_state_with_output("two"))
    assert written is None
    assert [(d.summary, d.detail) for d in diags.errors] == [
        ("Failed to serialize state", "cannot encode this value")]
    assert path.read_bytes() == before
    assert not (tmp_path / "terraform.tfstate.backup").exists()
    assert _leftovers(tmp_path) == []


def test_backup_keeps_the_previous_snapshot(tmp_path: Path) -> None:
    path = tmp_path / "terraform.tfstate"
    LocalState(str(path)).write(_state_with_output("one"))
    before = path.read_bytes()
    storage = LocalState(str(path))
    storage.read()
    written, diags = storage.write(_state_with_output("two"))
    assert written is not None and not diags.has_errors
    assert (tmp_path / "terraform.tfstate.backup").read_bytes() == before
    assert read_state(path.read_bytes())[0] is not None
    assert os.stat(path).st_mode & 0o777 == 0o644


def test_written_state_reads_back() -> None:
    sf = StateFile(_state_with_output("x"), lineage="l", serial=3, terraform_version="1.11.4")
    back, diags = read_state(write_state(sf))
    assert not diags.has_errors and back is not None
    assert (back.lineage, back.serial) == ("l", 3)


def test_a_byte_order_mark_is_a_syntax_error_as_in_go() -> None:
    # terraform 1.11: "syntax error at byte offset 1" for a UTF-8 BOM before valid JSON
    sf, diags = read_state(b"\xef\xbb\xbf" + v4().encode())
    assert sf is None
    assert errors(diags) == [
        (UNSUPPORTED, "The state file could not be parsed as JSON: syntax error at byte offset 1."),
        (UNSUPPORTED, NO_VERSION)]
