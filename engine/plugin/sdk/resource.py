"""What a provider author subclasses: `Resource`, `DataSource` and `Provider`.

A class declares its body as `fields` (names to `Attr`/`Blocks`, see fields) and overrides the
hooks it needs. Hooks receive `Obj` views and return plain-Python dicts of attribute values;
they report problems by raising `ProviderError` or returning diagnostics.

Resource lifecycle (terraform-plugin-framework's, which the SDK's planner reproduces):
- `validate(config)`: static checks; unknown attributes are possible here.
- planning is done by the SDK (defaults, unknowns for computed attributes, requires_replace,
  use_state_for_unknown; see planner), then `modify_plan(plan)` may adjust it.
- `create(planned)` returns the values of the attributes it decided (normally the computed
  ones); everything else is taken from the plan. No unknown may remain.
- `read(state)` returns changed attributes (`{}`: unchanged) or None when the object is gone.
- `update(prior, planned)` returns the attributes it decided (default: none).
- `delete(state)`.
- `import_state(id)` returns the attributes the id determines; the rest start null.
- `upgrade_state(version, state)` turns a stored object of an older schema `version` (plain
  JSON data) into data of the current schema.

A `DataSource` has `validate(config)` and `read(config)`, which returns the attributes it decided.
A `Provider` names its resources and data sources, declares its own configuration `fields` and
`configure(config)` returns the data handed to every resource and data source instance as
`self.provider_data`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from engine.diags import Diagnostic
from engine.plugin.schema import Schema
from engine.plugin.sdk.errors import ProviderError
from engine.plugin.sdk.fields import Field, block_of
from engine.plugin.sdk.native import UNKNOWN, to_native, to_value
from engine.plugin.sdk.obj import Obj
from engine.values import ObjectType, Value

__all__ = ["DataSource", "Plan", "Provider", "Resource"]


class Plan:
    """The planned new state of one resource instance, as `modify_plan` may adjust it.

    `prior` is None when the instance is being created; `config` is the configuration.
    """

    def __init__(
        self, prior: Obj | None, config: Obj, planned: dict[str, Value], replace: list[str]
    ) -> None:
        self.prior = prior
        self.config = config
        self._planned = planned
        self._replace = replace

    @property
    def is_create(self) -> bool:
        return self.prior is None

    @property
    def replacing(self) -> bool:
        """Whether replacement is already required."""
        return bool(self._replace)

    def __getitem__(self, name: str) -> Any:
        return to_native(self._planned[name])

    def value(self, name: str) -> Value:
        return self._planned[name]

    def set(self, name: str, data: Any) -> None:
        """Plan `data` (plain Python, or `UNKNOWN`) for the attribute."""
        self._planned[name] = to_value(data, self._planned[name].type, name)

    def set_unknown(self, name: str) -> None:
        self.set(name, UNKNOWN)

    def require_replace(self, name: str) -> None:
        """Changing this attribute forces replacement."""
        if name not in self._replace:
            self._replace.append(name)


class _Declared:
    """Common to resources and data sources: the declared body and the provider's data."""

    type_name: ClassVar[str]
    description: ClassVar[str] = ""
    deprecated: ClassVar[str] = ""
    schema_version: ClassVar[int] = 0
    fields: ClassVar[Mapping[str, Field]] = {}

    def __init__(self, provider_data: Any = None) -> None:
        self.provider_data = provider_data

    @classmethod
    def schema(cls) -> Schema:
        """The wire schema of this type."""
        desc = cls.description
        if cls.deprecated:
            desc = f"{desc}\n\n{cls.deprecated}".strip()
        return Schema(block_of(cls.fields, desc, bool(cls.deprecated)), cls.schema_version)

    @classmethod
    def object_type(cls) -> ObjectType:
        return cls.schema().block.implied_type()

    def validate(self, config: Obj) -> Iterable[Diagnostic]:
        """Static checks of the configuration; the default accepts anything."""
        return ()


class Resource(_Declared):
    """A managed resource type (see the module docstring for the hooks' contracts)."""

    def modify_plan(self, plan: Plan) -> Iterable[Diagnostic]:
        return ()

    def create(self, planned: Obj) -> dict[str, Any]:
        raise ProviderError("Create not implemented", f"{self.type_name} cannot be created.")

    def read(self, state: Obj) -> dict[str, Any] | None:
        return {}

    def update(self, prior: Obj, planned: Obj) -> dict[str, Any]:
        return {}

    def delete(self, state: Obj) -> None:
        return None

    def import_state(self, id: str) -> dict[str, Any]:
        raise ProviderError(
            "Resource Import Not Implemented",
            f"This resource does not support import: {self.type_name}.",
        )

    def upgrade_state(self, version: int, state: dict[str, Any]) -> dict[str, Any]:
        if version == self.schema_version:
            return state
        raise ProviderError(
            "Unable to Upgrade Resource State",
            f"{self.type_name} has no upgrade from schema version {version} "
            f"to {self.schema_version}.",
        )


class DataSource(_Declared):
    """A data source type: `read(config)` returns the attributes it decided."""

    def read(self, config: Obj) -> dict[str, Any]:
        return {}


class Provider:
    """A provider: its name and version, configuration fields, resources and data sources."""

    name: ClassVar[str]
    version: ClassVar[str] = "0.0.0"
    description: ClassVar[str] = ""
    fields: ClassVar[Mapping[str, Field]] = {}
    resources: ClassVar[Sequence[type[Resource]]] = ()
    data_sources: ClassVar[Sequence[type[DataSource]]] = ()

    @classmethod
    def schema(cls) -> Schema:
        return Schema(block_of(cls.fields, cls.description))

    def validate(self, config: Obj) -> Iterable[Diagnostic]:
        return ()

    def configure(self, config: Obj) -> Any:
        """The data resources and data sources receive as `provider_data`."""
        return None
