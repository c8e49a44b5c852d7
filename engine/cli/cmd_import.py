"""`import ADDR ID`: bring an existing remote object under management, as terraform does.

The resource must be declared in the configuration (else terraform's "resource address ...
does not exist in the configuration" with an example block). With the state locked, the
resource's provider configuration is configured from its `provider` block (evaluated with the
root input values), then ImportResourceState turns ID into an object and ReadResource reads it;
the object is written to the state file as the instance's current object. Progress texts are
terraform's ("Importing from ID ...", "Import prepared!", "Refreshing state... [id=...]",
"Import successful!"), and so are the errors: "Resource already managed by Terraform",
"Cannot import non-existent remote object", "Import returned no resources", "Multiple import
states not supported". Exit status 0 on success, 1 otherwise. Provider processes are
stopped on every exit path (the session's registry).
"""

from __future__ import annotations

import json
from typing import Any

from engine.addrs import (
    AbsProviderConfig,
    AbsResourceInstance,
    AddressSyntaxError,
    ResourceMode,
    parse_abs_resource_instance,
)
from engine.cli.args import FlagError, FlagSet, parse_duration
from engine.cli.meta import Meta
from engine.cli.session import Session, StateOptions
from engine.core.instances import InstanceTree
from engine.core.root import root_instance
from engine.diags import Diagnostics, error
from engine.graph.steps import provider_addr_for
from engine.plans.hooks import NO_HOOKS
from engine.plans.importing import import_object
from engine.plans.model import PlanMode
from engine.plans.planner_context import PlanContext
from engine.plans.planner_expand import expand_resource
from engine.plans.planner_state import encode_object, index_state
from engine.plugin.protocol import ImportedResource
from engine.states.state import State
from engine.states.sync import SyncState
from engine.values import Value

SUCCESS = (
    "[reset][green]\nImport successful!\n\n"
    "The resources that were imported are shown above. These resources are now in\n"
    "your Terraform state and will henceforth be managed by Terraform.\n"
)
USAGE_HINT = "\nFor more help on using this command, run:\n  terraform import -help"


def _flags() -> FlagSet:
    fs = FlagSet()
    fs.multi("var").multi("var-file")
    fs.boolean("input", True).boolean("lock", True).text("lock-timeout", "0s")
    fs.integer("parallelism", 10).boolean("allow-missing-config").text("config", ".")
    fs.boolean("ignore-remote-version")
    return fs


def _missing_config(addr: AbsResourceInstance) -> str:
    """terraform's plain (not diagnostic-framed) text for an import target not in config."""
    where = "the root module" if addr.module.is_root else f"module {addr.module.module()}"
    res = addr.resource
    return (
        f'[reset][bold][red]Error: [reset][bold]resource address "{addr}" does not exist in '
        f"the configuration.[reset]\n\nBefore importing this resource, please create its "
        f'configuration in {where}. For example:\n\nresource "{res.type}" "{res.name}" {{\n'
        "  # (resource arguments)\n}\n\n"
    )


def run_import(meta: Meta, args: list[str]) -> int:
    """The `import` command; its exit code."""
    fs = _flags()
    rest = meta.parse_flags("import", fs, args)
    if rest is None:
        return 1
    ui = meta.ui
    if len(rest) != 2:
        ui.diagnostics([error("Wrong number of arguments",
                              "The import command expects two arguments.")])
        ui.err(USAGE_HINT)
        return 1
    try:
        timeout = parse_duration(str(fs.get("lock-timeout")))
    except FlagError as exc:
        ui.diagnostics([error("Invalid lock timeout", str(exc))])
        return 1
    try:
        addr = parse_abs_resource_instance(rest[0])
    except AddressSyntaxError as exc:
        ui.diagnostics([error("Invalid address", f"{rest[0]}: {exc}")])
        ui.err(USAGE_HINT)
        return 1
    if addr.resource.mode is ResourceMode.DATA:
        ui.diagnostics([error(
            "Invalid address",
            "A managed resource address is required. Importing into a data resource is not "
            "allowed.")])
        return 1
    config, diags = meta.load_config(str(fs.get("config")))
    if diags.has_errors or config is None:
        ui.diagnostics(diags)
        return 1
    cfg = config.descendant(addr.module.module().names)
    rkey = f"{addr.resource.type}.{addr.resource.name}"
    res = None if cfg is None else cfg.module.managed_resources.get(rkey)
    if res is None:
        ui.err(_missing_config(addr))
        return 1
    values, more = meta.collect_variables(config, [(n, v) for n, v in fs.ordered
                                                   if n in ("var", "var-file")],
                                          bool(fs.get("input")))
    diags.extend(more)
    if diags.has_errors:
        ui.diagnostics(diags)
        return 1
    session = Session(meta, False)
    try:
        with session.locked_state("OperationTypeImport",
                                  StateOptions(bool(fs.get("lock")), timeout)) as ldiags:
            if ldiags.has_errors:
                ui.diagnostics(ldiags)
                return 1
            with session.signals():
                more = _import_locked(session, config, values, addr, provider_addr_for(cfg, res),
                                      rest[1])
            ldiags.extend(more)
        diags.extend(ldiags)
    finally:
        diags.extend(session.close())
    ui.diagnostics(diags)
    if diags.has_errors:
        return 1
    ui.out(SUCCESS, newline=False)
    return 0


def _provider_context(session: Session, config: Any, values: dict[str, Value],
                      state: State) -> tuple[PlanContext | None, Diagnostics]:
    """A plan context for configuring providers from their blocks (root inputs bound)."""
    cwd = session.meta.cwd
    root, diags = root_instance(config, values, cwd, plan_phase=True)
    if diags.has_errors:
        return None, diags
    diags.extend(root.validate_inputs())
    if diags.has_errors:
        return None, diags
    tree = InstanceTree(config, dict(root.scope.input_values), cwd, plan_phase=True,
                        expander=expand_resource)
    return PlanContext(config=config, mode=PlanMode.NORMAL, refresh=True, tree=tree,
                       registry=session.registry, hooks=NO_HOOKS, prior=index_state(state),
                       refreshed=SyncState(state)), diags


def _import_locked(session: Session, config: Any, values: dict[str, Value],
                   addr: AbsResourceInstance, paddr: AbsProviderConfig, import_id: str
                   ) -> Diagnostics:
    mgr = session.manager
    assert mgr is not None
    ui = session.ui
    base, diags = mgr.read()
    if diags.has_errors:
        return diags
    state = base.state if base is not None else State()
    ctx, more = _provider_context(session, config, values, state)
    diags.extend(more)
    if ctx is None:
        return diags
    binding, more = ctx.binding(paddr, "managed", addr.resource.type)
    diags.extend(more)
    if binding is None or diags.has_errors:
        return diags
    ui.out(f"[reset][bold]{addr}: Importing from ID {json.dumps(import_id)}...")
    sync = SyncState(state)

    def prepared(one: ImportedResource) -> Diagnostics:
        ui.out(f"[reset][bold][green]{addr}: Import prepared!")
        ui.out(f"[reset][green]  Prepared {one.type_name} for import")
        if sync.current(addr) is None:
            return Diagnostics()
        return Diagnostics([error(
            "Resource already managed by Terraform",
            f"Terraform is already managing a remote object for {addr}. To import to this "
            "address you must first remove the existing object from the state.")])

    got, more = import_object(binding.provider, addr, import_id,
                              session.hooks, prepared, plan_wording=False)
    diags.extend(more)
    if got is None:
        return diags
    sync.set_current(addr, encode_object(binding.schema, got.value, got.private), str(paddr))
    _, more = mgr.storage.write(sync.snapshot())
    diags.extend(more)
    return diags
