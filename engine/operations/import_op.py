"""The import operation: `import_resource(request) -> ImportResult` (terraform's `import`).

The resource must be declared in the configuration (else the result's `not_in_config` is
set: terraform prints its own plain text for that). With the state locked, the resource's
provider configuration is configured from its `provider` block (evaluated with the root
input values), then ImportResourceState turns the ID into an object and ReadResource reads
it; the object is written to the state as the instance's current object. Errors are
terraform's: "Resource already managed by Terraform", "Cannot import non-existent remote
object", "Import returned no resources", "Multiple import states not supported".
"""

from __future__ import annotations

from engine.addrs import (
    AbsProviderConfig,
    AbsResourceInstance,
    AddressSyntaxError,
    ResourceMode,
    parse_abs_resource_instance,
)
from engine.configs import Config
from engine.core.instances import InstanceTree
from engine.core.root import root_instance
from engine.diags import Diagnostics, error
from engine.graph.steps import provider_addr_for
from engine.operations.prepare import (
    encryption_checked,
    load_configuration,
    record_encryption_inputs,
    root_inputs,
)
from engine.operations.requests import ImportRequest
from engine.operations.results import ImportResult
from engine.operations.running import registry_for, walking, with_parallelism
from engine.operations.state import locked_state
from engine.plans.hooks import NO_HOOKS
from engine.plans.importing import import_object
from engine.plans.model import PlanMode
from engine.plans.planner_context import PlanContext
from engine.plans.planner_expand import expand_resource
from engine.plans.planner_state import encode_object, index_state
from engine.plugin.protocol import ImportedResource
from engine.plugin.registry import ProviderRegistry
from engine.states.manager import StateManager
from engine.states.state import State
from engine.states.sync import SyncState
from engine.values import Value


def import_resource(request: ImportRequest) -> ImportResult:
    """Import `request.import_id` into `request.address` (see the module docstring). The
    view is shown every diagnostic once, at the end (as terraform's import command)."""
    result = ImportResult()
    diags = result.diagnostics
    request, more = with_parallelism(request)
    if more.has_errors:
        diags.extend(more)
        request.view.diagnostics(diags)
        return result
    try:
        addr = parse_abs_resource_instance(request.address)
    except AddressSyntaxError as exc:
        diags.append(error("Invalid address", f"{request.address}: {exc}"))
        request.view.diagnostics(diags)
        return result
    if addr.resource.mode is ResourceMode.DATA:
        diags.append(error(
            "Invalid address",
            "A managed resource address is required. Importing into a data resource is not "
            "allowed."))
        request.view.diagnostics(diags)
        return result
    config, more = load_configuration(request.working_dir, request.config_dir)
    diags.extend(more)
    if config is not None and not diags.has_errors:
        diags.extend(encryption_checked(request.encryption, config))
    if diags.has_errors or config is None:
        request.view.diagnostics(diags)
        return result
    cfg = config.descendant(addr.module.module().names)
    rkey = f"{addr.resource.type}.{addr.resource.name}"
    res = None if cfg is None else cfg.module.managed_resources.get(rkey)
    if cfg is None or res is None:
        result.not_in_config = True
        return result
    given, more = root_inputs(config, request.variables, request.environ, request.working_dir,
                              request.ask_variable)
    diags.extend(more)
    if diags.has_errors:
        request.view.diagnostics(diags)
        return result
    record_encryption_inputs(request.encryption, given.values)
    with registry_for(request) as registry:
        with locked_state(request, "OperationTypeImport") as (mgr, ldiags):
            if mgr is None or ldiags.has_errors:
                request.view.diagnostics(ldiags)
                result.diagnostics = Diagnostics(list(ldiags))
                return result
            with walking(request):
                state, more = _import_locked(request, registry, mgr, config, given.values,
                                             addr, provider_addr_for(cfg, res))
            ldiags.extend(more)
        diags.extend(ldiags)
    request.view.diagnostics(diags)
    if not diags.has_errors:
        result.state = state
    return result


def _provider_context(request: ImportRequest, registry: ProviderRegistry, config: Config,
                      values: dict[str, Value], state: State
                      ) -> tuple[PlanContext | None, Diagnostics]:
    """A plan context for configuring providers from their blocks (root inputs bound)."""
    cwd = request.working_dir
    root, diags = root_instance(config, values, cwd, plan_phase=True)
    if diags.has_errors:
        return None, diags
    diags.extend(root.validate_inputs())
    if diags.has_errors:
        return None, diags
    tree = InstanceTree(config, dict(root.scope.input_values), cwd, plan_phase=True,
                        expander=expand_resource)
    return PlanContext(config=config, mode=PlanMode.NORMAL, refresh=True, tree=tree,
                       registry=registry, hooks=NO_HOOKS, prior=index_state(state),
                       refreshed=SyncState(state)), diags


def _import_locked(request: ImportRequest, registry: ProviderRegistry, mgr: StateManager,
                   config: Config, values: dict[str, Value], addr: AbsResourceInstance,
                   paddr: AbsProviderConfig) -> tuple[State | None, Diagnostics]:
    base, diags = mgr.read()
    if diags.has_errors:
        return None, diags
    state = base.state if base is not None else State()
    ctx, more = _provider_context(request, registry, config, values, state)
    diags.extend(more)
    if ctx is None:
        return None, diags
    binding, more = ctx.binding(paddr, "managed", addr.resource.type)
    diags.extend(more)
    if binding is None or diags.has_errors:
        return None, diags
    view = request.view
    view.importing(str(addr), request.import_id)
    sync = SyncState(state)

    def prepared(one: ImportedResource) -> Diagnostics:
        view.import_prepared(str(addr), one.type_name)
        if sync.current(addr) is None:
            return Diagnostics()
        return Diagnostics([error(
            "Resource already managed by groundplan",
            f"groundplan is already managing a remote object for {addr}. To import to this "
            "address you must first remove the existing object from the state.")])

    got, more = import_object(binding.provider, addr, request.import_id,
                              view.hooks, prepared, plan_wording=False)
    diags.extend(more)
    if got is None:
        return None, diags
    sync.set_current(addr, encode_object(binding.schema, got.value, got.private), str(paddr))
    written, more = mgr.storage.write(sync.snapshot())
    diags.extend(more)
    return (written.state if written is not None else None), diags


__all__ = ["import_resource"]
