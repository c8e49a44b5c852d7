"""random_shuffle: a random permutation of a list, optionally from a seed, cut or repeated to
`result_count` elements (whole permutations are concatenated until there are enough)."""

from __future__ import annotations

from typing import Any

from engine.plugin.sdk import Attr, Obj, Resource
from engine.values import NUMBER, STRING, ListType
from providers.random.common import KEEPERS, rng


def shuffle(items: list[str], count: int | None, seed: str | None) -> list[str]:
    """`count` elements (default: all) drawn as successive random permutations of `items`."""
    want = count or len(items)
    r = rng(seed)
    out: list[str] = []
    while items and len(out) < want:
        perm = list(items)
        r.shuffle(perm)
        out.extend(perm[: want - len(out)])
    return out


class RandomShuffle(Resource):
    type_name = "random_shuffle"
    description = "The resource `random_shuffle` generates a random permutation of a list of strings given as an argument."
    fields = {
        "keepers": KEEPERS,
        "input": Attr(ListType(STRING), description="The list of strings to shuffle.",
                      required=True, requires_replace=True),
        "seed": Attr(STRING, description="Arbitrary string with which to seed the random number "
                     "generator, in order to produce less-volatile permutations of the list.",
                     optional=True, requires_replace=True),
        "result_count": Attr(NUMBER, description="The number of results to return. Defaults to "
                             "the number of items in the `input` list. If fewer items are "
                             "requested, some elements will be excluded from the result. If "
                             "more items are requested, items will be repeated in the result "
                             "but not more frequently than the number of items in the input "
                             "list.", optional=True, requires_replace=True),
        "result": Attr(ListType(STRING), description="Random permutation of the list of strings "
                       "given in `input`. The number of elements is determined by "
                       "`result_count` if set, or the number of elements in `input`.",
                       computed=True, use_state_for_unknown=True),
        "id": Attr(STRING, description="A static value used internally by Terraform, this "
                   "should not be referenced in configurations.", computed=True,
                   use_state_for_unknown=True),
    }

    def create(self, planned: Obj) -> dict[str, Any]:
        count = planned["result_count"]
        return {
            "result": shuffle(planned["input"], int(count) if count else None, planned["seed"]),
            "id": "-",
        }
