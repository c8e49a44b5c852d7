"""The null provider, schema-compatible with hashicorp/null 3.2.x.

- `null_resource`: `triggers` (map of strings; a change forces replacement) and a computed `id`
  (a random decimal integer, as the original's `fmt.Sprintf("%d", rand.Int())`). Import takes
  any id.
- `null_data_source` (deprecated): copies `inputs` to `outputs`, `random` is a random decimal
  integer, `has_computed_default` defaults to `"default"`, `id` is `"static"`.
"""

from __future__ import annotations

import secrets
from typing import Any

from engine.plugin.sdk import Attr, DataSource, Obj, Provider, Resource
from engine.values import STRING, MapType


def random_int_string() -> str:
    """A non-negative 63-bit random integer in decimal."""
    return str(secrets.randbits(63))


class NullResource(Resource):
    type_name = "null_resource"
    description = (
        "The `null_resource` resource implements the standard resource lifecycle but takes "
        "no further action. On Terraform 1.4 and later, use the `terraform_data` resource type "
        "instead."
    )
    fields = {
        "triggers": Attr(MapType(STRING), description="A map of arbitrary strings that, when "
                         "changed, will force the null resource to be replaced, re-running any "
                         "associated provisioners.", optional=True, requires_replace=True),
        "id": Attr(STRING, description="This is set to a random value at create time.",
                   computed=True, use_state_for_unknown=True),
    }

    def create(self, planned: Obj) -> dict[str, Any]:
        return {"id": random_int_string()}

    def import_state(self, id: str) -> dict[str, Any]:
        return {"id": id}


class NullDataSource(DataSource):
    type_name = "null_data_source"
    deprecated = ("The null_data_source was historically used to construct intermediate "
                  "values to re-use elsewhere in configuration, the same can now be achieved "
                  "using locals or the terraform_data resource type in Terraform 1.4 and later.")
    description = ("The `null_data_source` data source implements the standard data source "
                   "lifecycle but does not interact with any external APIs.")
    fields = {
        "inputs": Attr(MapType(STRING), description="A map of arbitrary strings that is copied "
                       "into the `outputs` attribute, and accessible directly for "
                       "interpolation.", optional=True),
        "outputs": Attr(MapType(STRING), description="After the data source is \"read\", a "
                        "copy of the `inputs` map.", computed=True),
        "random": Attr(STRING, description="A random value. This is primarily for testing and "
                       "has little practical use; prefer the hashicorp/random provider for "
                       "more practical random number use-cases.", computed=True),
        "has_computed_default": Attr(STRING, description="If set, its literal value will be "
                                     "stored and returned. If not, its value defaults to "
                                     "`\"default\"`. This argument exists primarily for "
                                     "testing and has little practical use.",
                                     optional=True, computed=True),
        "id": Attr(STRING, description="This attribute is only present for some legacy "
                   "compatibility issues and should not be used. It will be removed in a future "
                   "version.", computed=True),
    }

    def read(self, config: Obj) -> dict[str, Any]:
        return {
            "outputs": config["inputs"] if config["inputs"] is not None else {},
            "random": random_int_string(),
            "has_computed_default": config.get("has_computed_default", "default"),
            "id": "static",
        }


class NullProvider(Provider):
    name = "null"
    version = "3.2.3"
    resources = (NullResource,)
    data_sources = (NullDataSource,)
