"""`state list [-state=PATH] [-id=ID] [ADDR...]` and `state show [-state=PATH] ADDR`.

`state list` prints every resource instance address in the state, one per line, sorted;
addresses given select what they contain (a module, a resource, one instance; terraform's
"Unknown module" / "Unknown resource" errors when nothing matches); `-id` keeps instances
whose `id` attribute equals it. `state show` prints one instance as `show` does. Without a
state file both print terraform's "No state file was found!" and exit 1.
"""

from __future__ import annotations

from engine.addrs import (
    AbsResource,
    AbsResourceInstance,
    AddressSyntaxError,
    ModuleInstance,
    parse_abs_resource_instance,
    parse_target,
)
from engine.addrs.keys import key_str
from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.cli.state_view import json_resources, load_schemas, render_instance, state_providers
from engine.diags import Diagnostic, Diagnostics, error
from engine.plugin.loader import PluginRegistry
from engine.plugin.registry import ProviderRegistry
from engine.states import LocalState, StateFile
from engine.states.state import State

NO_STATE = (
    "No state file was found!\n\n"
    "State management commands require a state file. Run this command\n"
    "in a directory where Terraform has been run or use the -state flag\n"
    "to point the command to a specific state location."
)
NO_INSTANCE = (
    "This command requires that the address references one specific instance.\n"
    'To view the available instances, use "terraform state list". Please modify \n'
    "the address to reference a specific instance."
)
STATE_USAGE = """Usage: terraform [global options] state <subcommand> [options] [args]

  This command has subcommands for advanced state management.

  These subcommands can be used to slice and dice the Terraform state.
  This is sometimes necessary in advanced cases. For your safety, all
  state management commands that modify the state create a timestamped
  backup of the state prior to making modifications.

  The structure and output of the commands is specifically tailored to work
  well with the common Unix utilities such as grep, awk, etc. We recommend
  using those tools to perform more advanced state tasks.

Subcommands:
    list                List resources in the state
    show                Show a resource in the state
"""


def instances(state: State) -> list[tuple[AbsResourceInstance, str | None]]:
    """Every resource instance with a current object, sorted, with its `id` attribute."""
    out: list[tuple[AbsResourceInstance, str | None]] = []
    for rs in state.resources:
        for inst in rs.instances:
            if inst.current is None:
                continue
            try:
                addr = parse_abs_resource_instance(rs.address + key_str(inst.index_key))
            except AddressSyntaxError:
                continue
            attrs = inst.current.attributes
            ident = attrs.get("id") if isinstance(attrs, dict) else None
            out.append((addr, ident if isinstance(ident, str) else None))
    return sorted(out, key=lambda p: p[0].sort_key())


def contains(target: AbsResource | AbsResourceInstance | ModuleInstance,
             addr: AbsResourceInstance) -> bool:
    """Whether `addr` is `target` or lies inside it."""
    if isinstance(target, ModuleInstance):
        return addr.module.steps[: len(target.steps)] == target.steps
    if isinstance(target, AbsResource):
        return addr.abs_resource == target
    return addr == target


def go_error(diags: Diagnostics) -> str:
    """Go's error text of terraform's diagnostics ("Summary: detail", or "N problems:" and a
    bulleted list), as `state list` prints it after "Failed to load state: "."""
    errs = [f"{d.summary}: {d.detail}" if d.detail else d.summary for d in diags.errors]
    if len(errs) == 1:
        return errs[0]
    return f"{len(errs)} problems:\n\n" + "\n".join(f"- {e}" for e in errs)


def _read(meta: Meta, path: str, plain: bool = False) -> StateFile | None:
    """The state at `path` (default terraform.tfstate); None when there is none (shown).
    A state that cannot be read is reported as diagnostics, or with `plain` (`state list`)
    as terraform's single "Failed to load state: ..." line."""
    storage = (LocalState(path, encryption=meta.state_encryption()) if path
               else meta.local_state())
    sf, diags = storage.read()
    if diags.has_errors:
        if plain:
            meta.ui.err(f"Failed to load state: {go_error(diags)}")
        else:
            meta.ui.diagnostics(diags)
        return None
    if sf is None:
        meta.ui.err(NO_STATE)
        return None
    return sf


def run_state(meta: Meta, args: list[str]) -> int:
    if not args:
        meta.ui.err(STATE_USAGE)
        return 1
    sub, rest = args[0], args[1:]
    if sub == "list":
        return run_state_list(meta, rest)
    if sub == "show":
        return run_state_show(meta, rest)
    if sub == "re-encrypt":  # engine/cli/cmd_state_reencrypt.py (encryption)
        from engine.cli.cmd_state_reencrypt import run_state_reencrypt

        return run_state_reencrypt(meta, rest)
    meta.ui.err(STATE_USAGE)
    return 1


def run_state_list(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().text("state").text("id")
    rest = meta.parse_flags("state list", fs, args)
    if rest is None:
        return 1
    sf = _read(meta, str(fs.get("state")), plain=True)
    if sf is None:
        return 1
    all_instances = instances(sf.state)
    selected = all_instances
    if rest:
        targets = []
        for text in rest:
            try:
                target = parse_target(text)
            except AddressSyntaxError as exc:
                meta.ui.diagnostics([error("Invalid address", f"{text}: {exc}")])
                return 1
            if not any(contains(target, a) for a, _ in all_instances):
                meta.ui.legacy_diagnostics([_unknown(target)])
                return 1
            targets.append(target)
        selected = [p for p in all_instances if any(contains(t, p[0]) for t in targets)]
    ident = str(fs.get("id"))
    if ident:
        selected = [p for p in selected if p[1] == ident]
    if selected:
        meta.ui.raw("".join(f"{a}\n" for a, _ in selected))
    return 0


def _unknown(target: AbsResource | AbsResourceInstance | ModuleInstance) -> Diagnostic:
    if isinstance(target, ModuleInstance):
        return error(
            "Unknown module",
            f"The current state contains no module at {target}. If you've just added this "
            "module to the configuration, you must run \"terraform apply\" first to create "
            "the module's entry in the state.")
    return error(
        "Unknown resource",
        f"The current state contains no resource {target}. If you've just added this "
        "resource to the configuration, you must run \"terraform apply\" first to create "
        "the resource's entry in the state.")


def run_state_show(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().text("state")
    rest = meta.parse_flags("state show", fs, args)
    if rest is None:
        return 1
    ui = meta.ui
    if len(rest) != 1:
        ui.err("Exactly one argument expected.")
        return 1
    try:
        addr = parse_abs_resource_instance(rest[0])
    except AddressSyntaxError:
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
