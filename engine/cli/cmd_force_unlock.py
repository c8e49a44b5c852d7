"""`force-unlock [-force] LOCK_ID`: remove the lock a stopped run left on the state of the
selected workspace in the configured backend (the local lock files, or the S3 lock object and
DynamoDB lock item).

Without `-force` it asks terraform's "Do you really want to force-unlock?" and needs `yes`
("force-unlock cancelled." otherwise). A lock held by a live process, a wrong ID or no lock
at all is refused with terraform's "Failed to unlock state: ..." error. Success prints
"Terraform state has been successfully unlocked!".
"""

from __future__ import annotations

from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.states.lock import force_unlock

UNLOCK_QUESTION = (
    "[reset][bold]Do you really want to force-unlock?[reset]\n"
    "  groundplan will remove the lock on the remote state.\n"
    "  This will allow local groundplan commands to modify this state, even though it\n"
    "  may still be in use. Only 'yes' will be accepted to confirm.\n"
)
UNLOCKED = (
    "[reset][bold][green]groundplan state has been successfully unlocked![reset][green]\n\n"
    "The state has been unlocked, and groundplan commands should now be able to\n"
    "obtain a new lock on the remote state."
)


def run_force_unlock(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().boolean("force")
    rest = meta.parse_flags("force-unlock", fs, args)
    if rest is None:
        return 1
    ui = meta.ui
    if len(rest) != 1:
        ui.err("Expected a single argument: LOCK_ID")
        return 1
    lock_id = rest[0]
    if not fs.get("force"):
        ui.out(UNLOCK_QUESTION)
        answer = ui.ask("  " + ("[bold]Enter a value:[reset] " if ui.color else "Enter a value: "))
        if answer is None or answer.strip() != "yes":
            ui.out("force-unlock cancelled.")
            return 1
        ui.out("")
    backend = meta.backend()
    name, _ = meta.workspace()
    _, diags = backend.storage(name or "default")
    if diags.has_errors:
        for d in diags.errors:
            ui.err(f"Failed to load state: {d.summary}: {d.detail}" if d.detail else d.summary)
        return 1
    locker = backend.locker(name or "default")
    if locker is not None:  # without a lock to remove terraform reports success too
        diags = force_unlock(locker, lock_id)
    if diags.has_errors:
        for d in diags.errors:
            ui.err(d.summary)
        return 1
    ui.out(UNLOCKED)
    return 0
