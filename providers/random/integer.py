"""random_integer: a random integer in [min, max], optionally from a seed.

Import takes `result,min,max` or `result,min,max,seed`; `id` is the result as a string.
"""

from __future__ import annotations

from typing import Any

from engine.plugin.sdk import Attr, Obj, ProviderError, Resource
from engine.values import NUMBER, STRING
from providers.random.common import KEEPERS, rng


class RandomInteger(Resource):
    type_name = "random_integer"
    description = (
        "The resource `random_integer` generates random values from a given range, described "
        "by the `min` and `max` attributes of a given resource."
    )
    fields = {
        "keepers": KEEPERS,
        "min": Attr(NUMBER, description="The minimum inclusive value of the range.",
                    required=True, requires_replace=True),
        "max": Attr(NUMBER, description="The maximum inclusive value of the range.",
                    required=True, requires_replace=True),
        "seed": Attr(STRING, description="A custom seed to always produce the same value.",
                     optional=True, requires_replace=True),
        "result": Attr(NUMBER, description="The random integer result.", computed=True,
                       use_state_for_unknown=True),
        "id": Attr(STRING, description="The string representation of the integer result.",
                   computed=True, use_state_for_unknown=True),
    }

    def create(self, planned: Obj) -> dict[str, Any]:
        lo, hi = int(planned["min"]), int(planned["max"])
        if hi < lo:
            raise ProviderError("Create Random Integer error",
                                "The minimum (min) value needs to be smaller than or equal to "
                                "maximum (max) value.")
        result = rng(planned["seed"]).randint(lo, hi)
        return {"result": result, "id": str(result)}

    def import_state(self, id: str) -> dict[str, Any]:
        parts = id.split(",")
        if len(parts) not in (3, 4):
            raise ProviderError("Invalid import usage: expecting {result},{min},{max} or "
                                "{result},{min},{max},{seed}",
                                f"Got: {id!r}")
        try:
            result, lo, hi = (int(p) for p in parts[:3])
        except ValueError as e:
            raise ProviderError("Import Random Integer Error",
                                f"While attempting to import a random integer, a value could "
                                f"not be parsed as an integer.\n\nOriginal Error: {e}") from None
        out: dict[str, Any] = {"result": result, "min": lo, "max": hi, "id": parts[0]}
        if len(parts) == 4:
            out["seed"] = parts[3]
        return out
