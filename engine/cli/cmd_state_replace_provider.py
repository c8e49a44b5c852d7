"""`state replace-provider [options] FROM TO`: point resources at another provider.

As terraform 1.11: both arguments are provider source addresses (`hashicorp/aws`,
`registry.example.com/acme/aws`, a bare type meaning `hashicorp/<type>`); every resource
whose provider configuration is for FROM is listed, and after confirmation ("Only 'yes'
will be accepted", skipped with `-auto-approve`) its configuration is changed to the same
configuration (module, alias) of TO. Nothing matching is "No matching resources found."
and no change. The change takes the lock and writes the timestamped backup first.
"""

from __future__ import annotations

from engine.cli import state_help
from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.cli.state_meta import (
    LOADING_STATE,
    NO_STATE,
    go_error,
    lock_flags,
    lock_state,
    lock_timeout,
    open_state,
    parse_flags,
    read_state,
    show_diagnostics,
    ui_error,
    unlock_state,
    usage,
    write_state,
)
from engine.diags import Diagnostics, error
from engine.operations.state_addrs import parse_provider_source
from engine.states.edit import (
    address_of,
    copy_state_file,
    replace_provider,
    resources_using,
)


def run_state_replace_provider(meta: Meta, args: list[str]) -> int:
    fs = lock_flags(FlagSet().boolean("auto-approve").text("backup", "-").text("state"))
    fs.boolean("ignore-remote-version")
    help_text = state_help.REPLACE_PROVIDER_HELP
    rest = parse_flags(meta, fs, args, help_text)
    if rest is None:
        return 1
    if len(rest) != 2:
        return usage(meta, "Exactly two arguments expected.\n", help_text)
    diags = Diagnostics()
    providers = []
    for which, text in (("from", rest[0]), ("to", rest[1])):
        provider, more = parse_provider_source(text)
        if more.has_errors:
            diags.append(error(f'Invalid "{which}" provider "{text}"', go_error(more)))
        providers.append(provider)
    from_, to = providers
    if from_ is None or to is None:
        show_diagnostics(meta, diags)
        return 1
    opened = open_state(meta, str(fs.get("state")), str(fs.get("backup")), bool(fs.get("lock")))
    if opened.manager is None:
        ui_error(meta, LOADING_STATE.format(opened.problem))
        return 1
    mgr = opened.manager
    if not lock_state(meta, mgr, "state-replace-provider", lock_timeout(fs)):
        return 1
    try:
        sf, ok = read_state(meta, mgr, "Failed to refresh source state")
        if not ok:
            return 1
        if sf is None:
            ui_error(meta, NO_STATE)
            return 1
        sf = copy_state_file(sf)
        matching = resources_using(sf.state, from_)
        if not matching:
            meta.ui.out("No matching resources found.")
            return 0
        ui = meta.ui
        ui.out("groundplan will perform the following actions:\n")
        ui.out("  [yellow]~[reset] Updating provider:")
        ui.out(f"    [red]-[reset] {from_}")
        ui.out(f"    [green]+[reset] {to}\n")
        ui.out(f"[bold]Changing[reset] {len(matching)} resources:\n")
        for rs in matching:
            ui.out(f"  {address_of(rs)}")
        if not fs.get("auto-approve"):
            ui.out("\n[bold]Do you want to make these changes?[reset]\n"
                   "Only 'yes' will be accepted to continue.\n")
            answer = ui.ask("Enter a value: ")
            if answer is None:
                ui_error(meta, "Error asking for approval: EOF")
                return 1
            if answer != "yes":
                ui.out("Cancelled replacing providers.")
                return 0
        for rs in matching:
            replace_provider(rs, to)
        if not write_state(meta, mgr, sf):
            return 1
        ui.out(f"\nSuccessfully replaced provider for {len(matching)} resources.")
        return 0
    finally:
        unlock_state(meta, mgr)
