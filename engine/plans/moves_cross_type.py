"""`moved` across resource types or providers (terraform's MoveResourceState step).

A `moved` block may name a `from` of another resource type (or provider) than its `to`: the
object recorded under the old type is then not the new type's, and only the new type's
provider can turn it into one. As terraform, before the moved instance is refreshed:

- a provider that does not announce the `move_resource_state` capability refuses it:
  "Unsupported `moved` across resource types", pointing at the `moved` block, before the
  plan walk (`unsupported_moves`);
- otherwise the provider's MoveResourceState is asked, with the source provider, type,
  schema version, stored JSON attributes and private data, and the object it answers
  (encoded with the target schema) is the instance's prior object from then on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.addrs import AbsResourceInstance, parse_abs_provider_config
from engine.diags import Diagnostics, error
from engine.plans.planner_context import PlanContext, ProviderBinding
from engine.plans.planner_state import StateEntry, _raw_to_plain, encode_object, private_bytes
from engine.plugin.protocol import MoveResourceStateRequest
from engine.plugin.registry import ProviderRegistry
from engine.source import Range
from engine.values import dumps

if TYPE_CHECKING:
    from engine.configs import Config


def _crosses(entry: StateEntry, b: ProviderBinding, prev: AbsResourceInstance) -> bool:
    if prev.resource.type != entry.addr.resource.type:
        return True
    try:
        return parse_abs_provider_config(entry.provider).provider != b.addr.provider
    except Exception:
        return False


def unsupported_moves(config: Config, registry: ProviderRegistry,
                      moved: dict[AbsResourceInstance, AbsResourceInstance],
                      ranges: Mapping[AbsResourceInstance, Range | None],
                      providers: dict[AbsResourceInstance, str]) -> Diagnostics:
    """"Unsupported `moved` across resource types" for each move to another type (or
    provider) whose new provider lacks MoveResourceState; `providers` are the moved objects'
    recorded provider configurations."""
    from engine.graph.steps import provider_addr_for

    diags = Diagnostics()
    seen: set[Range | None] = set()
    for new, old in sorted(moved.items(), key=lambda kv: kv[0].sort_key()):
        cfg = config.descendant(new.module.module().names)
        res = None if cfg is None else cfg.module.managed_resources.get(
            f"{new.resource.type}.{new.resource.name}")
        if res is None:
            continue
        target = provider_addr_for(cfg, res)
        try:
            source = parse_abs_provider_config(providers.get(new, "")).provider
        except Exception:
            source = None
        if old.resource.type == new.resource.type and source in (None, target.provider):
            continue
        schemas, _ = registry.schema(target.provider)
        if schemas is None or schemas.server_capabilities.move_resource_state:
            continue
        where = ranges.get(new)
        if where in seen:
            continue
        seen.add(where)
        diags.append(error(
            "Unsupported `moved` across resource types",
            f'The provider "{target.provider}" does not support moved operations across '
            "resource types and providers.", where))
    return diags


def moved_across(ctx: PlanContext, b: ProviderBinding, entry: StateEntry,
                 prev: AbsResourceInstance) -> tuple[StateEntry | None, Diagnostics]:
    """`entry` as the moved instance's prior object (see the module docstring): unchanged
    when the move stays within one type and provider; None with the error otherwise."""
    diags = Diagnostics()
    obj = entry.current
    if obj is None or not _crosses(entry, b, prev):
        return entry, diags
    where = ctx.move_ranges.get(entry.addr)
    schemas, more = ctx.registry.schema(b.addr.provider)
    diags.extend(more)
    if schemas is None:
        return None, diags
    if not schemas.server_capabilities.move_resource_state:
        diags.append(error(
            "Unsupported `moved` across resource types",
            f'The provider "{b.addr.provider}" does not support moved operations across '
            "resource types and providers.", where))
        return None, diags
    try:
        source = str(parse_abs_provider_config(entry.provider).provider)
    except Exception:
        source = entry.provider
    raw = dumps(_raw_to_plain(obj.attributes if obj.attributes is not None else {}))
    resp = b.provider.move_resource_state(MoveResourceStateRequest(
        source_provider_address=source, source_type_name=prev.resource.type,
        source_schema_version=obj.schema_version, source_state_json=raw.encode("utf-8"),
        target_type_name=entry.addr.resource.type, source_private=private_bytes(obj)))
    for d in resp.diagnostics:
        diags.append(dataclasses.replace(d, subject=d.subject or where))
    if resp.diagnostics.has_errors:
        return None, diags
    moved = encode_object(b.schema, resp.target_state, resp.target_private,
                          list(obj.dependencies), obj.create_before_destroy)
    moved.status = obj.status
    new_entry = dataclasses.replace(entry, current=moved, provider=str(b.addr))
    ctx.refreshed.set_current(entry.addr, moved, str(b.addr))
    return new_entry, diags
