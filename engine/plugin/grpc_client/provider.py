"""`GrpcProvider`: the `Provider` protocol spoken to a plugin process over tfplugin5 or 6.

`GrpcProvider.start(name, path)` launches the binary (engine.plugin.grpc_client.process),
connects a gRPC channel to the socket it announced and returns a provider speaking whichever
protocol version the plugin chose (6 preferred, 5 accepted). Every call maps one-to-one onto
the protocol's RPC (v5 names in brackets): GetProviderSchema [GetSchema],
ValidateProviderConfig [PrepareProviderConfig], ValidateResourceConfig
[ValidateResourceTypeConfig], ValidateDataResourceConfig [ValidateDataSourceConfig],
UpgradeResourceState, ConfigureProvider [Configure], ReadResource, PlanResourceChange,
ApplyResourceChange, ImportResourceState, MoveResourceState, ReadDataSource, StopProvider [Stop].
Values go as msgpack shaped by the schema's types (engine.plugin.msgpack_codec); the schema is
fetched once per instance, or read from the on-disk `SchemaCache` so a later run skips the RPC.

Calls never raise: failures come back as diagnostics, each naming the provider. A plugin that
dies during a call gives terraform's "Plugin did not respond" error ("The plugin encountered
an error, and failed to respond to the plugin.(*GRPCProvider).X call. ...") plus the exit status
and the plugin's last output (a Go panic, typically).

`close()` asks the plugin to exit (go-plugin's `plugin.GRPCController/Shutdown`; StopProvider
only cancels in-flight work, the process keeps serving), waits briefly, then SIGTERM/SIGKILL,
and reaps it. `stop_all()` sends StopProvider to every live provider (for a SIGINT handler).
"""

from __future__ import annotations

import contextlib
import os
import threading
import weakref
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import grpc

from engine.diags import Diagnostics, error
from engine.plugin.grpc_client.convert import (
    SchemaError,
    capabilities_from_proto,
    deferred_from_proto,
    diagnostics_from_proto,
    path_from_proto,
    schema_from_proto,
)
from engine.plugin.grpc_client.process import PluginProcess
from engine.plugin.grpc_client.rpc_errors import rpc_error
from engine.plugin.grpc_client.schema_cache import SchemaCache
from engine.plugin.msgpack_codec import CodecError, decode_dynamic_value, encode
from engine.plugin.proto import (
    grpc_controller_pb2,
    grpc_controller_pb2_grpc,
    tfplugin5_pb2,
    tfplugin5_pb2_grpc,
    tfplugin6_pb2,
    tfplugin6_pb2_grpc,
)
from engine.plugin.protocol import (
    ApplyResourceChangeRequest,
    ApplyResourceChangeResponse,
    ConfigureProviderRequest,
    ConfigureProviderResponse,
    GetProviderSchemaResponse,
    ImportedResource,
    ImportResourceStateRequest,
    ImportResourceStateResponse,
    MoveResourceStateRequest,
    MoveResourceStateResponse,
    PlanResourceChangeRequest,
    PlanResourceChangeResponse,
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
from engine.plugin.schema import Schema
from engine.values import Type, Value

__all__ = ["SUPPORTED_VERSIONS", "GrpcProvider", "grpc_provider_factory", "stop_all"]

SUPPORTED_VERSIONS = (5, 6)
_MAX_MESSAGE = 256 << 20  # terraform allows 256 MiB messages (big schemas, big states)

# Our method names -> (v5 RPC, v6 RPC); messages are named as the v5/v6 RPC except GetSchema.
_RPC = {
    "GetProviderSchema": ("GetSchema", "GetProviderSchema"),
    "ValidateProviderConfig": ("PrepareProviderConfig", "ValidateProviderConfig"),
    "ValidateResourceConfig": ("ValidateResourceTypeConfig", "ValidateResourceConfig"),
    "ValidateDataResourceConfig": ("ValidateDataSourceConfig", "ValidateDataResourceConfig"),
    "ConfigureProvider": ("Configure", "ConfigureProvider"),
    "StopProvider": ("Stop", "StopProvider"),
}

_providers: weakref.WeakSet[GrpcProvider] = weakref.WeakSet()


def stop_all() -> None:
    """Send StopProvider to every open provider (in-flight calls should end early)."""
    for p in list(_providers):
        p.stop_provider()


class GrpcProvider:
    """A provider plugin process behind the `Provider` protocol (see module doc)."""

    def __init__(
        self,
        name: str,
        binary: str | os.PathLike[str],
        process: PluginProcess,
        channel: grpc.Channel,
        schema_cache: SchemaCache | None,
    ) -> None:
        self.name = name
        self.binary = Path(binary)
        self.process = process
        self.protocol_version = process.handshake.protocol_version
        self._pb: Any = tfplugin6_pb2 if self.protocol_version == 6 else tfplugin5_pb2
        grpc_mod: Any = tfplugin6_pb2_grpc if self.protocol_version == 6 else tfplugin5_pb2_grpc
        self._channel = channel
        self._stub: Any = grpc_mod.ProviderStub(channel)
        self._controller = grpc_controller_pb2_grpc.GRPCControllerStub(channel)
        self._cache = schema_cache
        self._schema: GetProviderSchemaResponse | None = None
        self._schema_mu = threading.Lock()
        self._closed = False
        self.schema_from_cache = False
        _providers.add(self)

    # -- lifecycle -----------------------------------------------------------------------
    @classmethod
    def start(
        cls,
        name: str,
        binary: str | os.PathLike[str],
        *,
        versions: Iterable[int] = SUPPORTED_VERSIONS,
        start_timeout: float = 60.0,
        schema_cache: SchemaCache | None = None,
        env: dict[str, str] | None = None,
    ) -> GrpcProvider:
        """Launch and connect; raises PluginStartError (naming `name`) if it cannot."""
        from engine.plugin.grpc_client.process import PluginStartError

        proc = PluginProcess.start(name, binary, versions, start_timeout=start_timeout, env=env)
        hs = proc.handshake
        if hs.server_cert_der is not None:
            proc.kill()
            raise PluginStartError(
                f"Failed to start provider {name}: the plugin requires TLS, which this client "
                "does not offer (no PLUGIN_CLIENT_CERT was sent)"
            )
        channel = grpc.insecure_channel(
            hs.grpc_target,
            options=[
                ("grpc.max_receive_message_length", _MAX_MESSAGE),
                ("grpc.max_send_message_length", _MAX_MESSAGE),
            ],
        )
        try:
            grpc.channel_ready_future(channel).result(timeout=start_timeout)
        except grpc.FutureTimeoutError:
            channel.close()
            proc.kill()
            raise PluginStartError(
                f"Failed to start provider {name}: could not connect to the plugin at "
                f"{hs.address}"
            ) from None
        return cls(name, binary, proc, channel, schema_cache)

    def close(self) -> Diagnostics:
        """Shut the plugin down (Shutdown, then SIGTERM/SIGKILL) and reap it; idempotent."""
        diags = Diagnostics()
        if self._closed:
            return diags
        self._closed = True
        _providers.discard(self)
        if self.process.exited() is None:
            # the call reports a broken stream as the process goes: that is success
            with contextlib.suppress(grpc.RpcError):
                self._controller.Shutdown(grpc_controller_pb2.Empty(), timeout=5)
            if self.process.wait(2.0) is None:
                self.process.terminate(2.0)
        self._channel.close()
        self.process.kill()  # reaps if still needed, removes the private socket directory
        return diags

    def stop_provider(self) -> Diagnostics:
        """StopProvider: ask in-flight calls to end early; returns within 5 seconds."""
        if self._closed or self.process.exited() is not None:
            return Diagnostics()
        resp, diags = self._call("StopProvider", self._msg("StopProvider").Request(), timeout=5)
        if resp is not None and resp.Error:
            diags.append(error("Failed to stop provider", f"{self.name}: {resp.Error}"))
        return diags

    # -- plumbing ------------------------------------------------------------------------
    def _msg(self, ours: str) -> Any:
        pair = _RPC.get(ours)
        name = ours if pair is None else pair[0 if self.protocol_version == 5 else 1]
        if name == "GetSchema":
            name = "GetProviderSchema"
        return getattr(self._pb, name)

    def _call(self, ours: str, request: Any, timeout: float | None = None) -> tuple[Any, Diagnostics]:
        pair = _RPC.get(ours)
        rpc = ours if pair is None else pair[0 if self.protocol_version == 5 else 1]
        if self._closed:
            return None, Diagnostics([error(
                "Provider is closed", f"The provider {self.name} was already shut down; "
                f"{rpc} cannot be called.")])
        try:
            return getattr(self._stub, rpc)(request, timeout=timeout), Diagnostics()
        except grpc.RpcError as e:
            return None, Diagnostics([rpc_error(rpc, e, self.name, self.binary.name, self.process)])

    def _dv(self, value: Value, t: Type) -> Any:
        return self._pb.DynamicValue(msgpack=encode(value.unmark_deep()[0], t))

    def _value(self, dv: Any, t: Type) -> Value:
        return decode_dynamic_value(dv.msgpack, dv.json, t)

    def _codec_error(self, what: str, e: Exception) -> Diagnostics:
        return Diagnostics([error(
            "Failed to encode or decode a provider value",
            f"{what} for provider {self.name}: {e}")])

    def _lookup(self, kind: str, type_name: str) -> tuple[Schema | None, Diagnostics]:
        resp = self.get_provider_schema()
        if resp.diagnostics.has_errors:
            return None, resp.diagnostics
        table = resp.resource_types if kind == "resource" else resp.data_sources
        schema = table.get(type_name)
        if schema is None:
            label = "resource type" if kind == "resource" else "data source"
            return None, Diagnostics([error(
                f"Invalid {label}", f"The provider {self.name} does not support {label} "
                f"{type_name!r}.")])
        return schema, Diagnostics()

    def _meta(self, value: Value) -> Any:
        meta = self.get_provider_schema().provider_meta.block
        if not meta.attributes and not meta.block_types:
            return None
        return self._dv(value, meta.implied_type())

    def _client_caps(self, caps: Any) -> Any:
        return self._pb.ClientCapabilities(
            deferral_allowed=caps.deferral_allowed,
            write_only_attributes_allowed=caps.write_only_attributes_allowed,
        )

    # -- schema --------------------------------------------------------------------------
    def get_provider_schema(self) -> GetProviderSchemaResponse:
        """The schemas: from this instance's memory, the disk cache, or the RPC (in that
        order); a successful RPC answer is written to the cache."""
        with self._schema_mu:
            if self._schema is not None:
                return self._schema
            raw = None
            if self._cache is not None:
                raw = self._cache.load(self.binary, self.protocol_version)
            msg: Any = None
            if raw is not None:
                try:
                    msg = self._msg("GetProviderSchema").Response.FromString(raw)
                    self.schema_from_cache = True
                except Exception:
                    msg = None
            if msg is None:
                msg, diags = self._call(
                    "GetProviderSchema", self._msg("GetProviderSchema").Request())
                if msg is None:
                    return GetProviderSchemaResponse(diagnostics=diags)
            resp = self._convert_schema(msg)
            if not resp.diagnostics.has_errors:
                if raw is None and self._cache is not None:
                    self._cache.store(self.binary, self.protocol_version, msg.SerializeToString())
                self._schema = resp
            return resp

    def _convert_schema(self, msg: Any) -> GetProviderSchemaResponse:
        diags = diagnostics_from_proto(msg.diagnostics)
        try:
            return GetProviderSchemaResponse(
                provider=schema_from_proto(msg.provider),
                provider_meta=schema_from_proto(msg.provider_meta),
                resource_types={k: schema_from_proto(v) for k, v in msg.resource_schemas.items()},
                data_sources={k: schema_from_proto(v) for k, v in msg.data_source_schemas.items()},
                server_capabilities=capabilities_from_proto(msg.server_capabilities),
                diagnostics=diags,
            )
        except SchemaError as e:
            diags.append(error("Invalid provider schema", f"Provider {self.name}: {e}"))
            return GetProviderSchemaResponse(diagnostics=diags)

    # -- validation ----------------------------------------------------------------------
    def validate_provider_config(
        self, req: ValidateProviderConfigRequest
    ) -> ValidateProviderConfigResponse:
        """v5 returns the config with the provider's defaults filled (prepared_config); v6
        returns the given config unchanged."""
        schema = self.get_provider_schema()
        if schema.diagnostics.has_errors:
            return ValidateProviderConfigResponse(diagnostics=schema.diagnostics)
        t = schema.provider.block.implied_type()
        try:
            msg = self._msg("ValidateProviderConfig").Request(config=self._dv(req.config, t))
        except CodecError as e:
            return ValidateProviderConfigResponse(diagnostics=self._codec_error("config", e))
        resp, diags = self._call("ValidateProviderConfig", msg)
        if resp is None:
            return ValidateProviderConfigResponse(diagnostics=diags)
        diags.extend(diagnostics_from_proto(resp.diagnostics))
        prepared = req.config
        if self.protocol_version == 5 and resp.HasField("prepared_config"):
            try:
                prepared = self._value(resp.prepared_config, t)
            except CodecError as e:
                diags.extend(self._codec_error("prepared config", e))
        return ValidateProviderConfigResponse(prepared_config=prepared, diagnostics=diags)

    def validate_resource_config(
        self, req: ValidateResourceConfigRequest
    ) -> ValidateResourceConfigResponse:
        schema, diags = self._lookup("resource", req.type_name)
        if schema is None:
            return ValidateResourceConfigResponse(diagnostics=diags)
        try:
            msg = self._msg("ValidateResourceConfig").Request(
                type_name=req.type_name,
                config=self._dv(req.config, schema.block.implied_type()),
                client_capabilities=self._client_caps(req.client_capabilities),
            )
        except CodecError as e:
            return ValidateResourceConfigResponse(diagnostics=self._codec_error("config", e))
        resp, diags = self._call("ValidateResourceConfig", msg)
        if resp is not None:
            diags.extend(diagnostics_from_proto(resp.diagnostics))
        return ValidateResourceConfigResponse(diagnostics=diags)

    def validate_data_resource_config(
        self, req: ValidateDataResourceConfigRequest
    ) -> ValidateDataResourceConfigResponse:
        schema, diags = self._lookup("data", req.type_name)
        if schema is None:
            return ValidateDataResourceConfigResponse(diagnostics=diags)
        try:
            msg = self._msg("ValidateDataResourceConfig").Request(
                type_name=req.type_name,
                config=self._dv(req.config, schema.block.implied_type()),
            )
        except CodecError as e:
            return ValidateDataResourceConfigResponse(diagnostics=self._codec_error("config", e))
        resp, diags = self._call("ValidateDataResourceConfig", msg)
        if resp is not None:
            diags.extend(diagnostics_from_proto(resp.diagnostics))
        return ValidateDataResourceConfigResponse(diagnostics=diags)

    # -- state upgrade and configure -----------------------------------------------------
    def upgrade_resource_state(
        self, req: UpgradeResourceStateRequest
    ) -> UpgradeResourceStateResponse:
        schema, diags = self._lookup("resource", req.type_name)
        if schema is None:
            return UpgradeResourceStateResponse(diagnostics=diags)
        raw = self._pb.RawState(
            json=req.raw_state_json or b"", flatmap=dict(req.raw_state_flatmap or {})
        )
        msg = self._pb.UpgradeResourceState.Request(
            type_name=req.type_name, version=req.version, raw_state=raw
        )
        resp, diags = self._call("UpgradeResourceState", msg)
        if resp is None:
            return UpgradeResourceStateResponse(diagnostics=diags)
        diags.extend(diagnostics_from_proto(resp.diagnostics))
        t = schema.block.implied_type()
        try:
            state = self._value(resp.upgraded_state, t)
        except CodecError as e:
            diags.extend(self._codec_error("upgraded state", e))
            state = Value(t, None)
        return UpgradeResourceStateResponse(upgraded_state=state, diagnostics=diags)

    def configure_provider(self, req: ConfigureProviderRequest) -> ConfigureProviderResponse:
        schema = self.get_provider_schema()
        if schema.diagnostics.has_errors:
            return ConfigureProviderResponse(diagnostics=schema.diagnostics)
        try:
            config = self._dv(req.config, schema.provider.block.implied_type())
        except CodecError as e:
            return ConfigureProviderResponse(diagnostics=self._codec_error("config", e))
        msg = self._msg("ConfigureProvider").Request(
            terraform_version=req.terraform_version, config=config,
            client_capabilities=self._client_caps(req.client_capabilities),
        )
        resp, diags = self._call("ConfigureProvider", msg)
        if resp is not None:
            diags.extend(diagnostics_from_proto(resp.diagnostics))
        return ConfigureProviderResponse(diagnostics=diags)

    # -- managed resources ---------------------------------------------------------------
    def read_resource(self, req: ReadResourceRequest) -> ReadResourceResponse:
        schema, diags = self._lookup("resource", req.type_name)
        if schema is None:
            return ReadResourceResponse(diagnostics=diags)
        t = schema.block.implied_type()
        try:
            msg = self._pb.ReadResource.Request(
                type_name=req.type_name, current_state=self._dv(req.prior_state, t),
                private=req.private, provider_meta=self._meta(req.provider_meta),
                client_capabilities=self._client_caps(req.client_capabilities),
            )
        except CodecError as e:
            return ReadResourceResponse(diagnostics=self._codec_error("prior state", e))
        resp, diags = self._call("ReadResource", msg)
        if resp is None:
            return ReadResourceResponse(new_state=req.prior_state, diagnostics=diags)
        diags.extend(diagnostics_from_proto(resp.diagnostics))
        try:
            new = self._value(resp.new_state, t)
        except CodecError as e:
            diags.extend(self._codec_error("new state", e))
            new = req.prior_state
        return ReadResourceResponse(
            new_state=new, private=resp.private, diagnostics=diags,
            deferred=deferred_from_proto(resp),
        )

    def plan_resource_change(self, req: PlanResourceChangeRequest) -> PlanResourceChangeResponse:
        schema, diags = self._lookup("resource", req.type_name)
        if schema is None:
            return PlanResourceChangeResponse(diagnostics=diags)
        t = schema.block.implied_type()
        try:
            msg = self._pb.PlanResourceChange.Request(
                type_name=req.type_name,
                prior_state=self._dv(req.prior_state, t),
                proposed_new_state=self._dv(req.proposed_new_state, t),
                config=self._dv(req.config, t),
                prior_private=req.prior_private,
                provider_meta=self._meta(req.provider_meta),
                client_capabilities=self._client_caps(req.client_capabilities),
            )
        except CodecError as e:
            return PlanResourceChangeResponse(diagnostics=self._codec_error("plan request", e))
        resp, diags = self._call("PlanResourceChange", msg)
        if resp is None:
            return PlanResourceChangeResponse(diagnostics=diags)
        diags.extend(diagnostics_from_proto(resp.diagnostics))
        try:
            planned = self._value(resp.planned_state, t)
        except CodecError as e:
            diags.extend(self._codec_error("planned state", e))
            planned = Value(t, None)
        return PlanResourceChangeResponse(
            planned_state=planned,
            requires_replace=[path_from_proto(p) for p in resp.requires_replace],
            planned_private=resp.planned_private,
            diagnostics=diags,
            legacy_type_system=resp.legacy_type_system,
            deferred=deferred_from_proto(resp),
        )

    def apply_resource_change(
        self, req: ApplyResourceChangeRequest
    ) -> ApplyResourceChangeResponse:
        schema, diags = self._lookup("resource", req.type_name)
        if schema is None:
            return ApplyResourceChangeResponse(diagnostics=diags)
        t = schema.block.implied_type()
        try:
            msg = self._pb.ApplyResourceChange.Request(
                type_name=req.type_name,
                prior_state=self._dv(req.prior_state, t),
                planned_state=self._dv(req.planned_state, t),
                config=self._dv(req.config, t),
                planned_private=req.planned_private,
                provider_meta=self._meta(req.provider_meta),
            )
        except CodecError as e:
            return ApplyResourceChangeResponse(diagnostics=self._codec_error("apply request", e))
        resp, diags = self._call("ApplyResourceChange", msg)
        if resp is None:
            return ApplyResourceChangeResponse(new_state=req.prior_state, diagnostics=diags)
        diags.extend(diagnostics_from_proto(resp.diagnostics))
        try:
            new = self._value(resp.new_state, t)
        except CodecError as e:
            diags.extend(self._codec_error("new state", e))
            new = req.prior_state
        return ApplyResourceChangeResponse(
            new_state=new, private=resp.private, diagnostics=diags,
            legacy_type_system=resp.legacy_type_system,
        )

    def import_resource_state(
        self, req: ImportResourceStateRequest
    ) -> ImportResourceStateResponse:
        schema, diags = self._lookup("resource", req.type_name)
        if schema is None:
            return ImportResourceStateResponse(diagnostics=diags)
        msg = self._pb.ImportResourceState.Request(
            type_name=req.type_name, id=req.id,
            client_capabilities=self._client_caps(req.client_capabilities),
        )
        resp, diags = self._call("ImportResourceState", msg)
        if resp is None:
            return ImportResourceStateResponse(diagnostics=diags)
        diags.extend(diagnostics_from_proto(resp.diagnostics))
        out: list[ImportedResource] = []
        for imp in resp.imported_resources:
            isch, more = self._lookup("resource", imp.type_name)
            diags.extend(more)
            if isch is None:
                continue
            try:
                state = self._value(imp.state, isch.block.implied_type())
            except CodecError as e:
                diags.extend(self._codec_error(f"imported {imp.type_name}", e))
                continue
            out.append(ImportedResource(imp.type_name, state, imp.private))
        return ImportResourceStateResponse(
            imported_resources=out, diagnostics=diags, deferred=deferred_from_proto(resp)
        )

    def move_resource_state(self, req: MoveResourceStateRequest) -> MoveResourceStateResponse:
        schema, diags = self._lookup("resource", req.target_type_name)
        if schema is None:
            return MoveResourceStateResponse(diagnostics=diags)
        msg = self._pb.MoveResourceState.Request(
            source_provider_address=req.source_provider_address,
            source_type_name=req.source_type_name,
            source_schema_version=req.source_schema_version,
            source_state=self._pb.RawState(json=req.source_state_json),
            target_type_name=req.target_type_name,
            source_private=req.source_private,
        )
        resp, diags = self._call("MoveResourceState", msg)
        if resp is None:
            return MoveResourceStateResponse(diagnostics=diags)
        diags.extend(diagnostics_from_proto(resp.diagnostics))
        t = schema.block.implied_type()
        try:
            target = self._value(resp.target_state, t)
        except CodecError as e:
            diags.extend(self._codec_error("target state", e))
            target = Value(t, None)
        return MoveResourceStateResponse(
            target_state=target, target_private=resp.target_private, diagnostics=diags
        )

    # -- data sources --------------------------------------------------------------------
    def read_data_source(self, req: ReadDataSourceRequest) -> ReadDataSourceResponse:
        schema, diags = self._lookup("data", req.type_name)
        if schema is None:
            return ReadDataSourceResponse(diagnostics=diags)
        t = schema.block.implied_type()
        try:
            msg = self._pb.ReadDataSource.Request(
                type_name=req.type_name, config=self._dv(req.config, t),
                provider_meta=self._meta(req.provider_meta),
                client_capabilities=self._client_caps(req.client_capabilities),
            )
        except CodecError as e:
            return ReadDataSourceResponse(diagnostics=self._codec_error("config", e))
        resp, diags = self._call("ReadDataSource", msg)
        if resp is None:
            return ReadDataSourceResponse(diagnostics=diags)
        diags.extend(diagnostics_from_proto(resp.diagnostics))
        try:
            state = self._value(resp.state, t)
        except CodecError as e:
            diags.extend(self._codec_error("data source state", e))
            state = Value(t, None)
        return ReadDataSourceResponse(
            state=state, diagnostics=diags, deferred=deferred_from_proto(resp)
        )


def grpc_provider_factory(
    name: str,
    binary: str | os.PathLike[str],
    *,
    schema_cache: SchemaCache | None = None,
    start_timeout: float = 60.0,
    env: dict[str, str] | None = None,
) -> Callable[[], GrpcProvider]:
    """A zero-argument factory for `ProviderRegistry.register`: each call starts a new
    process (raising PluginStartError when it cannot). `env` is the process's whole
    environment (None: this process's)."""

    def make() -> GrpcProvider:
        return GrpcProvider.start(
            name, binary, schema_cache=schema_cache, start_timeout=start_timeout, env=env
        )

    return make

