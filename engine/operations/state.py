"""The state an operation works on: the backend's state manager, locked, its journal
recovered.

    with locked_state(request, "OperationTypePlan") as (mgr, diags):
        if diags.has_errors: ...        # lock failed, unreadable state, journal problems
        base, more = mgr.read()
    # `diags` now also holds the unlock's diagnostics

Terraform's local backend reads the state while it takes the lock: a state it cannot read
fails the lock ("Error acquiring the state lock", the read errors as the message); the
snapshot read then is the one the next `read()` returns. A journal a stopped run left behind
is reconciled before anything else (its warnings name what may have been half-done).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from engine.backend.base import Backend, StateOptions
from engine.diags import Diagnostics, error
from engine.operations.prepare import go_error_text
from engine.operations.requests import OperationRequest
from engine.states.lock import LOCK_ERROR_MESSAGE
from engine.states.manager import StateManager


def as_lock_error(read_diags: Diagnostics) -> Diagnostics:
    """A failed state read as the lock error terraform reports; empty when the read worked."""
    if not read_diags.has_errors:
        return Diagnostics()
    return Diagnostics([error("Error acquiring the state lock",
                              LOCK_ERROR_MESSAGE.format(go_error_text(read_diags)))])


@contextlib.contextmanager
def locked_state(
    request: OperationRequest, operation: str, recover: bool = True
) -> Iterator[tuple[StateManager | None, Diagnostics]]:
    """The workspace's state manager, locked unless `request.lock` is off, with a leftover
    journal recovered (unless `recover` is off); the manager is None when the backend could
    not provide one (errors in the diagnostics). The lock is released however the block ends
    and the unlock's diagnostics are appended to the yielded ones."""
    mgr, diags = request.backend.state_manager(request.workspace, StateOptions(request.lock))
    if mgr is None:
        yield None, diags
        return
    request.view.state_manager(mgr)
    try:
        with mgr.locked(operation, request.lock_timeout) as ldiags:
            ldiags.items[:0] = diags.items
            if not ldiags.has_errors and request.lock:
                ldiags.extend(as_lock_error(mgr.read_ahead()))
            if recover and not ldiags.has_errors:
                ldiags.extend(mgr.recover())
            yield mgr, ldiags
    finally:
        request.view.state_manager(None)


def force_unlock(backend: Backend, workspace: str, lock_id: str) -> Diagnostics:
    """`force-unlock LOCK_ID` on the workspace's state: "Failed to unlock state: <why>" when
    refused (a wrong ID, no lock, a lock its live holder keeps), or when the backend cannot
    lock at all."""
    from engine.states.lock import force_unlock as unlock

    locker = backend.locker(workspace)
    if locker is None:
        return Diagnostics([error("Failed to unlock state: the backend has no locks")])
    return unlock(locker, lock_id)


__all__ = ["as_lock_error", "force_unlock", "locked_state"]
