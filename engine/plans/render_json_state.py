"""Terraform's JSON state representation (jsonstate), used by `show -json` and `prior_state`.

`state_to_json(state_file, schemas)` gives `{"format_version": "1.0", "terraform_version",
"values": {"outputs", "root_module"}, "checks"}` (no `values` for an empty state; `checks` from
the state's recorded check results, see render_json_checks, when there are any). Resource objects are
decoded with their provider's schema (falling back to the JSON's implied types when there is
none) so dynamic attributes appear as plain JSON; `sensitive_values` merges the state's
`sensitive_attributes` with the schema's sensitive attributes.

`module_tree(entries)` nests resource JSON objects by module instance into `root_module` with
`child_modules` (sorted by address, ancestors created as needed); jsonplan's `planned_values`
uses it too.
"""

from __future__ import annotations

from typing import Any

from engine.addrs import (
    AddressSyntaxError,
    ModuleInstance,
    parse_abs_provider_config,
    parse_module_instance,
)
from engine.addrs.keys import key_str
from engine.plans.diff_schemas import Schemas, resource_schema
from engine.plans.render_json_checks import checks_json
from engine.plans.render_json_values import (
    exact_numbers,
    marshal,
    marshal_attributes,
    sensitive_as_bool,
    with_schema_sensitivity,
)
from engine.plugin.paths import AttributePath
from engine.plugin.schema import Block, mark_paths
from engine.states import Resource, ResourceInstanceObject, StateFile
from engine.states.codec import decode_value
from engine.values import Value, implied_type, type_from_json
from engine.values.json import value_from_json

FORMAT_VERSION = "1.0"


def module_tree(
    entries: list[tuple[ModuleInstance, dict[str, Any]]], presorted: bool = False
) -> dict[str, Any]:
    """Nest resource JSON objects by their module instance into a `root_module` object.
    Resources are sorted by address (jsonplan's order) unless `presorted` keeps theirs."""
    by_module: dict[ModuleInstance, list[dict[str, Any]]] = {}
    for mod, res in entries:
        by_module.setdefault(mod, []).append(res)
        for i in range(len(mod.steps)):
            by_module.setdefault(ModuleInstance(mod.steps[:i]), [])
    by_module.setdefault(ModuleInstance(), [])

    def build(mod: ModuleInstance) -> dict[str, Any]:
        out: dict[str, Any] = {}
        resources = by_module[mod] if presorted else sorted(
            by_module[mod], key=lambda r: (r["address"], r.get("deposed_key", "")))
        if resources:
            out["resources"] = resources
        if mod.steps:
            out["address"] = str(mod)
        children = sorted(
            (m for m in by_module if len(m.steps) == len(mod.steps) + 1
             and m.steps[: len(mod.steps)] == mod.steps),
            key=str,
        )
        if children:
            out["child_modules"] = [build(c) for c in children]
        return out

    return build(ModuleInstance())


def _state_path(raw: Any) -> AttributePath | None:
    """A path in the v4 state file's `sensitive_attributes` notation."""
    if not isinstance(raw, list):
        return None
    path = AttributePath.root()
    for step in raw:
        if not isinstance(step, dict):
            return None
        if step.get("type") == "get_attr":
            path = path.attr(str(step.get("value")))
        elif step.get("type") == "index":
            key = step.get("value")
            if not isinstance(key, dict) or "type" not in key:
                return None
            try:
                kv = value_from_json(_plain(key.get("value")), type_from_json(key["type"]))
            except ValueError:
                return None
            path = path.index(kv)
        else:
            return None
    return path


def _plain(data: Any) -> Any:
    return exact_numbers(data)


def decode_object(obj: ResourceInstanceObject, block: Block | None) -> Value:
    """A state object's attributes as a Value, with its sensitive paths marked."""
    data = obj.attributes
    if block is not None:
        try:
            v = decode_value(data, block.implied_type())
        except ValueError:
            v = value_from_json(_plain(data), implied_type(_plain(data)))
    else:
        v = value_from_json(_plain(data), implied_type(_plain(data)))
    paths = [p for p in (_state_path(r) for r in obj.sensitive_attributes) if p is not None]
    return mark_paths(v, paths) if paths else v


def _provider_of(rs: Resource) -> Any:
    try:
        return parse_abs_provider_config(rs.provider).provider
    except AddressSyntaxError:
        return None


def _resource_order(rs: Resource) -> tuple[bool, str, str]:
    """terraform's Resource.Less: data resources first, then by type, then by name."""
    return (rs.mode != "data", rs.type, rs.name)


def _key_order(key: Any) -> tuple[int, Any]:
    """terraform's InstanceKeyLess: no key, then integer keys by value, then string keys."""
    if key is None:
        return (0, 0)
    if isinstance(key, int) and not isinstance(key, bool):
        return (1, key)
    return (2, str(key))


def state_resources_json(
    sf: StateFile, schemas: Schemas
) -> list[tuple[ModuleInstance, dict[str, Any]]]:
    """Every resource instance object of the state as jsonstate's Resource, by module, in
    jsonstate's order: resources as `_resource_order`, instances by key (`_key_order`), each
    current object before its deposed ones."""
    out: list[tuple[ModuleInstance, dict[str, Any]]] = []
    for rs in sorted(sf.state.resources, key=_resource_order):
        try:
            mod = parse_module_instance(rs.module)
        except AddressSyntaxError:
            continue
        provider = _provider_of(rs)
        schema = resource_schema(schemas, provider, rs.mode, rs.type) if provider else None
        block = schema.block if schema is not None else None
        for inst in sorted(rs.instances, key=lambda i: _key_order(i.index_key)):
            objs: list[tuple[str, ResourceInstanceObject]] = []
            if inst.current is not None:
                objs.append(("", inst.current))
            objs.extend(sorted(inst.deposed.items()))
            for deposed, obj in objs:
                base = f"{rs.type}.{rs.name}" if rs.mode == "managed" else f"data.{rs.type}.{rs.name}"
                addr = base + key_str(inst.index_key)
                if mod.steps:
                    addr = f"{mod}.{addr}"
                value = with_schema_sensitivity(block, decode_object(obj, block))
                res: dict[str, Any] = {
                    "address": addr,
                    "mode": rs.mode,
                    "type": rs.type,
                    "name": rs.name,
                }
                if inst.index_key is not None:
                    res["index"] = inst.index_key
                res["provider_name"] = str(provider) if provider else rs.provider
                res["schema_version"] = obj.schema_version
                attrs = marshal_attributes(value)
                if attrs:
                    res["values"] = attrs
                res["sensitive_values"] = sensitive_as_bool(value)
                if obj.dependencies:
                    res["depends_on"] = list(obj.dependencies)
                if obj.status == "tainted":
                    res["tainted"] = True
                if deposed:
                    res["deposed_key"] = deposed
                out.append((mod, res))
    return out


def state_to_json(sf: StateFile | None, schemas: Schemas) -> dict[str, Any]:
    """jsonstate.Marshal of a state file (`show -json` with a state)."""
    out: dict[str, Any] = {"format_version": FORMAT_VERSION}
    if sf is None:
        return out
    out["terraform_version"] = sf.terraform_version
    st = sf.state
    if st.is_empty:  # as jsonstate.Marshal: an empty state has no values and no checks
        return out
    checks = checks_json(st.check_results)
    values: dict[str, Any] = {}
    if st.outputs:
        values["outputs"] = {
            name: {
                "sensitive": ov.sensitive,
                "value": marshal(ov.value),
                "type": ov.value.type.to_json(),
            }
            for name, ov in sorted(st.outputs.items())
        }
    values["root_module"] = module_tree(state_resources_json(sf, schemas), presorted=True)
    out["values"] = values
    if checks:
        out["checks"] = checks
    return out
