"""random_id: random bytes shown as base64 (URL and standard), hex and decimal.

As hashicorp/random: `id` is the bytes in unpadded URL-safe base64; the other encodings are
prefixed with `prefix`. Import takes `B64_URL` or `PREFIX,B64_URL`.
"""

from __future__ import annotations

import base64
from typing import Any

from engine.plugin.sdk import Attr, Obj, ProviderError, Resource
from engine.values import NUMBER, STRING
from providers.random.common import KEEPERS, token_bytes


def _computed(desc: str) -> Attr:
    return Attr(STRING, description=desc, computed=True, use_state_for_unknown=True)


def encodings(raw: bytes, prefix: str) -> dict[str, Any]:
    """The computed attributes for `raw` bytes and `prefix`."""
    url = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    return {
        "id": url,
        "b64_url": prefix + url,
        "b64_std": prefix + base64.b64encode(raw).decode(),
        "hex": prefix + raw.hex(),
        "dec": prefix + str(int.from_bytes(raw, "big")),
    }


class RandomId(Resource):
    type_name = "random_id"
    description = (
        "The resource `random_id` generates random numbers that are intended to be used as "
        "unique identifiers for other resources."
    )
    fields = {
        "keepers": KEEPERS,
        "byte_length": Attr(NUMBER, description="The number of random bytes to produce. The "
                            "minimum value is 1, which produces eight bits of randomness.",
                            required=True, requires_replace=True),
        "prefix": Attr(STRING, description="Arbitrary string to prefix the output value with. "
                       "This string is supplied as-is, meaning it is not guaranteed to be "
                       "URL-safe or base64 encoded.", optional=True, requires_replace=True),
        "b64_url": _computed("The generated id presented in base64, using the URL-friendly "
                             "character set: case-sensitive letters, digits and the characters "
                             "`_` and `-`."),
        "b64_std": _computed("The generated id presented in base64 without additional "
                             "transformations."),
        "hex": _computed("The generated id presented in padded hexadecimal digits. This result "
                         "will always be twice as long as the requested byte length."),
        "dec": _computed("The generated id presented in non-padded decimal digits."),
        "id": _computed("The generated id presented in base64 without additional "
                        "transformations or prefix."),
    }

    def create(self, planned: Obj) -> dict[str, Any]:
        n = planned["byte_length"]
        if n < 1:
            raise ProviderError("Create Random ID error", "byte_length must be at least 1",
                                "byte_length")
        return encodings(token_bytes(int(n)), planned.get("prefix", ""))

    def import_state(self, id: str) -> dict[str, Any]:
        prefix, _, b64 = id.rpartition(",")
        try:
            raw = base64.urlsafe_b64decode(b64 + "=" * (-len(b64) % 4))
        except ValueError as e:
            raise ProviderError("Import Random ID Error",
                                f"While attempting to import a random id there was a decoding "
                                f"error.\n\nOriginal Error: {e}") from None
        out = encodings(raw, prefix)
        out.update(byte_length=len(raw), prefix=prefix or None)
        return out
