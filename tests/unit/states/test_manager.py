"""The state manager: locking on every path, journal + snapshots, finish, errored.tfstate, recover."""

from __future__ import annotations

import os
import threading
import time
import tracemalloc
from pathlib import Path

import pytest

from engine.addrs import AbsResourceInstance, parse_abs_resource_instance
from engine.diags import Diagnostics, error
from engine.states.journal import read_journal
from engine.states.local import LocalState
from engine.states.lock import FilesystemLocker, lock_info_path, new_lock_info
from engine.states.manager import StateManager
from engine.states.state import ResourceInstanceObject, State, StateFile
from engine.states.statefile import read_state

P = 'provider["registry.terraform.io/hashicorp/null"]'


def addr(i: int) -> AbsResourceInstance:
    return parse_abs_resource_instance(f"null_resource.r[{i}]")


def obj(i: int) -> ResourceInstanceObject:
    return ResourceInstanceObject(attributes={"id": f"id-{i}", "triggers": None})


def manager(tmp_path: Path, **kw: object) -> StateManager:
    path = str(tmp_path / "terraform.tfstate")
    kw.setdefault("errored_path", str(tmp_path / "errored.tfstate"))
    return StateManager(LocalState(path), FilesystemLocker(path), **kw)  # type: ignore[arg-type]


def ids_in(path: Path) -> list[str]:
    sf, diags = read_state(path.read_text())
    assert sf is not None and not diags
    return sorted(
        i.current.attributes["id"]
        for r in sf.state.resources for i in r.instances if i.current is not None
    )


def record(mgr: StateManager, i: int) -> None:
    seq, diags = mgr.record_intent(addr(i), "create")
    assert not diags
    assert not mgr.record_result(addr(i), seq, obj(i), provider=P)


def test_apply_records_then_finish_writes_once_and_removes_journal(tmp_path: Path) -> None:
    mgr = manager(tmp_path, snapshot_interval=0)
    with mgr.locked("OperationTypeApply") as diags:
        assert not diags
        assert not mgr.recover()
        assert not mgr.begin_apply()
        for i in range(10):
            record(mgr, i)
        state_file = tmp_path / "terraform.tfstate"
        assert state_file.read_text() == ""  # recording never writes the state
        records, _ = read_journal(mgr.journal_path)
        assert len(records) == 20
        assert not mgr.finish()
    assert not os.path.exists(mgr.journal_path)
    assert ids_in(tmp_path / "terraform.tfstate") == sorted(f"id-{i}" for i in range(10))
    assert not os.path.exists(lock_info_path(str(tmp_path / "terraform.tfstate")))


def test_lock_is_released_when_the_block_raises(tmp_path: Path) -> None:
    mgr = manager(tmp_path)
    with pytest.raises(RuntimeError), mgr.locked("OperationTypeApply"):
        raise RuntimeError("boom")
    other = manager(tmp_path)
    with other.locked("OperationTypePlan") as diags:
        assert not diags


def test_second_manager_gets_terraforms_lock_error(tmp_path: Path) -> None:
    first, second = manager(tmp_path), manager(tmp_path)
    with first.locked("OperationTypeApply") as d1:
        assert not d1
        with second.locked("OperationTypePlan", 0.0) as d2:
            assert d2.errors[0].summary == "Error acquiring the state lock"
            assert "Operation: OperationTypeApply" in d2.errors[0].detail
    assert not os.path.exists(lock_info_path(str(tmp_path / "terraform.tfstate")))


def test_timer_persists_snapshots_while_recording(tmp_path: Path) -> None:
    mgr = manager(tmp_path, snapshot_interval=0.05)
    with mgr.locked("OperationTypeApply"):
        mgr.begin_apply()
        record(mgr, 1)
        state_file = tmp_path / "terraform.tfstate"
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and "id-1" not in state_file.read_text():
            time.sleep(0.01)
        assert ids_in(state_file) == ["id-1"]
        # The file is written before the journal learns its new base; a snapshot call waits
        # for the persister's critical section to end (and has nothing new to store).
        assert not mgr.persist_snapshot()
        records, _ = read_journal(mgr.journal_path)
        assert any(r.kind == "persist" for r in records)
        record(mgr, 2)  # records after the snapshot carry its lineage and serial
        records, _ = read_journal(mgr.journal_path)
        assert mgr.persisted is not None
        assert (records[-1].lineage, records[-1].serial) == (
            mgr.persisted.lineage, mgr.persisted.serial
        )
        assert not mgr.finish()
    assert ids_in(tmp_path / "terraform.tfstate") == ["id-1", "id-2"]


def test_request_persist_stores_a_snapshot_now(tmp_path: Path) -> None:
    mgr = manager(tmp_path, snapshot_interval=3600)
    with mgr.locked("OperationTypeApply"):
        mgr.begin_apply()
        record(mgr, 7)
        mgr.request_persist()  # what a SIGINT/SIGTERM handler calls
        state_file = tmp_path / "terraform.tfstate"
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and "id-7" not in state_file.read_text():
            time.sleep(0.01)
        assert ids_in(state_file) == ["id-7"]
        mgr.finish()


class FailingStorage:
    """LocalState whose writes fail while `fail` is set."""

    def __init__(self, path: str) -> None:
        self.inner = LocalState(path)
        self.path = path
        self.fail = False

    def read(self) -> tuple[StateFile | None, Diagnostics]:
        return self.inner.read()

    def write(self, state: State) -> tuple[StateFile | None, Diagnostics]:
        if self.fail:
            d = Diagnostics()
            d.append(error("Failed to save state", "s3: connection reset"))
            return None, d
        return self.inner.write(state)


def test_failed_final_write_goes_to_errored_tfstate_and_journal_survives(tmp_path: Path) -> None:
    path = str(tmp_path / "terraform.tfstate")
    storage = FailingStorage(path)
    errored = tmp_path / "errored.tfstate"
    mgr = StateManager(storage, FilesystemLocker(path), snapshot_interval=0,
                       errored_path=str(errored))
    with mgr.locked("OperationTypeApply"):
        mgr.begin_apply()
        for i in range(3):
            record(mgr, i)
        storage.fail = True
        diags = mgr.finish()
    assert [d.summary for d in diags.errors] == [
        "Failed to save state", "Failed to persist state to backend",
    ]
    assert diags.errors[0].detail == "Error saving state: s3: connection reset"
    assert 'the file "errored.tfstate" in the directory' in diags.errors[1].detail
    assert "groundplan state push errored.tfstate" in diags.errors[1].detail
    assert ids_in(errored) == ["id-0", "id-1", "id-2"]
    assert os.path.exists(mgr.journal_path)
    # the next run reconciles from the journal
    storage.fail = False
    nxt = StateManager(LocalState(path), FilesystemLocker(path))
    with nxt.locked("OperationTypeApply"):
        assert not nxt.recover()
    assert ids_in(tmp_path / "terraform.tfstate") == ["id-0", "id-1", "id-2"]


def test_errored_state_in_cwd_says_current_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    storage = FailingStorage("terraform.tfstate")
    mgr = StateManager(storage, None, snapshot_interval=0)
    mgr.begin_apply()
    record(mgr, 1)
    storage.fail = True
    diags = mgr.finish()
    assert 'the file "errored.tfstate" in the current working directory.' in (
        diags.errors[1].detail
    )
    assert (tmp_path / "errored.tfstate").exists()


def test_recover_names_begun_without_result(tmp_path: Path) -> None:
    mgr = manager(tmp_path, snapshot_interval=0)
    with mgr.locked("OperationTypeApply"):
        mgr.begin_apply()
        record(mgr, 1)
        mgr.record_intent(addr(2), "create")  # the crash comes during the provider call
        mgr.record_intent(addr(3), "delete")
        # no finish: simulate the crash by abandoning the manager
        assert mgr._journal is not None
        mgr._journal.close()
    nxt = manager(tmp_path)
    with nxt.locked("OperationTypeApply"):
        diags = nxt.recover()
    assert not diags.has_errors
    (w,) = diags.warnings
    assert w.summary == "Resources may have changed without being recorded in state"
    assert "  - null_resource.r[2] (create)\n  - null_resource.r[3] (delete)\n" in w.detail
    assert ids_in(tmp_path / "terraform.tfstate") == ["id-1"]
    assert not os.path.exists(nxt.journal_path)
    with nxt.locked("OperationTypeApply"):
        assert not nxt.recover()  # nothing left to do


def test_recover_refuses_a_journal_for_a_newer_or_other_state(tmp_path: Path) -> None:
    path = tmp_path / "terraform.tfstate"
    mgr = manager(tmp_path, snapshot_interval=0)
    mgr.begin_apply()
    record(mgr, 1)
    mgr.persist_snapshot()
    record(mgr, 2)
    assert mgr._journal is not None
    mgr._journal.close()
    # someone else (not knowing the journal) writes the state meanwhile
    other = LocalState(str(path))
    other.read()
    other.write(State())
    nxt = manager(tmp_path)
    diags = nxt.recover()
    assert diags.errors[0].summary == "The state journal does not match the state"
    assert "was written since" in diags.errors[0].detail
    assert os.path.exists(nxt.journal_path)
    assert nxt.begin_apply().errors[0].summary == "Unreconciled state journal"
    path.write_text(path.read_text().replace(mgr.persisted.lineage, "other-lineage"))  # type: ignore[union-attr]
    assert "lineage" in nxt.recover().errors[0].detail


def test_stop_with_sigkill_like_abandonment_keeps_lock_file_but_lock_is_free(
    tmp_path: Path,
) -> None:
    path = str(tmp_path / "terraform.tfstate")
    crashed = FilesystemLocker(path)
    crashed.lock(new_lock_info("OperationTypeApply"))
    crashed._close_all()  # what the kernel does when the holder dies
    mgr = manager(tmp_path)
    with mgr.locked("OperationTypeApply") as diags:
        assert not diags


def test_record_5000_results_time_and_memory(tmp_path: Path) -> None:
    """Measured: 5,000 results recorded (intent + result, fsync'd) from 8 threads."""
    mgr = manager(tmp_path, snapshot_interval=0)
    mgr.begin_apply()
    tracemalloc.start()
    start = time.perf_counter()

    def work(t: int) -> None:
        for i in range(t, 5000, 8):
            record(mgr, i)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    elapsed = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"\n5000 results: {elapsed:.2f}s, peak traced memory {peak / 1e6:.1f} MB")
    assert not mgr.finish()
    assert len(ids_in(tmp_path / "terraform.tfstate")) == 5000
    assert peak < 100e6  # persistence is O(changes): no copy of the state per result


def test_read_ahead_is_handed_to_the_next_read_once(tmp_path: Path) -> None:
    first = manager(tmp_path, snapshot_interval=0)
    with first.locked("OperationTypeApply"):
        first.begin_apply()
        record(first, 1)
        assert not first.finish()
    mgr = manager(tmp_path)
    reads: list[int] = []
    storage_read = mgr.storage.read

    def counting_read() -> tuple[StateFile | None, Diagnostics]:
        reads.append(1)
        return storage_read()

    mgr.storage.read = counting_read  # type: ignore[method-assign]
    with mgr.locked("OperationTypePlan"):
        assert not mgr.read_ahead()
        sf, diags = mgr.read()
        assert not diags and sf is not None and len(reads) == 1  # the file was read once
        assert sf.state.resources and sf is mgr.persisted
        mgr.read()
        assert len(reads) == 2  # only the next read is served from the read-ahead
