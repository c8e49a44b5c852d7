"""The provider interface the core talks to: Terraform's `providers.Interface`.

Each call takes one request dataclass and returns one response dataclass, named as in
terraform's internal/providers package. Every response carries `diagnostics`; a provider never
raises to report a problem. Values are engine.values Values typed by the schema the provider
declared (`Block.implied_type()`); "no object" is a null Value of that type, never None.
Private data is opaque bytes the core stores and hands back unchanged.

Provider diagnostics may name an attribute path (`AttributeDiagnostic`) that the core maps to a
source range in the configuration; `attribute_error` builds one.

Implementations: the in-process built-in `terraform` provider (engine.plugin.builtin), and
clients speaking tfplugin5/6 to a provider process.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from engine.diags import Diagnostic, Diagnostics, Severity
from engine.plugin.paths import AttributePath
from engine.plugin.schema import Schema
from engine.source import Range
from engine.values import NULL_DYNAMIC, Value


# ------------------------------------------------------------------------------ diagnostics
@dataclass(frozen=True, slots=True)
class AttributeDiagnostic(Diagnostic):
    """A provider diagnostic about one attribute: the core replaces `attribute_path` with the
    range of that attribute's expression in the configuration (via `with_subject`)."""

    attribute_path: AttributePath | None = None


def attribute_error(summary: str, detail: str, path: AttributePath) -> AttributeDiagnostic:
    """An error about the attribute at `path` (tfdiags.AttributeValue(Error, ...))."""
    return AttributeDiagnostic(Severity.ERROR, summary, detail, attribute_path=path)


def attribute_warning(summary: str, detail: str, path: AttributePath) -> AttributeDiagnostic:
    return AttributeDiagnostic(Severity.WARNING, summary, detail, attribute_path=path)


def located(diag: Diagnostic, subject: Range | None) -> Diagnostic:
    """`diag` pointed at `subject` when it has no subject yet (drops the attribute path)."""
    return diag.with_subject(subject)


# ------------------------------------------------------------------------ capabilities etc.
@dataclass(frozen=True, slots=True)
class ServerCapabilities:
    """What the provider can do beyond the baseline protocol."""

    plan_destroy: bool = False
    get_provider_schema_optional: bool = False
    move_resource_state: bool = False


@dataclass(frozen=True, slots=True)
class ClientCapabilities:
    """What the core can handle: deferred actions and write-only attributes."""

    deferral_allowed: bool = False
    write_only_attributes_allowed: bool = False


@dataclass(frozen=True, slots=True)
class Deferred:
    """A provider's request to defer an action to a later round (reason as in the protocol:
    "resource_config_unknown", "provider_config_unknown", "absent_prereq")."""

    reason: str


# --------------------------------------------------------------------------------- schema
@dataclass(slots=True)
class GetProviderSchemaResponse:
    """The response of the provider's GetProviderSchema call."""

    provider: Schema = field(default_factory=Schema)
    provider_meta: Schema = field(default_factory=Schema)
    resource_types: dict[str, Schema] = field(default_factory=dict)
    data_sources: dict[str, Schema] = field(default_factory=dict)
    server_capabilities: ServerCapabilities = field(default_factory=ServerCapabilities)
    diagnostics: Diagnostics = field(default_factory=Diagnostics)


# ------------------------------------------------------------------------------- validate
@dataclass(slots=True)
class ValidateProviderConfigRequest:
    """The request of the provider's ValidateProviderConfig call."""

    config: Value


@dataclass(slots=True)
class ValidateProviderConfigResponse:
    """The response of the provider's ValidateProviderConfig call."""

    prepared_config: Value = NULL_DYNAMIC
    diagnostics: Diagnostics = field(default_factory=Diagnostics)


@dataclass(slots=True)
class ValidateResourceConfigRequest:
    """The request of the provider's ValidateResourceConfig call."""

    type_name: str
    config: Value
    client_capabilities: ClientCapabilities = field(default_factory=ClientCapabilities)


@dataclass(slots=True)
class ValidateResourceConfigResponse:
    """The response of the provider's ValidateResourceConfig call."""

    diagnostics: Diagnostics = field(default_factory=Diagnostics)


@dataclass(slots=True)
class ValidateDataResourceConfigRequest:
    """The request of the provider's ValidateDataResourceConfig call."""

    type_name: str
    config: Value


@dataclass(slots=True)
class ValidateDataResourceConfigResponse:
    """The response of the provider's ValidateDataResourceConfig call."""

    diagnostics: Diagnostics = field(default_factory=Diagnostics)


# -------------------------------------------------------------------------------- upgrade
@dataclass(slots=True)
class UpgradeResourceStateRequest:
    """A stored instance object to bring up to the current schema: exactly one of
    `raw_state_json` (the state file's `attributes`, as JSON bytes) and `raw_state_flatmap`
    (the legacy `attributes_flat`) is set; `version` is the stored schema version."""

    type_name: str
    version: int
    raw_state_json: bytes | None = None
    raw_state_flatmap: Mapping[str, str] | None = None


@dataclass(slots=True)
class UpgradeResourceStateResponse:
    """The response of the provider's UpgradeResourceState call."""

    upgraded_state: Value = NULL_DYNAMIC
    diagnostics: Diagnostics = field(default_factory=Diagnostics)


# ------------------------------------------------------------------------------ configure
@dataclass(slots=True)
class ConfigureProviderRequest:
    """The request of the provider's ConfigureProvider call."""

    terraform_version: str
    config: Value
    client_capabilities: ClientCapabilities = field(default_factory=ClientCapabilities)


@dataclass(slots=True)
class ConfigureProviderResponse:
    """The response of the provider's ConfigureProvider call."""

    diagnostics: Diagnostics = field(default_factory=Diagnostics)


# ------------------------------------------------------------------------------ resources
@dataclass(slots=True)
class ReadResourceRequest:
    """The request of the provider's ReadResource call."""

    type_name: str
    prior_state: Value
    private: bytes = b""
    provider_meta: Value = NULL_DYNAMIC
    client_capabilities: ClientCapabilities = field(default_factory=ClientCapabilities)


@dataclass(slots=True)
class ReadResourceResponse:
    """`new_state` null means the object no longer exists."""

    new_state: Value = NULL_DYNAMIC
    private: bytes = b""
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    deferred: Deferred | None = None


@dataclass(slots=True)
class PlanResourceChangeRequest:
    """Plan one instance: `prior_state` null means create, `proposed_new_state` null means
    destroy; the proposed state is the core's merge of config over prior state."""

    type_name: str
    prior_state: Value
    proposed_new_state: Value
    config: Value
    prior_private: bytes = b""
    provider_meta: Value = NULL_DYNAMIC
    client_capabilities: ClientCapabilities = field(default_factory=ClientCapabilities)


@dataclass(slots=True)
class PlanResourceChangeResponse:
    """The response of the provider's PlanResourceChange call."""

    planned_state: Value = NULL_DYNAMIC
    requires_replace: list[AttributePath] = field(default_factory=list)
    planned_private: bytes = b""
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    legacy_type_system: bool = False
    deferred: Deferred | None = None


@dataclass(slots=True)
class ApplyResourceChangeRequest:
    """The request of the provider's ApplyResourceChange call."""

    type_name: str
    prior_state: Value
    planned_state: Value
    config: Value
    planned_private: bytes = b""
    provider_meta: Value = NULL_DYNAMIC


@dataclass(slots=True)
class ApplyResourceChangeResponse:
    """The response of the provider's ApplyResourceChange call."""

    new_state: Value = NULL_DYNAMIC
    private: bytes = b""
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    legacy_type_system: bool = False


@dataclass(slots=True)
class ImportResourceStateRequest:
    """The request of the provider's ImportResourceState call."""

    type_name: str
    id: str
    client_capabilities: ClientCapabilities = field(default_factory=ClientCapabilities)


@dataclass(frozen=True, slots=True)
class ImportedResource:
    """One object an ImportResourceState call returns: its type, state and private data."""

    type_name: str
    state: Value
    private: bytes = b""


@dataclass(slots=True)
class ImportResourceStateResponse:
    """The response of the provider's ImportResourceState call."""

    imported_resources: list[ImportedResource] = field(default_factory=list)
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    deferred: Deferred | None = None


@dataclass(slots=True)
class MoveResourceStateRequest:
    """Move an object recorded under another resource type (a `moved` block across types)."""

    source_provider_address: str
    source_type_name: str
    source_schema_version: int
    source_state_json: bytes
    target_type_name: str
    source_private: bytes = b""


@dataclass(slots=True)
class MoveResourceStateResponse:
    """The response of the provider's MoveResourceState call."""

    target_state: Value = NULL_DYNAMIC
    target_private: bytes = b""
    diagnostics: Diagnostics = field(default_factory=Diagnostics)


# --------------------------------------------------------------------------- data sources
@dataclass(slots=True)
class ReadDataSourceRequest:
    """The request of the provider's ReadDataSource call."""

    type_name: str
    config: Value
    provider_meta: Value = NULL_DYNAMIC
    client_capabilities: ClientCapabilities = field(default_factory=ClientCapabilities)


@dataclass(slots=True)
class ReadDataSourceResponse:
    """The response of the provider's ReadDataSource call."""

    state: Value = NULL_DYNAMIC
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    deferred: Deferred | None = None


# ------------------------------------------------------------------------------ interface
@runtime_checkable
class Provider(Protocol):
    """A provider instance. Calls may come from several threads at once (the graph walk),
    except configure_provider, which the core calls once before any plan/apply/read call."""

    def get_provider_schema(self) -> GetProviderSchemaResponse:
        """The provider, resource type and data source schemas."""
        ...

    def validate_provider_config(
        self, req: ValidateProviderConfigRequest
    ) -> ValidateProviderConfigResponse: ...

    def validate_resource_config(
        self, req: ValidateResourceConfigRequest
    ) -> ValidateResourceConfigResponse: ...

    def validate_data_resource_config(
        self, req: ValidateDataResourceConfigRequest
    ) -> ValidateDataResourceConfigResponse: ...

    def upgrade_resource_state(
        self, req: UpgradeResourceStateRequest
    ) -> UpgradeResourceStateResponse:
        """Decode a stored object (any older schema version) into the current schema's type."""
        ...

    def configure_provider(self, req: ConfigureProviderRequest) -> ConfigureProviderResponse: ...

    def read_resource(self, req: ReadResourceRequest) -> ReadResourceResponse:
        """Refresh: the object as it exists now."""
        ...

    def plan_resource_change(
        self, req: PlanResourceChangeRequest
    ) -> PlanResourceChangeResponse: ...

    def apply_resource_change(
        self, req: ApplyResourceChangeRequest
    ) -> ApplyResourceChangeResponse: ...

    def import_resource_state(
        self, req: ImportResourceStateRequest
    ) -> ImportResourceStateResponse: ...

    def move_resource_state(self, req: MoveResourceStateRequest) -> MoveResourceStateResponse: ...

    def read_data_source(self, req: ReadDataSourceRequest) -> ReadDataSourceResponse: ...

    def stop_provider(self) -> Diagnostics:
        """Ask in-flight calls to finish early; returns at once."""
        ...

    def close(self) -> Diagnostics:
        """Release the provider (end its process); no call may follow."""
        ...
