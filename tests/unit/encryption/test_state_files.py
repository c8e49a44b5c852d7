"""Every file the state manager writes is encrypted like the state: the state, its backup,
the apply journal (one encrypted record a line) and errored.tfstate; a journal left by a
stopped run is replayed through the same encryption."""

from __future__ import annotations

from pathlib import Path

from engine.addrs import parse_abs_resource_instance
from engine.diags import Diagnostics, error
from engine.states.local import LocalState
from engine.states.lock import FilesystemLocker
from engine.states.manager import StateManager
from engine.states.state import ResourceInstanceObject, State
from tests.unit.encryption.support import aes, build, pbkdf2

SECRET = "s3cr3t-database-password-0451"
P = 'provider["registry.terraform.io/hashicorp/null"]'


def _encryption(tmp: Path) -> object:
    enc, diags = build(tmp / "cfg", pbkdf2("k") + aes("m", "key_provider.pbkdf2.k")
                       + "state { method = method.aes_gcm.m }\n")
    assert not diags.has_errors
    return enc.state


def _manager(tmp: Path, enc: object) -> StateManager:
    path = str(tmp / "terraform.tfstate")
    return StateManager(LocalState(path, encryption=enc), FilesystemLocker(path),  # type: ignore[arg-type]
                        snapshot_interval=0, errored_path=str(tmp / "errored.tfstate"))


def _record(mgr: StateManager, i: int) -> None:
    addr = parse_abs_resource_instance(f"null_resource.r[{i}]")
    seq, diags = mgr.record_intent(addr, "create")
    assert not diags
    obj = ResourceInstanceObject(attributes={"id": f"id-{i}", "password": SECRET})
    assert not mgr.record_result(addr, seq, obj, provider=P)


def _no_secret(tmp: Path) -> None:
    for f in tmp.rglob("*"):
        if f.is_file():
            assert SECRET.encode() not in f.read_bytes(), f
            assert SECRET[:10].encode() not in f.read_bytes(), f


def test_journal_backup_and_recovery_are_encrypted(tmp_path: Path) -> None:
    enc = _encryption(tmp_path)
    mgr = _manager(tmp_path, enc)
    with mgr.locked("OperationTypeApply"):
        assert not mgr.begin_apply()
        _record(mgr, 1)
        assert not mgr.finish()
    mgr = _manager(tmp_path, enc)
    with mgr.locked("OperationTypeApply"):
        assert not mgr.begin_apply()
        _record(mgr, 2)
        journal = Path(mgr.journal_path).read_bytes()
        assert journal.count(b"\n") == 2 and journal.count(b'"encryption_version":"v0"') == 2
        _no_secret(tmp_path)
        assert mgr._journal is not None
        mgr._journal.close()  # the run stops here: the journal stays
    nxt = _manager(tmp_path, _encryption(tmp_path / "again"))  # a new process
    with nxt.locked("OperationTypeApply"):
        assert not nxt.recover().has_errors
    sf, diags = LocalState(str(tmp_path / "terraform.tfstate"), encryption=enc).read()
    assert not diags.has_errors and sf is not None
    ids = sorted(i.current.attributes["id"] for r in sf.state.resources for i in r.instances
                 if i.current is not None)
    assert ids == ["id-1", "id-2"]
    assert (tmp_path / "terraform.tfstate.backup").read_bytes().startswith(b'{"serial":')
    _no_secret(tmp_path)


def test_errored_state_is_encrypted(tmp_path: Path) -> None:
    enc = _encryption(tmp_path)
    mgr = _manager(tmp_path, enc)
    state = State()
    diags = mgr._save_errored(state, Diagnostics([error("disk full")]))
    assert any(d.summary == "Failed to persist state to backend" for d in diags)
    stored = (tmp_path / "errored.tfstate").read_bytes()
    assert stored.startswith(b'{"serial":1,')
    assert enc.decrypt(stored).startswith(b"{")  # type: ignore[attr-defined]
