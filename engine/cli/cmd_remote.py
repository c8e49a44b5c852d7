"""`groundplan remote`: the CI client of a groundplan control plane.

    groundplan remote run -workspace=NAME [-auto-approve] [-destroy] [-plan-only]
                          [-var NAME=VALUE ...] [-poll=SECONDS] [DIR]
    groundplan remote approve [-reject] RUN_ID
    groundplan remote state list|show ADDRESS|pull -workspace=NAME
    groundplan remote state mv [-dry-run] -workspace=NAME SOURCE DESTINATION
    groundplan remote state rm [-dry-run] -workspace=NAME ADDRESS...
    groundplan remote state import -workspace=NAME [-configuration-version=ID | -dir=DIR]
                                   [-var NAME=VALUE ...] ADDRESS ID

The API's URL and token come from GROUNDPLAN_API_URL and GROUNDPLAN_API_TOKEN. `run` packs the
configuration in DIR (default: the working directory), uploads it, starts a run, prints each
status it passes through and the plan, waits for an approval (or applies at once with
`-auto-approve`) and exits like `plan -detailed-exitcode`: 0 when it finished without changes,
2 when it applied (or, with `-plan-only`, planned) changes, 1 when it errored, was discarded
or canceled.
"""

from __future__ import annotations

import json
import os
import time
from urllib.parse import quote

from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.cli.remote_client import RemoteClient, RemoteError
from engine.cli.state_meta import show_diagnostics
from engine.diags import Diagnostics, error

FINAL = ("planned_and_finished", "applied", "errored", "discarded", "canceled")

USAGE = """Usage: groundplan [global options] remote <subcommand> [options] [args]

  Runs plans and applies on a groundplan control plane (GROUNDPLAN_API_URL,
  GROUNDPLAN_API_TOKEN).

Subcommands:
    run        Upload the configuration, start a run, follow it to the end
    approve    Approve (or, with -reject, reject) a run awaiting approval
    state      Look into a workspace's state: list, show ADDRESS, pull (redacted);
               repair it: mv SOURCE DESTINATION, rm ADDRESS... (-dry-run),
               import ADDRESS ID (on the control plane, with the workspace's credentials)
"""


def _client(meta: Meta) -> RemoteClient | None:
    url = meta.environ.get("GROUNDPLAN_API_URL", "")
    token = meta.environ.get("GROUNDPLAN_API_TOKEN", "")
    if not url or not token:
        meta.ui.diagnostics([error(
            "No control plane configured",
            "Set GROUNDPLAN_API_URL to the control plane's API and GROUNDPLAN_API_TOKEN to a "
            "token it accepts (groundplan cloud local prints both).")])
        return None
    return RemoteClient(url, token)


def _refused(meta: Meta, exc: RemoteError) -> int:
    """Print a refusal: terraform's own diagnostics when the control plane ran the engine's
    command and sent them (a refused state edit), else the API's message."""
    found = exc.details.get("diagnostics")
    if exc.code == "state_edit_refused" and isinstance(found, list) and found:
        show_diagnostics(meta, [error(str(d.get("summary") or ""), str(d.get("detail") or ""))
                                for d in found if isinstance(d, dict)])  # as `state rm|mv`
        return 1
    meta.ui.diagnostics([error("The control plane refused the request", str(exc))])
    return 1


def _follow(meta: Meta, client: RemoteClient, run_id: str, poll: float) -> dict[str, object]:
    seen: list[str] = []
    shown_plan = False
    while True:
        run = client.run(run_id)
        status = str(run["status"])
        if not seen or seen[-1] != status:
            seen.append(status)
            meta.ui.out(f"Run {run_id}: {status}")
        if not shown_plan and run.get("plan_digest") and status != "planning":
            meta.ui.raw(client.plan(run_id))
            shown_plan = True
            if status == "awaiting_approval":
                meta.ui.out(f"\nWaiting for approval (groundplan remote approve {run_id}, or "
                            "the Slack message)...")
        if status in FINAL:
            return dict(run)
        time.sleep(poll)


_STATE_USAGE = {
    "list": "", "show": " ADDRESS", "pull": "", "mv": " [-dry-run] SOURCE DESTINATION",
    "rm": " [-dry-run] ADDRESS...",
    "import": " [-configuration-version=ID | -dir=DIR] [-var NAME=VALUE ...] ADDRESS ID",
}


def _arity_ok(what: str, given: list[str]) -> bool:
    if what == "show":
        return len(given) == 1
    if what in ("mv", "import"):
        return len(given) == 2
    if what == "rm":
        return len(given) >= 1
    return not given


def _state(meta: Meta, args: list[str]) -> int:
    if not args or args[0] not in _STATE_USAGE:
        meta.ui.err(USAGE)
        return 1
    what, rest = args[0], args[1:]
    fs = FlagSet().text("workspace")
    if what in ("mv", "rm"):
        fs.boolean("dry-run")
    if what == "import":
        fs.text("configuration-version").text("dir", ".").multi("var")
    given = meta.parse_flags(f"remote state {what}", fs, rest)
    if given is None:
        return 1
    workspace = str(fs.get("workspace") or "")
    if not workspace or not _arity_ok(what, given):
        meta.ui.err(f"Usage: groundplan remote state {what} -workspace=NAME"
                    + _STATE_USAGE[what])
        return 1
    client = _client(meta)
    if client is None:
        return 1
    try:
        if what == "import":
            return _state_import(meta, client, workspace, fs, given)
        if what == "rm" and not _addresses_parse(meta, given):
            return 1
        if what in ("mv", "rm"):
            _state_edit(meta, client, workspace, what, given, bool(fs.get("dry-run")))
        elif what == "list":
            for r in client.request("GET", f"/workspaces/{workspace}/state/resources")[
                    "resources"]:
                meta.ui.out(str(r["address"]))
        elif what == "show":
            doc = client.request("GET", f"/workspaces/{workspace}/state/resources/"
                                        f"{quote(given[0], safe='')}")
            meta.ui.raw(json.dumps(doc, indent=2) + "\n")
        else:
            meta.ui.raw(json.dumps(client.request("GET", f"/workspaces/{workspace}/state/raw"),
                                   indent=2) + "\n")
    except RemoteError as exc:
        return _refused(meta, exc)
    return 0


def _addresses_parse(meta: Meta, given: list[str]) -> bool:
    """Whether every address `state rm` was given parses; else terraform's diagnostics (with
    their source ranges, which only the parse here has) are printed and nothing is sent."""
    from engine.operations.state_addrs import parse_target_str

    diags = Diagnostics()
    for text in given:
        diags.extend(parse_target_str(text)[1])
    if diags.has_errors:
        show_diagnostics(meta, diags)
    return not diags.has_errors


def _state_edit(meta: Meta, client: RemoteClient, workspace: str, what: str,
                given: list[str], dry_run: bool) -> None:
    """`remote state mv|rm`: the action on the control plane, printed as `state mv|rm` print
    it, then the backup version the control plane kept."""
    path = f"/workspaces/{workspace}/state/actions/{what}"
    if what == "mv":
        done = client.request("POST", path, {"source": given[0], "destination": given[1],
                                             "dry_run": dry_run})
        prefix = "Would move" if dry_run else "Move"
        for m in done["moves"]:
            meta.ui.out(f"{prefix} {json.dumps(m['from'])} to {json.dumps(m['to'])}")
        summary = f"Successfully moved {len(done['moves'])} object(s)."
    else:
        done = client.request("POST", path, {"addresses": given, "dry_run": dry_run})
        prefix = "Would remove " if dry_run else "Removed "
        for addr in done["removed"]:
            meta.ui.out(prefix + str(addr))
        if dry_run and not done["removed"]:
            meta.ui.out("Would have removed nothing.")
        summary = f"Successfully removed {len(done['removed'])} resource instance(s)."
    if dry_run:
        return
    meta.ui.out(summary)
    meta.ui.out(f"State version {done['version']} (serial {done['serial']}); the previous "
                f"version {done['backup_version']} is kept as the backup.")


def _variables(meta: Meta, items: list[str]) -> dict[str, object] | None:
    """`-var NAME=VALUE` options as a run's variables (None after an error)."""
    variables: dict[str, object] = {}
    for item in items:
        name, sep, value = str(item).partition("=")
        if not sep:
            meta.ui.diagnostics([error("Invalid -var option",
                                       f"The given -var option {item!r} is not NAME=VALUE.")])
            return None
        variables[name] = value
    return variables


def _state_import(meta: Meta, client: RemoteClient, workspace: str, fs: FlagSet,
                  given: list[str]) -> int:
    """`remote state import`: the import runs on the control plane with the configuration
    version given, or with the configuration in -dir uploaded first."""
    variables = _variables(meta, [str(v) for v in fs.get("var") or []])
    if variables is None:
        return 1
    cv = str(fs.get("configuration-version") or "")
    if not cv:
        directory = str(fs.get("dir") or ".")
        if not os.path.isdir(directory):
            meta.ui.diagnostics([error("No such configuration directory", directory)])
            return 1
        cv = client.upload_configuration(workspace, directory)
    done = client.request("POST", f"/workspaces/{workspace}/state/actions/import", {
        "address": given[0], "id": given[1], "configuration_version": cv,
        "variables": variables})
    meta.ui.out(f"Import successful: {done['imported']} (ID {json.dumps(given[1])}).")
    meta.ui.out(f"State version {done['version']} (serial {done['serial']}); the previous "
                f"version {done['backup_version']} is kept as the backup.")
    return 0


def run_remote(meta: Meta, args: list[str]) -> int:
    if not args or args[0] not in ("run", "approve", "state"):
        meta.ui.err(USAGE)
        return 1
    sub, rest = args[0], args[1:]
    if sub == "state":
        return _state(meta, rest)
    if sub == "approve":
        fs = FlagSet().boolean("reject")
        given = meta.parse_flags("remote approve", fs, rest)
        if given is None:
            return 1
        if len(given) != 1:
            meta.ui.err("The approve subcommand expects exactly one argument: the run id.")
            return 1
        client = _client(meta)
        if client is None:
            return 1
        try:
            run = client.action(given[0], "reject" if fs.get("reject") else "approve")
        except RemoteError as exc:
            return _refused(meta, exc)
        meta.ui.out(f"Run {run['id']}: {run['status']}")
        return 0
    fs = (FlagSet().text("workspace").boolean("auto-approve").boolean("destroy")
          .boolean("plan-only").multi("var").text("poll", "1"))
    given = meta.parse_flags("remote run", fs, rest)
    if given is None:
        return 1
    if len(given) > 1:
        meta.ui.err("The run subcommand expects at most one argument: the configuration "
                    "directory.")
        return 1
    workspace = str(fs.get("workspace") or "")
    if not workspace:
        meta.ui.err("The run subcommand needs -workspace=NAME.")
        return 1
    directory = given[0] if given else "."
    if not os.path.isdir(directory):
        meta.ui.diagnostics([error("No such configuration directory", directory)])
        return 1
    variables = _variables(meta, [str(v) for v in fs.get("var") or []])
    if variables is None:
        return 1
    client = _client(meta)
    if client is None:
        return 1
    operation = "plan" if fs.get("plan-only") else ("destroy" if fs.get("destroy") else "apply")
    try:
        cv = client.upload_configuration(workspace, directory)
        started = client.start_run(workspace, cv, operation=operation,
                                   auto_apply=bool(fs.get("auto-approve")), variables=variables)
        meta.ui.out(f"Started run {started['id']} on workspace {workspace} ({operation}).")
        run = _follow(meta, client, str(started["id"]), float(fs.get("poll") or 1))
    except RemoteError as exc:
        return _refused(meta, exc)
    status = run["status"]
    if status in ("errored", "discarded", "canceled"):
        if run.get("error"):
            meta.ui.err(str(run["error"]))
        if run.get("failed_nodes"):
            meta.ui.err("Failed: " + ", ".join(str(n) for n in run["failed_nodes"]))  # type: ignore[attr-defined]
        return 1
    return 2 if run.get("has_changes") else 0
