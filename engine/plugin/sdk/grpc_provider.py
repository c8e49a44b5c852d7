"""The tfplugin6 `Provider` gRPC service over any engine `Provider` (normally an SDKProvider).

Each RPC decodes its DynamicValues with the schema of the type named in the request, calls the
provider, and encodes the answer; values are converted to the schema type before encoding. An
unknown type name answers with an error diagnostic. Nothing here raises into gRPC: a failure
to decode or encode becomes an error diagnostic as well.

`ControllerService` is go-plugin's `plugin.GRPCController`: `Shutdown` calls `on_shutdown`
(which stops the server) and answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.diags import Diagnostic, Diagnostics, Severity
from engine.plugin import protocol as p
from engine.plugin.proto import grpc_controller_pb2, grpc_controller_pb2_grpc
from engine.plugin.proto import tfplugin6_pb2 as pb
from engine.plugin.proto import tfplugin6_pb2_grpc as pb_grpc
from engine.plugin.schema import Schema
from engine.plugin.sdk.wire import (
    diagnostics_to_proto,
    dynamic_value,
    path_to_proto,
    schema_to_proto,
    value_of,
)
from engine.values import DYNAMIC, ObjectType, Type, Value, convert

__all__ = ["ControllerService", "ProviderService"]


def _error(summary: str, detail: str) -> list[pb.Diagnostic]:
    return diagnostics_to_proto([Diagnostic(Severity.ERROR, summary, detail)])


def _fit(v: Value, t: Type) -> Value:
    """`v` converted to `t` when its type differs (a provider may build narrower types)."""
    return v if v.type == t else convert(v, t)


class ProviderService(pb_grpc.ProviderServicer):
    """tfplugin6.Provider served by `provider` (see the module docstring)."""

    def __init__(self, provider: p.Provider) -> None:
        self.provider = provider
        self.schemas = provider.get_provider_schema()

    # -- schema lookups ------------------------------------------------------------------------
    def _type(self, table: dict[str, Schema], name: str) -> ObjectType | None:
        s = table.get(name)
        return None if s is None else s.block.implied_type()

    def _resource_type(self, name: str) -> ObjectType | None:
        return self._type(self.schemas.resource_types, name)

    def _data_type(self, name: str) -> ObjectType | None:
        return self._type(self.schemas.data_sources, name)

    def _meta(self, dv: pb.DynamicValue) -> Value:
        if not (dv.msgpack or dv.json):
            return Value(DYNAMIC, None)
        return value_of(dv, self.schemas.provider_meta.block.implied_type())

    def _guarded(self, make: Callable[[], Any], fail: Callable[[list[pb.Diagnostic]], Any]) -> Any:
        try:
            return make()
        except Exception as e:
            return fail(_error("Provider protocol error", f"{type(e).__name__}: {e}"))

    # -- metadata and schema ---------------------------------------------------------------
    def GetMetadata(self, request: pb.GetMetadata.Request, context: Any) -> Any:
        caps = self.schemas.server_capabilities
        return pb.GetMetadata.Response(
            server_capabilities=pb.ServerCapabilities(
                plan_destroy=caps.plan_destroy,
                get_provider_schema_optional=caps.get_provider_schema_optional,
                move_resource_state=caps.move_resource_state,
            ),
            resources=[pb.GetMetadata.ResourceMetadata(type_name=n)
                       for n in sorted(self.schemas.resource_types)],
            data_sources=[pb.GetMetadata.DataSourceMetadata(type_name=n)
                          for n in sorted(self.schemas.data_sources)],
        )

    def GetProviderSchema(self, request: pb.GetProviderSchema.Request, context: Any) -> Any:
        s = self.schemas
        caps = s.server_capabilities
        return pb.GetProviderSchema.Response(
            provider=schema_to_proto(s.provider),
            provider_meta=schema_to_proto(s.provider_meta),
            resource_schemas={n: schema_to_proto(v) for n, v in s.resource_types.items()},
            data_source_schemas={n: schema_to_proto(v) for n, v in s.data_sources.items()},
            diagnostics=diagnostics_to_proto(s.diagnostics),
            server_capabilities=pb.ServerCapabilities(
                plan_destroy=caps.plan_destroy,
                get_provider_schema_optional=caps.get_provider_schema_optional,
                move_resource_state=caps.move_resource_state,
            ),
        )

    def GetFunctions(self, request: pb.GetFunctions.Request, context: Any) -> Any:
        return pb.GetFunctions.Response()

    def CallFunction(self, request: pb.CallFunction.Request, context: Any) -> Any:
        return pb.CallFunction.Response(
            error=pb.FunctionError(text=f"The provider has no function {request.name!r}.")
        )

    # -- validation and configuration ----------------------------------------------------------
    def ValidateProviderConfig(self, request: Any, context: Any) -> Any:
        def make() -> Any:
            t = self.schemas.provider.block.implied_type()
            resp = self.provider.validate_provider_config(
                p.ValidateProviderConfigRequest(value_of(request.config, t)))
            return pb.ValidateProviderConfig.Response(
                diagnostics=diagnostics_to_proto(resp.diagnostics))

        return self._guarded(make, lambda d: pb.ValidateProviderConfig.Response(diagnostics=d))

    def ConfigureProvider(self, request: Any, context: Any) -> Any:
        def make() -> Any:
            t = self.schemas.provider.block.implied_type()
            resp = self.provider.configure_provider(p.ConfigureProviderRequest(
                request.terraform_version, value_of(request.config, t)))
            return pb.ConfigureProvider.Response(
                diagnostics=diagnostics_to_proto(resp.diagnostics))

        return self._guarded(make, lambda d: pb.ConfigureProvider.Response(diagnostics=d))

    def ValidateResourceConfig(self, request: Any, context: Any) -> Any:
        def make() -> Any:
            t = self._resource_type(request.type_name)
            if t is None:
                return pb.ValidateResourceConfig.Response(diagnostics=_unknown_type(request))
            resp = self.provider.validate_resource_config(p.ValidateResourceConfigRequest(
                request.type_name, value_of(request.config, t)))
            return pb.ValidateResourceConfig.Response(
                diagnostics=diagnostics_to_proto(resp.diagnostics))

        return self._guarded(make, lambda d: pb.ValidateResourceConfig.Response(diagnostics=d))

    def ValidateDataResourceConfig(self, request: Any, context: Any) -> Any:
        def make() -> Any:
            t = self._data_type(request.type_name)
            if t is None:
                return pb.ValidateDataResourceConfig.Response(diagnostics=_unknown_type(request))
            resp = self.provider.validate_data_resource_config(
                p.ValidateDataResourceConfigRequest(request.type_name,
                                                    value_of(request.config, t)))
            return pb.ValidateDataResourceConfig.Response(
                diagnostics=diagnostics_to_proto(resp.diagnostics))

        return self._guarded(make, lambda d: pb.ValidateDataResourceConfig.Response(diagnostics=d))

    # -- resources -------------------------------------------------------------------------
    def UpgradeResourceState(self, request: Any, context: Any) -> Any:
        def make() -> Any:
            t = self._resource_type(request.type_name)
            if t is None:
                return pb.UpgradeResourceState.Response(diagnostics=_unknown_type(request))
            raw = request.raw_state
            resp = self.provider.upgrade_resource_state(p.UpgradeResourceStateRequest(
                request.type_name, request.version,
                raw_state_json=raw.json if raw.json else None,
                raw_state_flatmap=None if raw.json else dict(raw.flatmap)))
            return pb.UpgradeResourceState.Response(
                upgraded_state=dynamic_value(_fit(resp.upgraded_state, t), t),
                diagnostics=diagnostics_to_proto(resp.diagnostics))

        return self._guarded(make, lambda d: pb.UpgradeResourceState.Response(diagnostics=d))

    def ReadResource(self, request: Any, context: Any) -> Any:
        def make() -> Any:
            t = self._resource_type(request.type_name)
            if t is None:
                return pb.ReadResource.Response(diagnostics=_unknown_type(request))
            resp = self.provider.read_resource(p.ReadResourceRequest(
                request.type_name, value_of(request.current_state, t), request.private,
                provider_meta=self._meta(request.provider_meta)))
            return pb.ReadResource.Response(
                new_state=dynamic_value(_fit(resp.new_state, t), t), private=resp.private,
                diagnostics=diagnostics_to_proto(resp.diagnostics))

        return self._guarded(make, lambda d: pb.ReadResource.Response(diagnostics=d))

    def PlanResourceChange(self, request: Any, context: Any) -> Any:
        def make() -> Any:
            t = self._resource_type(request.type_name)
            if t is None:
                return pb.PlanResourceChange.Response(diagnostics=_unknown_type(request))
            resp = self.provider.plan_resource_change(p.PlanResourceChangeRequest(
                request.type_name,
                prior_state=value_of(request.prior_state, t),
                proposed_new_state=value_of(request.proposed_new_state, t),
                config=value_of(request.config, t),
                prior_private=request.prior_private,
                provider_meta=self._meta(request.provider_meta)))
            return pb.PlanResourceChange.Response(
                planned_state=dynamic_value(_fit(resp.planned_state, t), t),
                requires_replace=[path_to_proto(x) for x in resp.requires_replace],
                planned_private=resp.planned_private,
                diagnostics=diagnostics_to_proto(resp.diagnostics))

        return self._guarded(make, lambda d: pb.PlanResourceChange.Response(diagnostics=d))

    def ApplyResourceChange(self, request: Any, context: Any) -> Any:
        def make() -> Any:
            t = self._resource_type(request.type_name)
            if t is None:
                return pb.ApplyResourceChange.Response(diagnostics=_unknown_type(request))
            resp = self.provider.apply_resource_change(p.ApplyResourceChangeRequest(
                request.type_name,
                prior_state=value_of(request.prior_state, t),
                planned_state=value_of(request.planned_state, t),
                config=value_of(request.config, t),
                planned_private=request.planned_private,
                provider_meta=self._meta(request.provider_meta)))
            return pb.ApplyResourceChange.Response(
                new_state=dynamic_value(_fit(resp.new_state, t), t), private=resp.private,
                diagnostics=diagnostics_to_proto(resp.diagnostics))

        return self._guarded(make, lambda d: pb.ApplyResourceChange.Response(diagnostics=d))

    def ImportResourceState(self, request: Any, context: Any) -> Any:
        def make() -> Any:
            if self._resource_type(request.type_name) is None:
                return pb.ImportResourceState.Response(diagnostics=_unknown_type(request))
            resp = self.provider.import_resource_state(
                p.ImportResourceStateRequest(request.type_name, request.id))
            out = []
            for r in resp.imported_resources:
                t = self._resource_type(r.type_name) or r.state.type
                out.append(pb.ImportResourceState.ImportedResource(
                    type_name=r.type_name, state=dynamic_value(_fit(r.state, t), t),
                    private=r.private))
            return pb.ImportResourceState.Response(
                imported_resources=out, diagnostics=diagnostics_to_proto(resp.diagnostics))

        return self._guarded(make, lambda d: pb.ImportResourceState.Response(diagnostics=d))

    def MoveResourceState(self, request: Any, context: Any) -> Any:
        def make() -> Any:
            t = self._resource_type(request.target_type_name)
            if t is None:
                return pb.MoveResourceState.Response(diagnostics=_error(
                    "Resource Type Not Found",
                    f"The provider does not support resource type "
                    f"{request.target_type_name!r}."))
            resp = self.provider.move_resource_state(p.MoveResourceStateRequest(
                request.source_provider_address, request.source_type_name,
                request.source_schema_version, request.source_state.json,
                request.target_type_name, request.source_private))
            return pb.MoveResourceState.Response(
                target_state=dynamic_value(_fit(resp.target_state, t), t),
                target_private=resp.target_private,
                diagnostics=diagnostics_to_proto(resp.diagnostics))

        return self._guarded(make, lambda d: pb.MoveResourceState.Response(diagnostics=d))

    def ReadDataSource(self, request: Any, context: Any) -> Any:
        def make() -> Any:
            t = self._data_type(request.type_name)
            if t is None:
                return pb.ReadDataSource.Response(diagnostics=_unknown_type(request))
            resp = self.provider.read_data_source(p.ReadDataSourceRequest(
                request.type_name, value_of(request.config, t),
                provider_meta=self._meta(request.provider_meta)))
            return pb.ReadDataSource.Response(
                state=dynamic_value(_fit(resp.state, t), t),
                diagnostics=diagnostics_to_proto(resp.diagnostics))

        return self._guarded(make, lambda d: pb.ReadDataSource.Response(diagnostics=d))

    def StopProvider(self, request: Any, context: Any) -> Any:
        diags: Diagnostics = self.provider.stop_provider()
        return pb.StopProvider.Response(Error="; ".join(d.summary for d in diags))


def _unknown_type(request: Any) -> list[pb.Diagnostic]:
    return _error("Unknown type", f"The provider does not support {request.type_name!r}.")


class ControllerService(grpc_controller_pb2_grpc.GRPCControllerServicer):
    """go-plugin's plugin.GRPCController: Shutdown ends the process (via `on_shutdown`)."""

    def __init__(self, on_shutdown: Callable[[], None]) -> None:
        self.on_shutdown = on_shutdown

    def Shutdown(self, request: Any, context: Any) -> Any:
        self.on_shutdown()
        return grpc_controller_pb2.Empty()
