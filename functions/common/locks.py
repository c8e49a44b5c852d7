"""One active run per workspace and per state lineage.

A lock is one item per key in the locks table, created with a conditional put that fails when
the key exists: the second run gets a `Conflict` (409) naming the run that holds the lock and
who started it. Keys are `workspace:<name>` and, once a workspace's state has a lineage,
`lineage:<lineage>` (so two workspaces sharing one state cannot run at once either). Release
deletes the items only if they still name the same run.
"""

from __future__ import annotations

from pynamodb.exceptions import DeleteError, PutError

from functions.common.clock import now_iso
from functions.common.errors import Conflict, condition_failed
from functions.common.models import Run, WorkspaceLock


def _keys(workspace: str, lineage: str | None) -> list[str]:
    keys = [f"workspace:{workspace}"]
    if lineage:
        keys.append(f"lineage:{lineage}")
    return keys


def _holder_conflict(key: str) -> Conflict:
    try:
        held = WorkspaceLock.get(key)
    except WorkspaceLock.DoesNotExist:
        return Conflict(f"{key} is locked", code="workspace_locked")
    who = held.holder
    try:
        run = Run.get(held.run_id)
        state = run.status
    except Run.DoesNotExist:
        state = "unknown"
    return Conflict(
        f"workspace has an active run {held.run_id} ({state}), started by {who} at "
        f"{held.created_at}",
        code="workspace_locked",
        active_run=held.run_id,
        started_by=who,
        lock=key,
    )


def acquire(workspace: str, lineage: str | None, run_id: str, holder: str) -> None:
    """Take every lock of (workspace, lineage) for `run_id`, or none of them (Conflict).

    A lock whose run has ended (a run releases its locks as it ends, but a client may see the
    run's final status a moment before) is taken over."""
    taken: list[str] = []
    for key in _keys(workspace, lineage):
        item = WorkspaceLock(key, run_id=run_id, holder=holder, created_at=now_iso())
        for attempt in range(2):
            try:
                item.save(condition=WorkspaceLock.key.does_not_exist())
                break
            except PutError as exc:
                if attempt == 0 and condition_failed(exc) and _release_ended(key):
                    continue
                for done in taken:
                    _release_key(done, run_id)
                if condition_failed(exc):
                    raise _holder_conflict(key) from None
                raise
        taken.append(key)


#: run statuses after which a run holds no lock
ENDED = ("applied", "planned_and_finished", "errored", "discarded", "canceled")


def _release_ended(key: str) -> bool:
    """Release lock `key` if the run holding it has ended; whether it did."""
    try:
        held = WorkspaceLock.get(key, consistent_read=True)
        status = Run.get(held.run_id, consistent_read=True).status
    except (WorkspaceLock.DoesNotExist, Run.DoesNotExist):
        return False
    return status in ENDED and _release_key(key, held.run_id)


def _release_key(key: str, run_id: str) -> bool:
    try:
        WorkspaceLock(key).delete(condition=WorkspaceLock.run_id == run_id)
    except DeleteError as exc:
        if condition_failed(exc):
            return False
        raise
    return True


def release(workspace: str, lineage: str | None, run_id: str) -> None:
    """Release the locks `run_id` holds (a no-op for locks it does not hold)."""
    for key in _keys(workspace, lineage):
        _release_key(key, run_id)


def holder(workspace: str) -> str | None:
    """The run id holding `workspace`'s lock, if any."""
    try:
        return WorkspaceLock.get(f"workspace:{workspace}").run_id
    except WorkspaceLock.DoesNotExist:
        return None


def active_run(workspace: str) -> str | None:
    """The id of the run holding `workspace`'s lock (None when free or held by a state edit,
    a restore or a version being created)."""
    held = holder(workspace)
    return held if held is not None and held.startswith("run-") else None
