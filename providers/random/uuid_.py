"""random_uuid: a random UUID-shaped string (go-uuid: 16 random bytes, 8-4-4-4-12 hex).

Import takes the UUID itself, which must be well formed.
"""

from __future__ import annotations

import re
from typing import Any

from engine.plugin.sdk import Attr, Obj, ProviderError, Resource
from engine.values import STRING
from providers.random.common import KEEPERS, token_bytes

_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def generate_uuid() -> str:
    h = token_bytes(16).hex()
    return f"{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


class RandomUuid(Resource):
    type_name = "random_uuid"
    description = (
        "The resource `random_uuid` generates a random uuid string that is intended to be used "
        "as a unique identifier for other resources."
    )
    fields = {
        "keepers": KEEPERS,
        "result": Attr(STRING, description="The generated uuid presented in string format.",
                       computed=True, use_state_for_unknown=True),
        "id": Attr(STRING, description="The generated uuid presented in string format.",
                   computed=True, use_state_for_unknown=True),
    }

    def create(self, planned: Obj) -> dict[str, Any]:
        u = generate_uuid()
        return {"result": u, "id": u}

    def import_state(self, id: str) -> dict[str, Any]:
        if not _UUID.match(id):
            raise ProviderError("Random UUID Import Error",
                                f"There was an error during the parsing of the UUID.\n\n"
                                f"Original Error: uuid string is wrong length or format: {id!r}")
        return {"result": id.lower(), "id": id.lower()}
