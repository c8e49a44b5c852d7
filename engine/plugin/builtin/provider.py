"""The built-in `terraform` provider (terraform.io/builtin/terraform), run in-process.

Implements the `Provider` protocol exactly as Terraform's builtin provider: no provider
configuration, one managed resource type (`terraform_data`) and one data source
(`terraform_remote_state`); it can move `null_resource` objects into `terraform_data`.
Calls for types it does not have answer with an error diagnostic, never an exception.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.diags import Diagnostics, error
from engine.plugin.builtin import remote_state, terraform_data
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
    ReadDataSourceRequest,
    ReadDataSourceResponse,
    ReadResourceRequest,
    ReadResourceResponse,
    ServerCapabilities,
    UpgradeResourceStateRequest,
    UpgradeResourceStateResponse,
    ValidateDataResourceConfigRequest,
    ValidateDataResourceConfigResponse,
    ValidateProviderConfigRequest,
    ValidateProviderConfigResponse,
    ValidateResourceConfigRequest,
    ValidateResourceConfigResponse,
)

PROVIDER_ADDRESS = "terraform.io/builtin/terraform"


def _unsupported(kind: str, name: str) -> Diagnostics:
    return Diagnostics([error(f"Error: unsupported {kind} {name}")])


class TerraformProvider:
    """The provider. `working_dir` anchors relative state paths of `terraform_remote_state`
    (default: the process's current directory); `new_id` makes `terraform_data` ids (tests
    may pass a deterministic one)."""

    def __init__(
        self,
        working_dir: str | None = None,
        new_id: Callable[[], str] = terraform_data.generate_id,
    ) -> None:
        self._remote_state = remote_state.RemoteStateSource(working_dir)
        self._new_id = new_id

    def get_provider_schema(self) -> GetProviderSchemaResponse:
        return GetProviderSchemaResponse(
            resource_types={terraform_data.TYPE_NAME: terraform_data.SCHEMA},
            data_sources={remote_state.TYPE_NAME: remote_state.SCHEMA},
            server_capabilities=ServerCapabilities(move_resource_state=True),
        )

    def validate_provider_config(
        self, req: ValidateProviderConfigRequest
    ) -> ValidateProviderConfigResponse:
        return ValidateProviderConfigResponse(prepared_config=req.config)

    def validate_resource_config(
        self, req: ValidateResourceConfigRequest
    ) -> ValidateResourceConfigResponse:
        if req.type_name != terraform_data.TYPE_NAME:
            return ValidateResourceConfigResponse(_unsupported("resource", req.type_name))
        return terraform_data.validate(req)

    def validate_data_resource_config(
        self, req: ValidateDataResourceConfigRequest
    ) -> ValidateDataResourceConfigResponse:
        if req.type_name != remote_state.TYPE_NAME:
            return ValidateDataResourceConfigResponse(_unsupported("data source", req.type_name))
        return self._remote_state.validate(req)

    def upgrade_resource_state(
        self, req: UpgradeResourceStateRequest
    ) -> UpgradeResourceStateResponse:
        if req.type_name != terraform_data.TYPE_NAME:
            return UpgradeResourceStateResponse(diagnostics=_unsupported("resource", req.type_name))
        return terraform_data.upgrade(req)

    def configure_provider(self, req: ConfigureProviderRequest) -> ConfigureProviderResponse:
        return ConfigureProviderResponse()

    def read_resource(self, req: ReadResourceRequest) -> ReadResourceResponse:
        if req.type_name != terraform_data.TYPE_NAME:
            return ReadResourceResponse(diagnostics=_unsupported("resource", req.type_name))
        return terraform_data.read(req)

    def plan_resource_change(self, req: PlanResourceChangeRequest) -> PlanResourceChangeResponse:
        if req.type_name != terraform_data.TYPE_NAME:
            return PlanResourceChangeResponse(diagnostics=_unsupported("resource", req.type_name))
        return terraform_data.plan(req)

    def apply_resource_change(self, req: ApplyResourceChangeRequest) -> ApplyResourceChangeResponse:
        if req.type_name != terraform_data.TYPE_NAME:
            return ApplyResourceChangeResponse(diagnostics=_unsupported("resource", req.type_name))
        return terraform_data.apply(req, self._new_id)

    def import_resource_state(self, req: ImportResourceStateRequest) -> ImportResourceStateResponse:
        if req.type_name != terraform_data.TYPE_NAME:
            return ImportResourceStateResponse(
                diagnostics=Diagnostics(
                    [error(f"unimplemented: cannot import resource type {req.type_name}")]
                )
            )
        return terraform_data.import_state(req)

    def move_resource_state(self, req: MoveResourceStateRequest) -> MoveResourceStateResponse:
        if req.target_type_name != terraform_data.TYPE_NAME:
            return MoveResourceStateResponse(
                diagnostics=_unsupported("resource", req.target_type_name)
            )
        return terraform_data.move(req)

    def read_data_source(self, req: ReadDataSourceRequest) -> ReadDataSourceResponse:
        if req.type_name != remote_state.TYPE_NAME:
            return ReadDataSourceResponse(diagnostics=_unsupported("data source", req.type_name))
        return self._remote_state.read(req)

    def stop_provider(self) -> Diagnostics:
        return Diagnostics()

    def close(self) -> Diagnostics:
        return Diagnostics()
