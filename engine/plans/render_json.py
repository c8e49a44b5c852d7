"""Terraform's JSON plan representation (`terraform show -json PLANFILE`, format 1.2).

`plan_to_json(plan, prior_state, config, schemas)` builds the document as jsonplan does:
`variables`, `planned_values` (outputs and the module tree of planned resource values),
`resource_drift`, `resource_changes`, `output_changes`, `prior_state` (jsonstate of the refreshed
state with the root outputs whose planned values are wholly known, as terraform's plan walk
records them; omitted when that is empty), `configuration` (see render_json_config), `relevant_attributes`, `timestamp`,
`applyable`, `complete`, `errored`. Values are JSON data with exact numbers (`int` or
`JSONNumber`); write the document with `engine.values.json.dumps`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.addrs import AbsResourceInstance, ModuleInstance, ResourceMode
from engine.addrs.keys import key_sort
from engine.plans.diff_schemas import Schemas, resource_schema
from engine.plans.model import Action, OutputChange, Plan, ResourceInstanceChange
from engine.plans.render_json_checks import checks_json
from engine.plans.render_json_state import module_tree, state_to_json
from engine.plans.render_json_values import (
    marshal,
    marshal_attributes,
    omit_unknowns,
    path_json,
    sensitive_as_bool,
    unknown_as_bool,
    with_schema_sensitivity,
)
from engine.plugin.paths import AttributePath
from engine.plugin.schema import Block
from engine.states import OutputValue, State, StateFile
from engine.values import Value
from engine.version import TERRAFORM_VERSION

FORMAT_VERSION = "1.2"


def _sorted_changes(changes: Iterable[ResourceInstanceChange]) -> list[ResourceInstanceChange]:
    """In terraform's AbsResourceInstance.Less order: by module instance, data resources
    before managed ones, then type, name, instance key (and deposed key)."""
    def key(c: ResourceInstanceChange) -> tuple[object, ...]:
        r = c.addr.resource
        return (c.addr.module.sort_key(), 0 if r.mode is ResourceMode.DATA else 1, r.type,
                r.name, key_sort(c.addr.key), c.deposed_key or "")
    return sorted(changes, key=key)


def _block(schemas: Schemas, c: ResourceInstanceChange) -> tuple[Block | None, int]:
    schema = resource_schema(schemas, c.provider.provider, c.addr.resource.mode,
                             c.addr.resource.type)
    if schema is None:
        return None, 0
    return schema.block, schema.version


def _identity(addr: AbsResourceInstance) -> dict[str, Any]:
    r = addr.resource
    out: dict[str, Any] = {"address": str(addr)}
    return out | _rest_identity(addr, r.mode)


def _rest_identity(addr: AbsResourceInstance, mode: ResourceMode) -> dict[str, Any]:
    r = addr.resource
    out: dict[str, Any] = {"mode": mode.value, "type": r.type, "name": r.name}
    if addr.key is not None:
        out["index"] = addr.key
    return out


def resource_change_json(c: ResourceInstanceChange, schemas: Schemas) -> dict[str, Any]:
    """One entry of `resource_changes` / `resource_drift`."""
    block, _ = _block(schemas, c)
    out: dict[str, Any] = {"address": str(c.addr)}
    if c.prev_run_addr is not None and c.prev_run_addr != c.addr:
        out["previous_address"] = str(c.prev_run_addr)
    if c.addr.module.steps:
        out["module_address"] = str(c.addr.module)
    out |= _rest_identity(c.addr, c.addr.resource.mode)
    if c.deposed_key:
        out["deposed"] = c.deposed_key
    out["provider_name"] = str(c.provider.provider)
    out["change"] = change_json(c, block)
    if c.action_reason is not None:
        out["action_reason"] = c.action_reason.value
    return out


def change_json(c: ResourceInstanceChange, block: Block | None) -> dict[str, Any]:
    """The `change` object of a resource change."""
    before = with_schema_sensitivity(block, c.before)
    after = with_schema_sensitivity(block, c.after)
    out: dict[str, Any] = {"actions": list(c.action.value), "before": marshal(before)}
    if after.is_wholly_known():
        out["after"] = marshal(after)
        after_unknown: Any = {}
    else:
        filtered = omit_unknowns(after)
        if filtered is not None and not filtered.is_null:
            out["after"] = marshal(filtered)
        after_unknown = unknown_as_bool(after)
    out["after_unknown"] = after_unknown
    out["before_sensitive"] = sensitive_as_bool(before)
    out["after_sensitive"] = sensitive_as_bool(after)
    if c.requires_replace:
        out["replace_paths"] = [path_json(p) for p in c.requires_replace]
    if c.importing is not None:
        out["importing"] = {"id": c.importing.id}
    if c.generated_config:
        out["generated_config"] = c.generated_config
    return out


def output_change_json(o: OutputChange) -> dict[str, Any]:
    """One entry of `output_changes`."""
    out: dict[str, Any] = {"actions": list(o.action.value), "before": marshal(o.before)}
    after = o.after
    if after.is_wholly_known():
        out["after"] = marshal(after)
        after_unknown: Any = False
    else:
        filtered = omit_unknowns(after)
        if filtered is not None and not filtered.is_null:
            out["after"] = marshal(filtered)
        after_unknown = unknown_as_bool(after)
    out["after_unknown"] = after_unknown
    out["before_sensitive"] = o.sensitive
    out["after_sensitive"] = o.sensitive
    return out


def planned_values_json(plan: Plan, schemas: Schemas) -> dict[str, Any]:
    """`planned_values`: root outputs and every non-deleted resource's planned values."""
    outputs: dict[str, Any] = {}
    for o in sorted(plan.output_changes, key=lambda o: o.name):
        if o.action is Action.DELETE:
            continue
        entry: dict[str, Any] = {"sensitive": o.sensitive}
        if o.after.is_wholly_known():
            plain, _ = o.after.unmark_deep()
            entry["type"] = plain.type.to_json()
            entry["value"] = marshal(plain)
        outputs[o.name] = entry
    entries: list[tuple[ModuleInstance, dict[str, Any]]] = []
    for c in _sorted_changes(plan.changes):
        # a forgotten object stays in planned_values (with no values), as in terraform
        if c.action is Action.DELETE or c.deposed_key:
            continue
        block, version = _block(schemas, c)
        res = _identity(c.addr)
        res["provider_name"] = str(c.provider.provider)
        res["schema_version"] = version
        after = c.after
        attrs = marshal_attributes(after if after.is_wholly_known() else (omit_unknowns(after)
                                                                          or Value(after.type, None)))
        if attrs:
            res["values"] = attrs
        res["sensitive_values"] = sensitive_as_bool(with_schema_sensitivity(block, after))
        entries.append((c.addr.module, res))
    out: dict[str, Any] = {}
    if outputs:
        out["outputs"] = outputs
    out["root_module"] = module_tree(entries)
    return out


def prior_state_with_outputs(prior_state: StateFile | None, plan: Plan) -> StateFile | None:
    """The prior state as terraform's plan records it: the refreshed state, with each root
    output whose planned value is wholly known set to that value (terraform's plan walk writes
    those into the refresh state; unknown ones keep their previous value)."""
    base = prior_state.state if prior_state is not None else State()
    outputs = dict(base.outputs)
    known = [o for o in plan.output_changes
             if o.action is not Action.DELETE and o.after.is_wholly_known()]
    if not known:
        return prior_state
    for o in known:
        plain, marks = o.after.unmark_deep()
        outputs[o.name] = OutputValue(plain, o.sensitive or bool(marks))
    state = State(outputs=outputs, resources=base.resources, check_results=base.check_results)
    if prior_state is None:
        return StateFile(state=state)
    return StateFile(state=state, lineage=prior_state.lineage, serial=prior_state.serial,
                     terraform_version=prior_state.terraform_version)


def relevant_attributes_json(
    attrs: Iterable[tuple[AbsResourceInstance | str, AttributePath | Iterable[Any]]],
) -> list[dict[str, Any]]:
    """`relevant_attributes` from (resource address, attribute path) pairs."""
    return [{"resource": str(r), "attribute": path_json(p)} for r, p in attrs]


def variables_json(recorded: dict[str, Value], config: Any) -> dict[str, Any]:
    """jsonplan's marshalPlanVariables: each root variable value the plan recorded, as given
    (unconverted; sensitive ones in the clear), then, for each declared variable without one,
    its default when it has one. The values of ephemeral variables are not recorded in a
    terraform plan, so only their defaults show. `config` None: the recorded values only."""
    decls: dict[str, Any] = config.module.variables if config is not None else {}
    out: dict[str, Any] = {}
    for name, v in recorded.items():
        decl = decls.get(name)
        if decl is None or not decl.ephemeral:
            out[name] = {"value": marshal(v)}
    for name, decl in decls.items():
        if name not in out and decl.default is not None:
            out[name] = {"value": marshal(decl.default)}
    return dict(sorted(out.items()))


def plan_to_json(
    plan: Plan,
    prior_state: StateFile | None,
    config: Any,
    schemas: Schemas,
    relevant_attributes: Iterable[tuple[AbsResourceInstance | str, Any]] | None = None,
    terraform_version: str = TERRAFORM_VERSION,
) -> dict[str, Any]:
    """The JSON plan document for `plan` (see module doc). `config` is the loaded
    configuration (`engine.configs.loader.Config`) or None to leave `configuration` out;
    `relevant_attributes` defaults to the plan's own."""
    out: dict[str, Any] = {"format_version": FORMAT_VERSION, "terraform_version": terraform_version}
    variables = variables_json(plan.variables, config)
    if variables:
        out["variables"] = variables
    out["planned_values"] = planned_values_json(plan, schemas)
    if plan.drift:
        out["resource_drift"] = [resource_change_json(c, schemas) for c in _sorted_changes(plan.drift)]
    if plan.changes:
        out["resource_changes"] = [resource_change_json(c, schemas)
                                   for c in _sorted_changes(plan.changes)]
    if plan.output_changes:
        out["output_changes"] = {o.name: output_change_json(o)
                                 for o in sorted(plan.output_changes, key=lambda o: o.name)}
    prior = prior_state_with_outputs(prior_state, plan)
    if prior is not None and not prior.state.is_empty:
        out["prior_state"] = state_to_json(prior, schemas)
    if config is not None:
        from engine.plans.render_json_config import config_to_json

        out["configuration"] = config_to_json(config, schemas)
    rel = relevant_attributes_json(
        plan.relevant_attributes if relevant_attributes is None else relevant_attributes)
    if rel:
        out["relevant_attributes"] = rel
    checks = checks_json(plan.checks)
    if checks:
        out["checks"] = checks
    out["timestamp"] = plan.timestamp
    out["applyable"] = plan.applyable
    out["complete"] = plan.complete
    out["errored"] = plan.errored
    return out
