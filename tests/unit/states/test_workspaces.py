"""Workspaces of the local backend: names, layout, selection, what a workspace tracks, and
the `workspace` commands and state paths seen through the CLI (in-process)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from engine.backend import workspaces as ws
from engine.cli import main as cli_main
from engine.cli.meta import Meta
from engine.cli.ui import Ui
from engine.core.workspace import selected_workspace
from engine.diags import Diagnostics
from engine.states.state import Resource, ResourceInstance, ResourceInstanceObject, State


# ------------------------------------------------------------------------------ names
@pytest.mark.parametrize("name", ["default", "foo", "a-b_c.d~e", "x@y$", "a+b&c:d=e", "", "."])
def test_valid_names(name: str) -> None:
    assert ws.valid_name(name)


@pytest.mark.parametrize("name", ["a b", "a/b", "a;b", "a,b", "a?b", "é", "a%b", "a#b", "a\\b"])
def test_invalid_names(name: str) -> None:
    assert not ws.valid_name(name)


# ------------------------------------------------------------------------------ layout
def test_state_paths(tmp_path: Path) -> None:
    layout = ws.LocalWorkspaces(str(tmp_path))
    assert layout.state_path("default") == str(tmp_path / "terraform.tfstate")
    assert layout.state_path("") == str(tmp_path / "terraform.tfstate")
    assert layout.state_path("dev") == str(
        tmp_path / "terraform.tfstate.d" / "dev" / "terraform.tfstate")


def test_names_default_first_then_directories_in_byte_order(tmp_path: Path) -> None:
    layout = ws.LocalWorkspaces(str(tmp_path))
    assert layout.names() == (["default"], None)
    for name in ("zeta", "Beta", "alpha"):
        assert layout.ensure(name) is None
    (tmp_path / "terraform.tfstate.d" / "stray-file").write_text("x")
    assert layout.names() == (["default", "Beta", "alpha", "zeta"], None)


def test_ensure_default_creates_nothing(tmp_path: Path) -> None:
    assert ws.LocalWorkspaces(str(tmp_path)).ensure("default") is None
    assert not (tmp_path / "terraform.tfstate.d").exists()


def test_delete(tmp_path: Path) -> None:
    layout = ws.LocalWorkspaces(str(tmp_path))
    layout.ensure("dev")
    Path(layout.state_path("dev")).write_text("{}")
    assert layout.delete("dev") is None
    assert not (tmp_path / "terraform.tfstate.d" / "dev").exists()
    assert layout.delete("default") == "cannot delete default state"
    assert layout.delete("") == "empty state name"


# ------------------------------------------------------------------------------ selection
def test_selection_default_file_and_override(tmp_path: Path) -> None:
    cwd = str(tmp_path)
    assert ws.selected(cwd, {}) == ws.Selection("default", False)
    assert ws.select(cwd, {}, "dev") is None
    assert (tmp_path / ".terraform" / "environment").read_bytes() == b"dev"
    assert ws.selected(cwd, {}) == ws.Selection("dev", False)
    assert ws.selected(cwd, {"TF_WORKSPACE": "prod"}) == ws.Selection("prod", True)
    assert ws.selected(cwd, {"TF_WORKSPACE": ""}) == ws.Selection("dev", False)
    (tmp_path / ".terraform" / "environment").write_text("  \n")
    assert ws.selected(cwd, {}).name == "default"


def test_selection_honours_tf_data_dir(tmp_path: Path) -> None:
    env = {"TF_DATA_DIR": "data"}
    assert ws.select(str(tmp_path), env, "qa") is None
    assert (tmp_path / "data" / "environment").read_text() == "qa"
    assert ws.selected(str(tmp_path), env).name == "qa"
    assert ws.selected(str(tmp_path), {}).name == "default"


def test_invalid_override_is_an_error(tmp_path: Path) -> None:
    name, diags = ws.current(str(tmp_path), {"TF_WORKSPACE": "a b"})
    assert name == ""
    assert [d.summary for d in diags.errors] == [
        "Invalid workspace name set using TF_WORKSPACE"]
    # a name read from the environment file is used as it is (terraform 1.11)
    ws.select(str(tmp_path), {}, "a b")
    assert ws.current(str(tmp_path), {}) == ("a b", Diagnostics())


# ------------------------------------------------------------------------------ tracking
def _obj() -> ResourceInstanceObject:
    return ResourceInstanceObject(attributes={"id": "x"})


def test_tracked_objects_lists_current_and_deposed_in_address_order() -> None:
    state = State(resources=[
        Resource("managed", "terraform_data", "b", "p", instances=[
            ResourceInstance(index_key=10, current=_obj()),
            ResourceInstance(index_key=2, current=_obj(), deposed={"00000001": _obj()}),
        ]),
        Resource("managed", "terraform_data", "a", "p", instances=[
            ResourceInstance(current=_obj())]),
        Resource("data", "terraform_data", "d", "p", instances=[
            ResourceInstance(current=_obj())]),
    ])
    assert ws.tracked_objects(state) == [
        "terraform_data.a",
        "terraform_data.b[2]",
        "terraform_data.b[2] (deposed object 00000001)",
        "terraform_data.b[10]",
        "data.terraform_data.d",
    ]


def test_only_data_sources_is_empty() -> None:
    state = State(resources=[Resource("data", "t", "d", "p", instances=[
        ResourceInstance(current=_obj())])])
    assert ws.tracked_objects(state) == []
    assert ws.tracked_objects(State()) == []


# ------------------------------------------------------------------------------ CLI
def _run(argv: list[str], env: dict[str, str] | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = dict(os.environ)
    os.environ.pop("TF_WORKSPACE", None)
    os.environ.update(env or {})
    try:
        code = cli_main.run(argv, Ui(out, err, io.StringIO(""), color=False))
    finally:
        os.environ.clear()
        os.environ.update(old)
    return code, out.getvalue(), err.getvalue()


def test_cli_new_list_select_and_state_path(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert _run(["workspace", "new", "dev"])[0] == 0
    assert _run(["workspace", "list"]) == (0, "  default\n* dev\n\n", "")
    assert _run(["workspace", "show"]) == (0, "dev\n", "")
    meta = Meta(Ui(io.StringIO(), io.StringIO(), color=False))
    storage, _ = meta.state_storage()
    assert storage is not None and storage.path == str(
        tmp_path / "terraform.tfstate.d" / "dev" / "terraform.tfstate")
    assert selected_workspace() == "dev"
    code, out, err = _run(["workspace", "new", "dev"])
    assert (code, out, err) == (1, "", 'Workspace "dev" already exists\n')
    assert _run(["workspace", "select", "default"]) == (
        0, 'Switched to workspace "default".\n', "")
    Meta(Ui(io.StringIO(), io.StringIO(), color=False))
    assert selected_workspace() == "default"


def test_cli_delete_refusals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _run(["workspace", "new", "dev"])
    code, _, err = _run(["workspace", "delete", "dev"])
    assert code == 1 and 'Workspace "dev" is your active workspace.' in err
    code, _, err = _run(["workspace", "delete", "nope"])
    assert code == 1 and err.startswith('Workspace "nope" doesn\'t exist.')
    _run(["workspace", "select", "default"])
    assert _run(["workspace", "delete", "dev"]) == (0, 'Deleted workspace "dev"!\n', "")
    assert not (tmp_path / "terraform.tfstate.d" / "dev").exists()


def test_cli_invalid_tf_workspace_stops_state_commands(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(["output"], {"TF_WORKSPACE": "a/b"})
    assert code == 1 and out == ""
    assert "Error: Invalid workspace name set using TF_WORKSPACE" in err
    code, out, err = _run(["workspace", "show"], {"TF_WORKSPACE": "a/b"})
    assert (code, err) == (1, "Error selecting workspace: Invalid workspace name set using "
                              "TF_WORKSPACE\n")
    assert not (tmp_path / "terraform.tfstate.d").exists()
