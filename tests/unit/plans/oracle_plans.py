"""Test helper: rebuild our Plan and prior state from a `terraform show -json` plan document
of a terraform_data-only configuration, so our renderers can be compared with terraform's.

Types come from the terraform_data schema (dynamic attributes take the JSON's implied types,
as HCL literals give tuples and objects); an unknown `output` has the type of the planned
`input`, as terraform_data plans it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.addrs import (
    BUILTIN_TERRAFORM,
    ROOT_MODULE,
    AbsProviderConfig,
    Module,
    parse_abs_resource_instance,
)
from engine.plans.model import (
    Action,
    ActionReason,
    Importing,
    OutputChange,
    Plan,
    PlanMode,
    ResourceInstanceChange,
)
from engine.plugin.builtin.terraform_data import SCHEMA
from engine.plugin.paths import AttrStep, IndexStep
from engine.plugin.protocol import GetProviderSchemaResponse
from engine.states import Resource, ResourceInstance, ResourceInstanceObject, State, StateFile
from engine.states.state import OutputValue
from engine.values import DYNAMIC, STRING, Type, Value, implied_type, number, string
from engine.values.json import loads, value_from_json
from engine.values.types import ObjectType
from engine.values.value import UNKNOWN

ORACLE = Path(__file__).parent / "oracle"
SCHEMAS = {BUILTIN_TERRAFORM: GetProviderSchemaResponse(resource_types={"terraform_data": SCHEMA})}


def load_doc(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = loads((ORACLE / name / "show.json").read_text())
    return doc


def _plain(data: Any) -> Value:
    return value_from_json(data, implied_type(data))


def _with_unknowns(data: Any, unknown: Any, t_hint: Type | None = None) -> Value:
    if unknown is True:
        return Value(t_hint or DYNAMIC, UNKNOWN)
    if isinstance(unknown, list) and isinstance(data, list | type(None)):
        elems = [_with_unknowns(d, u) for d, u in zip(data or [None] * len(unknown), unknown, strict=True)]
        from engine.values import tuple_

        return tuple_(elems)
    if isinstance(unknown, dict) and isinstance(data, dict) and unknown:
        from engine.values import object_

        return object_({k: _with_unknowns(data.get(k), unknown.get(k, False)) for k in
                        sorted(set(data) | {k for k, u in unknown.items() if u})})
    return _plain(data)


def _mark(v: Value, sens: Any) -> Value:
    if sens is True:
        return v.mark("sensitive")
    if isinstance(sens, list) and isinstance(v.v, list):
        return Value(v.type, [_mark(e, s) for e, s in zip(v.v, sens, strict=False)] + v.v[len(sens):],
                     v.marks)
    if isinstance(sens, dict) and isinstance(v.v, dict):
        return Value(v.type, {k: _mark(e, sens.get(k, False)) for k, e in v.v.items()}, v.marks)
    return v


def _object(data: Any, unknown: Any, sens: Any) -> Value:
    if data is None and not unknown:
        return Value(SCHEMA.block.implied_type(), None)
    data = data or {}
    unknown = unknown or {}
    attrs: dict[str, Value] = {}
    for name in ("id", "input", "output", "triggers_replace"):
        u = unknown.get(name, False)
        if name == "id":
            attrs[name] = Value(STRING, UNKNOWN) if u is True else Value(STRING, data.get(name))
            continue
        hint = None
        if name == "output" and u is True and "input" in data:
            hint = _with_unknowns(data.get("input"), unknown.get("input", False)).type
        attrs[name] = _with_unknowns(data.get(name), u, hint)
    v = Value(ObjectType({k: e.type for k, e in attrs.items()}), attrs)
    return _mark(v, sens)


def _step(s: Any) -> Any:
    if isinstance(s, str):
        return AttrStep(s)
    return IndexStep(number(s) if isinstance(s, int) else string(str(s)))


def _change(rc: dict[str, Any]) -> ResourceInstanceChange:
    ch = rc["change"]
    addr = parse_abs_resource_instance(rc["address"])
    prev = rc.get("previous_address")
    return ResourceInstanceChange(
        addr=addr,
        provider=AbsProviderConfig(ROOT_MODULE if not addr.module.steps else addr.module.module(),
                                   BUILTIN_TERRAFORM),
        action=next(a for a in Action if list(a.value) == ch["actions"]),
        before=_object(ch.get("before"), {}, ch.get("before_sensitive")),
        after=_object(ch.get("after"), ch.get("after_unknown"), ch.get("after_sensitive")),
        prev_run_addr=parse_abs_resource_instance(prev) if prev else None,
        deposed_key=rc.get("deposed"),
        action_reason=ActionReason(rc["action_reason"]) if "action_reason" in rc else None,
        requires_replace=[tuple(_step(s) for s in p) for p in ch.get("replace_paths", [])],
        importing=Importing(ch["importing"]["id"]) if "importing" in ch else None,
    )


def plan_from_doc(doc: dict[str, Any], mode: PlanMode = PlanMode.NORMAL) -> Plan:
    outputs = []
    for name, oc in doc.get("output_changes", {}).items():
        before = _plain(oc.get("before"))
        after = _with_unknowns(oc.get("after"), oc.get("after_unknown"))
        if oc.get("before_sensitive"):
            before = before.mark("sensitive")
        if oc.get("after_sensitive"):
            after = after.mark("sensitive")
        outputs.append(OutputChange(
            name, next(a for a in Action if list(a.value) == oc["actions"]), before, after,
            sensitive=bool(oc.get("after_sensitive")),
        ))
    return Plan(
        mode=mode,
        changes=[_change(rc) for rc in doc.get("resource_changes", [])],
        output_changes=outputs,
        drift=[_change(rc) for rc in doc.get("resource_drift", [])],
        variables={k: _plain(v["value"]) for k, v in doc.get("variables", {}).items()},
        timestamp=doc["timestamp"],
        errored=doc["errored"],
        complete=doc["complete"],
    )


def _dyn(data: Any) -> Any:
    return {"value": data, "type": implied_type(data).to_json()} if data is not None else None


def state_from_doc(doc: dict[str, Any]) -> StateFile | None:
    """The prior state terraform recorded in the plan, as a v4 StateFile."""
    ps = doc.get("prior_state")
    if ps is None:
        return None
    values = ps.get("values", {})
    st = State()
    for name, o in values.get("outputs", {}).items():
        from engine.values import type_from_json

        st.outputs[name] = OutputValue(value_from_json(o["value"], type_from_json(o["type"])),
                                       o["sensitive"])

    def walk(mod: dict[str, Any]) -> None:
        for r in mod.get("resources", []):
            addr = parse_abs_resource_instance(r["address"])
            attrs = dict(r["values"])
            for k in ("input", "output", "triggers_replace"):
                attrs[k] = _dyn(attrs.get(k))
            obj = ResourceInstanceObject(schema_version=r["schema_version"], attributes=attrs,
                                         dependencies=list(r.get("depends_on", [])))
            st.resources.append(Resource(
                r["mode"], r["type"], r["name"], 'provider["terraform.io/builtin/terraform"]',
                module=str(addr.module), instances=[ResourceInstance(addr.key, obj)]))
        for child in mod.get("child_modules", []):
            walk(child)

    walk(values.get("root_module", {}))
    return StateFile(st, lineage="x", serial=1, terraform_version=ps["terraform_version"])


__all__ = ["ORACLE", "SCHEMAS", "Module", "load_doc", "plan_from_doc", "state_from_doc"]
