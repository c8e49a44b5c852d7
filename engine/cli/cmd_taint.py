"""`taint ADDR` and `untaint ADDR`: mark a resource instance's current object as tainted (it
is replaced by the next plan) or clear that mark.

Both take the state lock (`-lock`, `-lock-timeout`), change only the status of one object
and write the state under the usual persistence policy. `-allow-missing` turns a missing
instance into terraform's warning. Messages are terraform's: "Resource instance X has been
marked as tainted.", "... has been successfully untainted.", "No such resource instance",
"Resource instance is not tainted", "Resource instance data.x.y cannot be tainted".
"""

from __future__ import annotations

import copy

from engine.addrs import AddressSyntaxError, ResourceMode, parse_abs_resource_instance
from engine.addrs.keys import key_str
from engine.backend import StateOptions, Storage
from engine.cli.args import FlagError, FlagSet, parse_duration
from engine.cli.meta import Meta
from engine.diags import Diagnostics, error, warning
from engine.states.state import ResourceInstanceObject, State

NO_INSTANCE_DETAIL = (
    "There is no resource instance in the state with the address {addr}. If the resource "
    'configuration has just been added, you must run "groundplan apply" once to create the '
    "corresponding instance(s) before they can be tainted."
)
EMPTY_STATE_DETAIL = (
    "The state currently contains no resource instances whatsoever. This may occur if the "
    "configuration has never been applied or if it has recently been destroyed."
)
MISSING_DETAIL = (
    "Resource instance {addr} was not found, but this is not an error because -allow-missing "
    "was set."
)


def _find(state: State, addr: str) -> ResourceInstanceObject | None:
    for rs in state.resources:
        for inst in rs.instances:
            if rs.address + key_str(inst.index_key) == addr:
                return inst.current
    return None


def run_taint(meta: Meta, args: list[str]) -> int:
    return _run(meta, args, taint=True)


def run_untaint(meta: Meta, args: list[str]) -> int:
    return _run(meta, args, taint=False)


def _run(meta: Meta, args: list[str], taint: bool) -> int:
    command = "taint" if taint else "untaint"
    fs = FlagSet().boolean("allow-missing").boolean("lock", True).text("lock-timeout", "0s")
    fs.text("state").text("state-out").text("backup")
    rest = meta.parse_flags(command, fs, args)
    if rest is None:
        return 1
    ui = meta.ui
    if len(rest) != 1:
        ui.err(f"The {command} command expects exactly one argument.")
        return 1
    try:
        addr = parse_abs_resource_instance(rest[0])
        timeout = parse_duration(str(fs.get("lock-timeout")))
    except AddressSyntaxError as exc:
        ui.diagnostics([error("Invalid resource instance address", f"{rest[0]}: {exc}")])
        return 1
    except FlagError as exc:
        ui.diagnostics([error("Invalid lock timeout", str(exc))])
        return 1
    if addr.resource.mode is ResourceMode.DATA:
        ui.err(f"Resource instance {addr} cannot be {command}ed")
        return 1
    meta.override_local_state(fs)
    workspace, _ = meta.workspace()
    mgr, diags = meta.backend().state_manager(workspace, StateOptions(bool(fs.get("lock"))))
    if mgr is None:
        ui.legacy_diagnostics(diags)
        return 1
    allow_missing = bool(fs.get("allow-missing"))
    with mgr.locked("OperationTypeInvalid", timeout) as diags:
        if not diags.has_errors:
            diags.extend(_change(mgr.storage, str(addr), taint, allow_missing))
    ui.legacy_diagnostics(diags)
    if diags.has_errors:
        return 1
    if not any(d.summary == "No such resource instance" for d in diags):
        done = "marked as tainted" if taint else "successfully untainted"
        ui.out(f"Resource instance {addr} has been {done}.")
    return 0


def _change(storage: Storage, addr: str, taint: bool, allow_missing: bool) -> Diagnostics:
    diags = Diagnostics()
    sf, more = storage.read()
    diags.extend(more)
    if diags.has_errors:
        return diags
    state = copy.deepcopy(sf.state) if sf is not None else State()
    obj = _find(state, addr)
    if obj is None:
        if allow_missing:
            diags.append(warning("No such resource instance", MISSING_DETAIL.format(addr=addr)))
        elif not state.resources:
            diags.append(error("No such resource instance", EMPTY_STATE_DETAIL))
        else:
            diags.append(error("No such resource instance", NO_INSTANCE_DETAIL.format(addr=addr)))
        return diags
    if not taint and obj.status != "tainted":
        diags.append(error(
            "Resource instance is not tainted",
            f"Resource instance {addr} is not currently tainted, and so it cannot be untainted."))
        return diags
    obj.status = "tainted" if taint else ""
    _, more = storage.write(state)
    diags.extend(more)
    return diags
