"""Driving an SDKProvider in-process the way the core does: plan then apply, with the
proposed new state built as terraform's ProposedNew does for top-level attributes."""

from __future__ import annotations

from typing import Any

from engine.plugin import protocol as p
from engine.plugin.sdk import SDKProvider, to_native, to_value
from engine.values import ObjectType, Value


def object_type(provider: SDKProvider, type_name: str) -> ObjectType:
    return provider.get_provider_schema().resource_types[type_name].block.implied_type()


def config_value(provider: SDKProvider, type_name: str, config: dict[str, Any]) -> Value:
    return to_value(config, object_type(provider, type_name))


def proposed(provider: SDKProvider, type_name: str, prior: Value, config: Value) -> Value:
    """terraform's ProposedNew for flat schemas: config, with computed attributes the config
    leaves null taken from the prior state."""
    block = provider.get_provider_schema().resource_types[type_name].block
    if prior.is_null:
        return config
    out = dict(config.v)
    for name, a in block.attributes.items():
        if a.computed and config.v[name].is_null:
            out[name] = prior.v[name]
    return Value(config.type, out)


def plan(provider: SDKProvider, type_name: str, config: dict[str, Any],
         prior: Value | None = None) -> p.PlanResourceChangeResponse:
    t = object_type(provider, type_name)
    prior = prior if prior is not None else Value(t, None)
    cfg = to_value(config, t)
    return provider.plan_resource_change(p.PlanResourceChangeRequest(
        type_name, prior, proposed(provider, type_name, prior, cfg), cfg))


def create(provider: SDKProvider, type_name: str, config: dict[str, Any]) -> Value:
    """Plan and apply a create; asserts no diagnostics and returns the new state."""
    t = object_type(provider, type_name)
    planned = plan(provider, type_name, config)
    assert not planned.diagnostics.has_errors, [d.summary for d in planned.diagnostics]
    applied = provider.apply_resource_change(p.ApplyResourceChangeRequest(
        type_name, Value(t, None), planned.planned_state, to_value(config, t)))
    assert not applied.diagnostics.has_errors, [d.detail for d in applied.diagnostics]
    return applied.new_state


def native(v: Value) -> Any:
    return to_native(v)
