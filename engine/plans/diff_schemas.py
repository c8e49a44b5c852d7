"""Looking up resource schemas for rendering: `Schemas` maps a provider to its schemas.

Any object with `resource_types` and `data_sources` mappings of type name to `Schema` (such as
the plugin protocol's `GetProviderSchemaResponse`) serves as one provider's schemas.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from engine.addrs import Provider, ResourceMode
from engine.plugin.schema import Schema


class ProviderSchemas(Protocol):
    """One provider's resource and data source schemas, by type name."""

    @property
    def resource_types(self) -> Mapping[str, Schema]: ...

    @property
    def data_sources(self) -> Mapping[str, Schema]: ...


Schemas = Mapping[Provider, ProviderSchemas]


def resource_schema(
    schemas: Schemas, provider: Provider, mode: ResourceMode | str, type_name: str
) -> Schema | None:
    """The schema of a managed (`mode` MANAGED/"managed") or data resource type, or None."""
    ps = schemas.get(provider)
    if ps is None:
        return None
    is_data = mode is ResourceMode.DATA or mode == "data"
    table = ps.data_sources if is_data else ps.resource_types
    return table.get(type_name)
