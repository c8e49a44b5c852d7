"""State locks: Terraform's lock info shape and messages, the local lock, timeouts, unlock."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from engine.states.local import atomic_write
from engine.states.lock import (
    FilesystemLocker,
    LockError,
    LockInfo,
    acquire,
    force_unlock,
    format_go_time,
    format_rfc3339_nano,
    lock_info_path,
    new_lock_info,
    parse_rfc3339_nano,
    release,
)

REPO = Path(__file__).resolve().parents[3]
TERRAFORM = shutil.which("terraform")

# A lock info file as terraform 1.11.4 writes it.
TF_LOCK_JSON = (
    '{"ID":"39f0672b-d22e-b418-3e3c-6d681576be30","Operation":"OperationTypeApply",'
    '"Info":"","Who":"root@vm","Version":"1.11.4","Created":"2026-11-30T14:29:07.7605166Z",'
    '"Path":"terraform.tfstate"}'
)

TF_MESSAGE_TAIL = """

groundplan acquires a state lock to protect the state from being written
by multiple users at the same time. Please resolve the issue above and try
again. For most commands, you can disable locking with the "-lock=false"
flag, but this is not recommended."""


def test_lock_info_reads_and_writes_terraform_json() -> None:
    info = LockInfo.from_json(TF_LOCK_JSON)
    assert info is not None
    assert info.id == "39f0672b-d22e-b418-3e3c-6d681576be30"
    assert info.operation == "OperationTypeApply"
    assert info.who == "root@vm"
    assert info.to_json() == TF_LOCK_JSON
    assert str(info) == (
        "Lock Info:\n"
        "  ID:        39f0672b-d22e-b418-3e3c-6d681576be30\n"
        "  Path:      terraform.tfstate\n"
        "  Operation: OperationTypeApply\n"
        "  Who:       root@vm\n"
        "  Version:   1.11.4\n"
        "  Created:   2026-11-30 14:29:07.7605166 +0000 UTC\n"
        "  Info:      \n"
    )
    assert LockInfo.from_json("not json") is None
    assert LockInfo.from_json("[1]") is None


def test_time_formats_keep_nanoseconds() -> None:
    ns = parse_rfc3339_nano("2025-05-21T11:46:36.226244812Z")
    assert ns is not None and ns % 1000 == 812
    assert format_rfc3339_nano(ns) == "2025-05-21T11:46:36.226244812Z"
    assert format_go_time(ns) == "2025-05-21 11:46:36.226244812 +0000 UTC"
    whole = parse_rfc3339_nano("2025-05-21T11:46:36Z")
    assert whole is not None and format_rfc3339_nano(whole) == "2025-05-21T11:46:36Z"
    assert parse_rfc3339_nano("2025-05-21T13:46:36+02:00") == whole
    assert parse_rfc3339_nano("yesterday") is None


def test_new_lock_info_fields() -> None:
    info = new_lock_info("OperationTypePlan", "extra")
    assert len(info.id) == 36 and info.id.count("-") == 4
    assert "@" in info.who
    assert info.version == "1.11.4"
    assert abs(info.created_ns - time.time_ns()) < 5_000_000_000
    doc = json.loads(info.to_json())
    assert list(doc) == ["ID", "Operation", "Info", "Who", "Version", "Created", "Path"]


def test_lock_info_path() -> None:
    assert lock_info_path("terraform.tfstate") == ".terraform.tfstate.lock.info"
    assert lock_info_path("a/b/x.tfstate") == "a/b/.x.tfstate.lock.info"
    assert lock_info_path(".hidden") == ".hidden.lock.info"


def test_lock_writes_info_and_excludes_a_second_locker(tmp_path: Path) -> None:
    path = str(tmp_path / "terraform.tfstate")
    first, second = FilesystemLocker(path), FilesystemLocker(path)
    lock_id, err = first.lock(new_lock_info("OperationTypeApply"))
    assert err is None and lock_id == first.lock_id
    on_disk = LockInfo.from_json((tmp_path / ".terraform.tfstate.lock.info").read_text())
    assert on_disk is not None and on_disk.id == lock_id and on_disk.path == path
    _, err2 = second.lock(new_lock_info("OperationTypePlan"))
    assert err2 is not None and err2.info is not None and err2.info.id == lock_id
    assert err2.message == "resource temporarily unavailable"
    again, err3 = first.lock(new_lock_info())
    assert again == "" and err3 is not None and "already locked" in err3.message
    assert first.unlock(lock_id) is None
    assert not (tmp_path / ".terraform.tfstate.lock.info").exists()
    assert not (tmp_path / "terraform.tfstate").exists()  # created empty, so cleaned up
    lock_id2, err4 = second.lock(new_lock_info())
    assert err4 is None and second.unlock(lock_id2) is None


def test_unlock_refuses_wrong_id(tmp_path: Path) -> None:
    locker = FilesystemLocker(str(tmp_path / "s.tfstate"))
    assert locker.unlock("x") == LockError("LocalState not locked")
    lock_id, _ = locker.lock(new_lock_info())
    err = locker.unlock("nope")
    assert err is not None
    assert err.message == f'invalid lock id: "nope". current id: "{lock_id}"'
    diags = release(locker, "nope")
    assert diags.has_errors and diags.errors[0].summary == "Error releasing the state lock"
    assert diags.errors[0].detail.startswith('Error message: invalid lock id: "nope".')
    assert not release(locker, lock_id).has_errors


def test_lock_survives_state_replacement_against_posix_lockers(tmp_path: Path) -> None:
    """After the state is renamed over, a POSIX (terraform-style) lock must still fail."""
    path = str(tmp_path / "terraform.tfstate")
    locker = FilesystemLocker(path)
    lock_id, _ = locker.lock(new_lock_info())
    probe = textwrap.dedent(
        f"""
        import fcntl, os, sys
        fd = os.open({path!r}, os.O_RDWR)
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            sys.exit(3)
        sys.exit(0)
        """
    )
    run = lambda: subprocess.run([sys.executable, "-c", probe]).returncode  # noqa: E731
    assert run() == 3
    atomic_write(path, "{}\n")
    assert run() == 0  # the rename moved the lock off the path ...
    locker.after_state_replaced()
    assert run() == 3  # ... and it is taken again on the new file
    # reading the state through another descriptor does not drop our lock
    with open(path) as fh:
        fh.read()
    assert run() == 3
    assert locker.unlock(lock_id) is None
    assert run() == 0


def test_stale_lock_info_from_crashed_holder_is_taken_over(tmp_path: Path) -> None:
    path = str(tmp_path / "terraform.tfstate")
    holder = textwrap.dedent(
        f"""
        import sys, time
        sys.path.insert(0, {str(REPO)!r})
        from engine.states.lock import FilesystemLocker, new_lock_info
        lk = FilesystemLocker({path!r})
        lid, err = lk.lock(new_lock_info("OperationTypeApply"))
        print(lid, flush=True)
        time.sleep(60)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", holder], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    held_id = proc.stdout.readline().strip()
    mine = FilesystemLocker(path)
    _, err = mine.lock(new_lock_info())
    assert err is not None and err.info is not None and err.info.id == held_id
    forced = mine.force_unlock(held_id)
    assert forced is not None
    assert forced.message == "Local state cannot be unlocked by another process"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert os.path.exists(lock_info_path(path))  # the crash left the info file behind
    lock_id, err = mine.lock(new_lock_info())
    assert err is None and lock_id != held_id
    assert mine.unlock(lock_id) is None


def test_force_unlock(tmp_path: Path) -> None:
    path = str(tmp_path / "terraform.tfstate")
    info_path = lock_info_path(path)
    locker = FilesystemLocker(path)
    assert force_unlock(locker, "abc").errors[0].summary == (
        "Failed to unlock state: LocalState not locked"
    )
    Path(info_path).write_text(TF_LOCK_JSON)  # stale: nobody holds a lock
    diags = force_unlock(locker, "abc")
    assert diags.errors[0].summary == (
        'Failed to unlock state: lock ID "abc" does not match existing lock ID '
        '"39f0672b-d22e-b418-3e3c-6d681576be30"'
    )
    assert "Lock Info:" in diags.errors[0].detail
    assert not force_unlock(locker, "39f0672b-d22e-b418-3e3c-6d681576be30").has_errors
    assert not os.path.exists(info_path)
    lock_id, _ = locker.lock(new_lock_info())
    assert force_unlock(locker, "wrong").has_errors
    assert not force_unlock(locker, lock_id).has_errors  # our own lock: released
    assert locker.lock_id == ""


class _FakeLocker:
    """Held by someone else until `free_after` attempts."""

    def __init__(self, free_after: int) -> None:
        self.attempts = 0
        self.free_after = free_after
        self.holder = LockInfo(id="held-id", operation="OperationTypeApply", path="p")

    def lock(self, info: LockInfo) -> tuple[str, LockError | None]:
        self.attempts += 1
        if self.attempts > self.free_after:
            return info.id, None
        return "", LockError("resource temporarily unavailable", self.holder)

    def unlock(self, lock_id: str) -> LockError | None:
        return None

    def force_unlock(self, lock_id: str) -> LockError | None:
        return None


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def sleep(self, s: float) -> None:
        self.sleeps.append(s)
        self.now += s

    def clock(self) -> float:
        return self.now


def test_acquire_retries_with_backoff_until_timeout() -> None:
    fake, clk = _FakeLocker(free_after=100), _Clock()
    lock_id, diags = acquire(fake, new_lock_info(), 40.0, sleep=clk.sleep, clock=clk.clock,
                            jitter=lambda: 1.0)
    assert lock_id == ""
    assert clk.sleeps == [1.0, 2.0, 4.0, 8.0, 16.0, 9.0]
    assert diags.errors[0].summary == "Error acquiring the state lock"
    assert diags.errors[0].detail == (
        "Error message: resource temporarily unavailable\n" + str(fake.holder) + TF_MESSAGE_TAIL
    )
    fake2, clk2 = _FakeLocker(free_after=2), _Clock()
    lock_id, diags = acquire(fake2, new_lock_info(), 10.0, sleep=clk2.sleep, clock=clk2.clock,
                            jitter=lambda: 1.0)
    assert lock_id and not diags and clk2.sleeps == [1.0, 2.0]
    fake3, clk3 = _FakeLocker(free_after=1), _Clock()
    _, diags = acquire(fake3, new_lock_info(), 0.0, sleep=clk3.sleep, clock=clk3.clock)
    assert diags.has_errors and clk3.sleeps == []


def test_acquire_waits_for_a_real_holder(tmp_path: Path) -> None:
    path = str(tmp_path / "terraform.tfstate")
    holder = FilesystemLocker(path)
    held, _ = holder.lock(new_lock_info())
    waiter = FilesystemLocker(path)
    waits: list[float] = []
    lock_id, diags = acquire(
        waiter, new_lock_info(), 5.0, jitter=lambda: 1.0,
        sleep=lambda s: (waits.append(s), holder.unlock(held))[0],  # type: ignore[func-returns-value]
    )
    assert lock_id and not diags
    assert waits == [1.0]  # one back-off, then the lock the holder released is taken
    assert waiter.unlock(lock_id) is None


# --------------------------------------------------------------------------- against terraform
def _tf_env() -> dict[str, str]:
    return dict(os.environ, TF_CLI_CONFIG_FILE="/dev/null", TF_IN_AUTOMATION="1")


def test_terraform_sees_our_lock_and_prints_our_lock_info(tmp_path: Path) -> None:
    assert TERRAFORM, "terraform must be on PATH (the oracle)"
    (tmp_path / "main.tf").write_text('output "x" { value = 1 }\n')
    locker = FilesystemLocker(str(tmp_path / "terraform.tfstate"))
    lock_id, _ = locker.lock(new_lock_info("OperationTypeApply", "held by a test"))
    try:
        out = subprocess.run(
            [TERRAFORM, "plan", "-no-color", "-input=false"], cwd=tmp_path, env=_tf_env(),
            capture_output=True, text=True, timeout=60,
        )
    finally:
        locker.unlock(lock_id)
    assert out.returncode == 1
    text = out.stderr
    assert "Error: Error acquiring the state lock" in text
    assert f"  ID:        {lock_id}" in text
    assert "  Info:      held by a test" in text
    assert "Operation: OperationTypeApply" in text


def test_we_see_terraforms_lock(tmp_path: Path) -> None:
    assert TERRAFORM, "terraform must be on PATH (the oracle)"
    (tmp_path / "main.tf").write_text(
        'resource "terraform_data" "s" {\n'
        '  provisioner "local-exec" { command = "sleep 3" }\n'
        "}\n"
    )
    proc = subprocess.Popen(
        [TERRAFORM, "apply", "-auto-approve", "-no-color", "-input=false"], cwd=tmp_path,
        env=_tf_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        info_file = tmp_path / ".terraform.tfstate.lock.info"
        deadline = time.monotonic() + 20
        tf_info = None
        while tf_info is None and time.monotonic() < deadline:
            time.sleep(0.05)
            if info_file.exists():  # terraform truncates, then writes
                tf_info = LockInfo.from_json(info_file.read_text())
        assert tf_info is not None
        locker = FilesystemLocker(str(tmp_path / "terraform.tfstate"))
        lock_id, diags = acquire(locker, new_lock_info("OperationTypePlan"), 0.0)
        assert lock_id == ""
        detail = diags.errors[0].detail
        assert detail.startswith("Error message: resource temporarily unavailable\nLock Info:")
        assert f"  ID:        {tf_info.id}" in detail
        assert detail.endswith(TF_MESSAGE_TAIL)
        lock_id, diags = acquire(locker, new_lock_info("OperationTypePlan"), 30.0)
        assert lock_id and not diags  # taken once terraform released it
        assert locker.unlock(lock_id) is None
    finally:
        proc.wait(timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_fcntl_lock_struct_is_accepted(tmp_path: Path) -> None:
    """The OFD lock request we pack is valid on this platform (or the POSIX fallback is)."""
    fd = os.open(str(tmp_path / "f"), os.O_RDWR | os.O_CREAT)
    try:
        from engine.states.lock import _try_write_lock

        assert _try_write_lock(fd) is True
    finally:
        os.close(fd)
    assert hasattr(fcntl, "F_WRLCK")


@pytest.mark.parametrize("name", ["terraform.tfstate", "nested/dir/x.tfstate"])
def test_lock_creates_missing_directories(tmp_path: Path, name: str) -> None:
    locker = FilesystemLocker(str(tmp_path / name))
    lock_id, err = locker.lock(new_lock_info())
    assert err is None and os.path.exists(lock_info_path(str(tmp_path / name)))
    assert locker.unlock(lock_id) is None
