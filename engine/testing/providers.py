"""Providers under test: mocked providers, overridden instances, and the registry serving them.

`MockedProvider` answers every provider call from the real provider's schema alone (terraform's
providers.Mock): planning gives computed attributes unknown values (or, with
`override_during = plan`, the mock's values), applying and reading data sources fill them
with the `defaults` of `mock_resource`/`mock_data` or generated values, refreshing returns the
stored object; no other call reaches a provider process. An overridden instance is served by a
`MockedProvider` whose values are the override's, whatever provider configuration it uses.

`TestRegistry` is the plugin registry of one test file: the configurations a `mock_provider`
block names are `MockedProvider`s (after one GetProviderSchema of the installed provider);
`overrides` (run, file and mock-provider layers) choose the provider of each instance.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.addrs import AbsProviderConfig, AbsResourceInstance
from engine.addrs import Provider as ProviderAddr
from engine.diags import Diagnostics, error
from engine.plugin.builtin.jsonstate import decode_json
from engine.plugin.loader import PluginRegistry
from engine.plugin.protocol import (
    ApplyResourceChangeRequest,
    ApplyResourceChangeResponse,
    ConfigureProviderRequest,
    ConfigureProviderResponse,
    GetProviderSchemaResponse,
    ImportResourceStateRequest,
    ImportResourceStateResponse,
    MoveResourceStateRequest,
    MoveResourceStateResponse,
    PlanResourceChangeRequest,
    PlanResourceChangeResponse,
    Provider,
    ReadDataSourceRequest,
    ReadDataSourceResponse,
    ReadResourceRequest,
    ReadResourceResponse,
    UpgradeResourceStateRequest,
    UpgradeResourceStateResponse,
    ValidateDataResourceConfigRequest,
    ValidateDataResourceConfigResponse,
    ValidateProviderConfigRequest,
    ValidateProviderConfigResponse,
    ValidateResourceConfigRequest,
    ValidateResourceConfigResponse,
)
from engine.source import Range
from engine.testing.files import MockProvider
from engine.testing.mock_values import is_null, is_unknown, populate
from engine.testing.overrides import Override, resource_override
from engine.values import Value, null


@dataclass(frozen=True, slots=True)
class MockedData:
    """Values for one mocked type or overridden instance (None: generated values)."""

    value: Value | None
    range: Range | None
    during_plan: bool = False


NO_DATA = MockedData(None, None)
DataFor = Callable[[str, bool], MockedData]  # (type name, is data source) -> data


class MockedProvider:
    """A provider that only knows the schema `schema` (see the module docstring)."""

    def __init__(self, schema: GetProviderSchemaResponse, data_for: DataFor) -> None:
        self.schema = schema
        self.data_for = data_for

    def _block(self, type_name: str, data: bool) -> object | None:
        table = self.schema.data_sources if data else self.schema.resource_types
        s = table.get(type_name)
        return None if s is None else s.block

    def get_provider_schema(self) -> GetProviderSchemaResponse:
        return self.schema

    def validate_provider_config(self, req: ValidateProviderConfigRequest
                                 ) -> ValidateProviderConfigResponse:
        return ValidateProviderConfigResponse(prepared_config=req.config)

    def validate_resource_config(self, req: ValidateResourceConfigRequest
                                 ) -> ValidateResourceConfigResponse:
        return ValidateResourceConfigResponse()

    def validate_data_resource_config(self, req: ValidateDataResourceConfigRequest
                                      ) -> ValidateDataResourceConfigResponse:
        return ValidateDataResourceConfigResponse()

    def upgrade_resource_state(self, req: UpgradeResourceStateRequest
                               ) -> UpgradeResourceStateResponse:
        s = self.schema.resource_types.get(req.type_name)
        resp = UpgradeResourceStateResponse()
        if s is None or req.raw_state_json is None:
            resp.diagnostics.append(error("Unsupported state format",
                                          f"A mocked provider cannot read {req.type_name} "
                                          "objects stored in this form."))
            return resp
        value, diags = decode_json(req.raw_state_json, s.block.implied_type())
        resp.diagnostics.extend(diags)
        if value is not None:
            resp.upgraded_state = value
        return resp

    def configure_provider(self, req: ConfigureProviderRequest) -> ConfigureProviderResponse:
        return ConfigureProviderResponse()

    def read_resource(self, req: ReadResourceRequest) -> ReadResourceResponse:
        return ReadResourceResponse(new_state=req.prior_state, private=req.private)

    def plan_resource_change(self, req: PlanResourceChangeRequest) -> PlanResourceChangeResponse:
        if req.proposed_new_state.is_null:
            return PlanResourceChangeResponse(planned_state=req.proposed_new_state)
        block = self._block(req.type_name, False)
        if block is None:
            return PlanResourceChangeResponse(diagnostics=_unknown_type(req.type_name))
        md = self.data_for(req.type_name, False)
        planned, diags = populate(req.proposed_new_state, block,  # type: ignore[arg-type]
                                  md.value, md.range, is_null, as_unknown=not md.during_plan)
        return PlanResourceChangeResponse(planned_state=planned, diagnostics=diags)

    def apply_resource_change(self, req: ApplyResourceChangeRequest
                              ) -> ApplyResourceChangeResponse:
        if req.planned_state.is_null:
            return ApplyResourceChangeResponse(new_state=req.planned_state)
        block = self._block(req.type_name, False)
        if block is None:
            return ApplyResourceChangeResponse(diagnostics=_unknown_type(req.type_name))
        md = self.data_for(req.type_name, False)
        new, diags = populate(req.planned_state, block,  # type: ignore[arg-type]
                              md.value, md.range, is_unknown)
        return ApplyResourceChangeResponse(new_state=new, diagnostics=diags)

    def import_resource_state(self, req: ImportResourceStateRequest
                              ) -> ImportResourceStateResponse:
        return ImportResourceStateResponse(diagnostics=Diagnostics([error(
            "Invalid import request",
            "Cannot import resources from mock providers. Use an override block to set the "
            "imported resource's values instead.")]))

    def move_resource_state(self, req: MoveResourceStateRequest) -> MoveResourceStateResponse:
        return MoveResourceStateResponse(diagnostics=Diagnostics([error(
            "Invalid move request", "Cannot move resources with mock providers.")]))

    def read_data_source(self, req: ReadDataSourceRequest) -> ReadDataSourceResponse:
        block = self._block(req.type_name, True)
        if block is None:
            return ReadDataSourceResponse(diagnostics=_unknown_type(req.type_name))
        md = self.data_for(req.type_name, True)
        state, diags = populate(req.config, block, md.value,  # type: ignore[arg-type]
                                md.range, is_null)
        return ReadDataSourceResponse(state=state, diagnostics=diags)

    def stop_provider(self) -> Diagnostics:
        return Diagnostics()

    def close(self) -> Diagnostics:
        return Diagnostics()


def _unknown_type(type_name: str) -> Diagnostics:
    return Diagnostics([error("Unsupported type",
                              f"The mocked provider has no schema for {type_name}.")])


def mock_data_for(mock: MockProvider, defaults: dict[tuple[str, bool], Value]) -> DataFor:
    """The per-type data of `mock_provider` block `mock`; `defaults` holds the evaluated
    `defaults` objects by (type, is data source)."""

    def data_for(type_name: str, data: bool) -> MockedData:
        table = mock.data if data else mock.resources
        mt = table.get(type_name)
        if mt is None:
            return NO_DATA
        return MockedData(defaults.get((type_name, data)), mt.decl_range)

    return data_for


def _override_data(ov: Override) -> DataFor:
    md = MockedData(ov.values, ov.values_range or ov.decl_range, ov.during_plan)
    return lambda _type, _data: md


class TestRegistry(PluginRegistry):
    """See the module docstring. `mocks` maps (provider address, alias) to the mock block and
    its evaluated defaults; `override_layers` is set for each run."""

    def __init__(self, working_dir: str,
                 mocks: dict[tuple[ProviderAddr, str], tuple[MockProvider, DataFor]]) -> None:
        super().__init__(working_dir)
        self.mocks = mocks
        self.override_layers: list[list[Override]] = []
        self._mocked: dict[AbsProviderConfig, MockedProvider] = {}

    def configured(self, addr: AbsProviderConfig, config: Value | None,
                   place: object = None) -> tuple[Provider | None, Diagnostics]:
        found = self.mocks.get((addr.provider, addr.alias or ""))
        if found is None:
            return super().configured(addr, config, place)  # type: ignore[arg-type]
        inst = self._mocked.get(addr)
        if inst is not None:
            return inst, Diagnostics()
        schema, diags = self.schema(addr.provider)
        if schema is None:
            return None, diags
        inst = MockedProvider(schema, found[1])
        self._mocked[addr] = inst
        return inst, diags

    def instance_provider(self, config: AbsProviderConfig, instance: AbsResourceInstance,
                          provider: Provider) -> Provider:
        layers = list(self.override_layers)
        mock = self.mocks.get((config.provider, config.alias or ""))
        if mock is not None:
            layers.append(mock[0].overrides)
        if not any(layers):
            return provider
        ov = resource_override(layers, instance, instance.resource.mode.value == "data")
        if ov is None:
            return provider
        schema, _ = self.schema(config.provider)
        if schema is None:
            return provider
        return MockedProvider(schema, _override_data(ov))

    def close(self) -> Diagnostics:
        self._mocked.clear()
        return super().close()


__all__ = ["MockedProvider", "TestRegistry", "mock_data_for", "null"]
