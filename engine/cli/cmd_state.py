"""`state <subcommand>`: the subcommand table, `state list` and `state show`.

`SUBCOMMANDS` names every subcommand with the module and function that run it, its synopsis
and its help text; `run_state` dispatches through it and `state_help` answers `-help` from it
(`state -help` lists it as terraform's CLI lists subcommands). One line adds a subcommand.

`state list` prints every resource instance address in the state, one per line, in
terraform's order; addresses given select what they contain (a module, a resource, one
instance; terraform's "Unknown module" / "Unknown resource" errors when nothing matches); `-id`
keeps instances whose `id` attribute equals it. `state show` prints one instance as `show`
does. Without a state both print terraform's "No state file was found!" and exit 1. The
state-changing subcommands live in their own modules (`cmd_state_mv`, `cmd_state_rm`,
`cmd_state_push_pull`, `cmd_state_replace_provider`); all get the state from `meta.backend()`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from engine.addrs import AbsResourceInstance
from engine.cli import state_help
from engine.cli.args import FlagError, FlagSet
from engine.cli.cmd_state_reencrypt import HELP as REENCRYPT_HELP
from engine.cli.meta import Meta
from engine.cli.state_meta import (
    NO_STATE,
    go_error,
    parse_flags,
    show_diagnostics,
    ui_error,
)
from engine.cli.state_view import json_resources, load_schemas, render_instance, state_providers
from engine.diags import Diagnostics
from engine.operations.state_addrs import parse_abs_resource_instance_str
from engine.operations.state_edit import lookup_instances
from engine.plugin.loader import PluginRegistry
from engine.plugin.registry import ProviderRegistry
from engine.states import LocalState, StateFile
from engine.states.edit import instance_address, instance_order
from engine.states.state import ResourceInstanceObject, State

NO_INSTANCE = (
    "This command requires that the address references one specific instance.\n"
    'To view the available instances, use "groundplan state list". Please modify \n'
    "the address to reference a specific instance."
)


@dataclass(frozen=True)
class Subcommand:
    """A `state` subcommand: `engine.cli.<module>.<function>(meta, args)` runs it."""

    module: str
    function: str
    synopsis: str
    help: str


SUBCOMMANDS: dict[str, Subcommand] = {
    "list": Subcommand("cmd_state", "run_state_list", "List resources in the state",
                       state_help.LIST_HELP),
    "mv": Subcommand("cmd_state_mv", "run_state_mv", "Move an item in the state",
                     state_help.MV_HELP),
    "pull": Subcommand("cmd_state_push_pull", "run_state_pull",
                       "Pull current state and output to stdout", state_help.PULL_HELP),
    "push": Subcommand("cmd_state_push_pull", "run_state_push",
                       "Update remote state from a local state file", state_help.PUSH_HELP),
    "replace-provider": Subcommand("cmd_state_replace_provider", "run_state_replace_provider",
                                   "Replace provider in the state",
                                   state_help.REPLACE_PROVIDER_HELP),
    "re-encrypt": Subcommand("cmd_state_reencrypt", "run_state_reencrypt",
                             "Rewrite the state with the primary encryption method",
                             REENCRYPT_HELP),
    "rm": Subcommand("cmd_state_rm", "run_state_rm", "Remove instances from the state",
                     state_help.RM_HELP),
    "show": Subcommand("cmd_state", "run_state_show", "Show a resource in the state",
                       state_help.SHOW_HELP),
}


def state_usage() -> str:
    """`state -help`: the introduction, then the subcommands as terraform's CLI lists them."""
    width = max(len(name) for name in SUBCOMMANDS)
    lines = [f"    {name:<{width}}    {sub.synopsis}" for name, sub in sorted(SUBCOMMANDS.items())]
    return state_help.STATE_HELP + "\nSubcommands:\n" + "\n".join(lines) + "\n"


def state_help_text(args: list[str]) -> str:
    """The help `state ... -help` prints: the named subcommand's, else the state usage."""
    words = [a for a in args if not a.startswith("-")]
    sub = SUBCOMMANDS.get(words[0]) if words else None
    return sub.help if sub is not None else state_usage()


def run_state(meta: Meta, args: list[str]) -> int:
    sub = SUBCOMMANDS.get(args[0]) if args else None
    if sub is None:
        meta.ui.raw(state_usage())
        return 1
    run: Callable[[Meta, list[str]], int] = getattr(
        importlib.import_module(f"engine.cli.{sub.module}"), sub.function)
    return run(meta, args[1:])


def _read(meta: Meta, path: str, plain: bool = False) -> StateFile | None:
    """The selected workspace's state from the backend, or the file `path` (`-state`); None
    when there is none (shown). A state that cannot be read is reported as diagnostics, or
    with `plain` (`state list`) as terraform's single "Failed to load state: ..." line."""
    if path:
        sf, diags = LocalState(path, encryption=meta.state_encryption()).read()
    else:
        workspace, diags = meta.workspace()
        storage, more = meta.backend().storage(workspace)
        diags.extend(more)
        sf = None
        if storage is not None and not diags.has_errors:
            sf, diags = storage.read()
    if diags.has_errors:
        if plain:
            ui_error(meta, f"Failed to load state: {go_error(diags)}")
        else:
            meta.ui.diagnostics(diags)
        return None
    if sf is None:
        if plain:
            ui_error(meta, NO_STATE)
        else:
            meta.ui.err(NO_STATE)
        return None
    return sf


def run_state_list(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().text("state").text("id")
    rest = parse_flags(meta, fs, args, state_help.LIST_HELP)
    if rest is None:
        return 1
    sf = _read(meta, str(fs.get("state")), plain=True)
    if sf is None:
        return 1
    state = sf.state
    if not rest:
        selected = sorted(all_instances(state), key=instance_order)
    else:
        selected = []
        diags = Diagnostics()
        for text in rest:
            found, more = lookup_instances(state, text, allow_missing=False)
            selected.extend(found)
            diags.extend(more)
        if diags.has_errors:
            show_diagnostics(meta, diags)
            return 1
    ident = str(fs.get("id"))
    by_addr = {instance_address(rs, inst): inst for rs in state.resources for inst in rs.instances}
    lines = []
    for addr in selected:
        inst = by_addr.get(addr)
        if inst is None:
            continue
        if not ident or ident == _legacy_id(inst.current):
            lines.append(f"{addr}\n")
    meta.ui.raw("".join(lines))
    return 0


def all_instances(state: State) -> list[AbsResourceInstance]:
    """Every resource instance address in `state`, in state order."""
    return [instance_address(rs, inst) for rs in state.resources for inst in rs.instances]


def _legacy_id(obj: ResourceInstanceObject | None) -> str:
    """terraform's LegacyInstanceObjectID: the object's `id` attribute when it is a string."""
    attrs = obj.attributes if obj is not None else None
    ident = attrs.get("id") if isinstance(attrs, dict) else None
    return ident if isinstance(ident, str) else ""


def run_state_show(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().text("state")
    if "no-color" not in fs.flags:
        fs.boolean("no-color")
    ui = meta.ui
    try:
        rest = fs.parse(args)
    except FlagError as exc:
        ui.err(f"Error parsing command-line flags: {exc}")
        return 1
    if fs.get("no-color"):
        ui.color = False
    if len(rest) != 1:
        ui.err("Exactly one argument expected.")
        ui.raw(state_help.SHOW_HELP)
        return 1
    addr, diags = parse_abs_resource_instance_str(rest[0])
    if addr is None:
        ui.err(f"Error parsing instance address: {rest[0]}\n\n{NO_INSTANCE}")
        return 1
    sf = _read(meta, str(fs.get("state")))
    if sf is None:
        return 1
    registry: ProviderRegistry = PluginRegistry(meta.cwd)
    try:
        schemas, diags = load_schemas(registry, state_providers(sf.state))
        if diags.has_errors:
            ui.legacy_diagnostics(diags)
            return 1
        for r in json_resources(sf, schemas):
            if r.get("address") == str(addr) and not r.get("deposed_key"):
                ui.raw(render_instance(r, schemas))
                return 0
    finally:
        registry.close()
    ui.err(f"No instance found for the given address!\n\n{NO_INSTANCE}")
    return 1
