"""The state commands reach state only through `meta.backend()`: with a backend whose storage
is not a local file (as the S3 backend's is not), they read and write through it, make no
local backup and leave nothing in the working directory."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from engine.backend import StateOptions
from engine.backend.base import DEFAULT_OPTIONS
from engine.cli.main import run
from engine.cli.meta import Meta
from engine.cli.ui import Ui
from engine.diags import Diagnostics
from engine.states.lock import LockError, LockInfo
from engine.states.manager import StateManager
from engine.states.state import (
    Resource,
    ResourceInstance,
    ResourceInstanceObject,
    State,
    StateFile,
)
from engine.states.statefile import states_equal, write_state


class MemoryStorage:
    """Storage keeping one snapshot in memory, with the persistence policy's serial rule."""

    path = "memory://state"

    def __init__(self, sf: StateFile | None) -> None:
        self.sf = sf
        self.writes = 0

    def read(self) -> tuple[StateFile | None, Diagnostics]:
        return self.sf, Diagnostics()

    def write(self, state: State) -> tuple[StateFile | None, Diagnostics]:
        prev = self.sf
        if prev is not None and states_equal(prev.state, state):
            return prev, Diagnostics()
        self.sf = StateFile(state, prev.lineage if prev else "new", (prev.serial if prev else 0) + 1)
        self.writes += 1
        return self.sf, Diagnostics()

    def write_file(self, sf: StateFile) -> tuple[StateFile | None, Diagnostics]:
        self.sf = sf
        self.writes += 1
        return sf, Diagnostics()


class MemoryLocker:
    """A lock that records who took it."""

    def __init__(self) -> None:
        self.operations: list[str] = []
        self.held = ""

    def lock(self, info: LockInfo) -> tuple[str, LockError | None]:
        self.operations.append(info.operation)
        self.held = info.id
        return info.id, None

    def unlock(self, lock_id: str) -> LockError | None:
        assert lock_id == self.held
        self.held = ""
        return None

    def force_unlock(self, lock_id: str) -> LockError | None:
        return None


class MemoryBackend:
    type_name = "memory"

    def __init__(self, storage: MemoryStorage) -> None:
        self._storage = storage
        self._locker = MemoryLocker()

    def workspaces(self) -> tuple[list[str], Diagnostics]:
        return ["default"], Diagnostics()

    def delete_workspace(self, name: str, force: bool = False) -> Diagnostics:
        return Diagnostics()

    def storage(self, workspace: str) -> tuple[MemoryStorage, Diagnostics]:
        return self._storage, Diagnostics()

    def locker(self, workspace: str) -> MemoryLocker:
        return self._locker

    def state_manager(
        self, workspace: str, options: StateOptions = DEFAULT_OPTIONS
    ) -> tuple[StateManager, Diagnostics]:
        return StateManager(self._storage, self._locker if options.lock else None), Diagnostics()


def _state() -> StateFile:
    def res(name: str, keys: list[int | None], provider: str) -> Resource:
        return Resource("managed", "terraform_data", name, provider, instances=[
            ResourceInstance(k, ResourceInstanceObject(attributes={"id": f"{name}{k}"}))
            for k in keys])

    builtin = 'provider["terraform.io/builtin/terraform"]'
    return StateFile(State(resources=[res("a", [None], builtin), res("c", [0, 1], builtin)]),
                     "lineage-1", 4)


@pytest.fixture()
def backend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MemoryBackend:
    found = MemoryBackend(MemoryStorage(_state()))
    monkeypatch.setattr(Meta, "backend", lambda self: found)
    monkeypatch.chdir(tmp_path)
    return found


def _run(*args: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    ui = Ui(stdout=out, stderr=err, stdin=io.StringIO(stdin), color=False)
    code = run(list(args), ui)
    return code, out.getvalue(), err.getvalue()


def _names(backend: MemoryBackend) -> list[str]:
    sf = backend._storage.sf
    assert sf is not None
    return [r.address + ("" if i.index_key is None else f"[{i.index_key}]")
            for r in sf.state.resources for i in r.instances]


def test_mv_rm_and_replace_provider_go_through_the_backend(backend: MemoryBackend) -> None:
    assert _run("state", "mv", "terraform_data.a", "terraform_data.b")[0] == 0
    assert _run("state", "rm", "terraform_data.c[0]")[0] == 0
    code, out, _ = _run("state", "replace-provider", "-auto-approve",
                        "terraform.io/builtin/terraform", "example.com/acme/terraform")
    assert code == 0 and "Successfully replaced provider for 2 resources." in out
    assert sorted(_names(backend)) == ["terraform_data.b", "terraform_data.c[1]"]
    sf = backend._storage.sf
    assert sf is not None and sf.serial == 7 and sf.lineage == "lineage-1"
    assert {r.provider for r in sf.state.resources} == {'provider["example.com/acme/terraform"]'}
    assert backend._locker.operations == ["state-mv", "state-rm", "state-replace-provider"]
    assert backend._locker.held == ""
    assert os.listdir(".") == []  # no local state, no backup


def test_pull_and_push_go_through_the_backend(backend: MemoryBackend) -> None:
    code, out, _ = _run("state", "pull")
    assert code == 0 and out == write_state(_state()) + "\n"
    Path("pushed.json").write_text(out.replace('"serial": 4', '"serial": 9'))
    assert _run("state", "push", "pushed.json")[0] == 0
    sf = backend._storage.sf
    assert sf is not None and (sf.lineage, sf.serial) == ("lineage-1", 9)
    code, _, err = _run("state", "push", "-", stdin=out.replace("lineage-1", "lineage-2"))
    assert code == 1 and 'cannot import state with lineage "lineage-2"' in err
    assert backend._locker.operations == ["state-push", "state-push"]
    assert sorted(os.listdir(".")) == ["pushed.json"]


def test_dry_run_and_lock_false_write_nothing(backend: MemoryBackend) -> None:
    assert _run("state", "rm", "-dry-run", "terraform_data.c")[0] == 0
    assert _run("state", "mv", "-dry-run", "-lock=false", "terraform_data.a", "terraform_data.z")[0] == 0
    assert backend._storage.writes == 0
    assert backend._locker.operations == ["state-rm"]


def test_a_failed_write_is_terraforms_error_and_leaves_the_state(
    backend: MemoryBackend, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine.diags import error

    def refuse(state: State) -> tuple[StateFile | None, Diagnostics]:
        diags = Diagnostics()
        diags.append(error("Failed to save state", "access denied"))
        return None, diags

    monkeypatch.setattr(backend._storage, "write", refuse)
    code, out, err = _run("state", "rm", "terraform_data.a")
    assert code == 1
    assert out == "Removed terraform_data.a\n"
    assert err.startswith("Error saving the state: Failed to save state: access denied\n\n"
                          "The state was not saved.")
    assert "terraform_data.a" in _names(backend) and backend._locker.held == ""


def test_legacy_backup_options_need_a_local_state(backend: MemoryBackend) -> None:
    code, _, err = _run("state", "mv", "-backup=b", "-backup-out=c", "terraform_data.a",
                        "terraform_data.b")
    assert code == 1
    assert "Error: Invalid command line options: -backup, -backup-out" in err
    assert _names(backend)[0] == "terraform_data.a"
