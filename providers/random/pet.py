"""random_pet: a random "pet name" of `length` words joined by `separator`.

As hashicorp/random: one word is a name, two are adjective-name, more add adverbs in front;
`prefix` comes first when set. The id is the pet name. Every argument forces replacement;
`length` defaults to 2 and `separator` to "-". The word lists are this project's own.
"""

from __future__ import annotations

import secrets
from typing import Any

from engine.plugin.sdk import Attr, Obj, Resource
from engine.values import NUMBER, STRING
from providers.random.common import KEEPERS

ADVERBS = (
    "ably", "boldly", "brightly", "calmly", "carefully", "cheerfully", "cleanly", "closely",
    "deeply", "eagerly", "evenly", "fairly", "firmly", "freely", "gently", "gladly", "greatly",
    "happily", "highly", "honestly", "jointly", "justly", "kindly", "largely", "lightly",
    "loudly", "mainly", "merely", "mildly", "neatly", "nicely", "openly", "partly", "politely",
    "quickly", "quietly", "rapidly", "rarely", "really", "remarkably", "safely", "sharply",
    "simply", "slowly", "smoothly", "softly", "solely", "steadily", "strongly", "sweetly",
    "swiftly", "truly", "vastly", "warmly", "wildly", "wisely",
)
ADJECTIVES = (
    "able", "amazing", "apt", "awake", "big", "bold", "brave", "bright", "busy", "calm",
    "careful", "charming", "clever", "cool", "cosmic", "crisp", "curious", "dear", "eager",
    "easy", "epic", "fair", "famous", "fancy", "fast", "fine", "first", "fleet", "fluent",
    "fond", "free", "fresh", "gentle", "glad", "golden", "good", "grand", "great", "happy",
    "hardy", "helpful", "honest", "humble", "jolly", "keen", "kind", "large", "lasting",
    "light", "lively", "loved", "lucky", "major", "merry", "mighty", "modern", "moving",
    "neat", "new", "nice", "noble", "open", "patient", "polite", "precious", "proud", "quick",
    "quiet", "rapid", "rare", "ready", "real", "regal", "rich", "right", "robust", "safe",
    "sharp", "shining", "simple", "smart", "smooth", "solid", "sound", "special", "steady",
    "strong", "sunny", "super", "sure", "sweet", "swift", "tender", "tidy", "topical", "true",
    "trusty", "useful", "valid", "vast", "warm", "welcome", "wise", "witty", "worthy", "young",
)
NAMES = (
    "alpaca", "ant", "badger", "bat", "bear", "beaver", "bee", "bison", "boar", "buffalo",
    "bull", "camel", "cat", "cheetah", "chicken", "cobra", "cod", "colt", "crab", "crane",
    "cricket", "crow", "deer", "dingo", "dodo", "dog", "dolphin", "donkey", "dove", "duck",
    "eagle", "eel", "elk", "emu", "falcon", "ferret", "finch", "fish", "flamingo", "fox",
    "frog", "gazelle", "gecko", "gibbon", "goat", "goose", "gopher", "gorilla", "grouse",
    "gull", "hamster", "hare", "hawk", "hen", "heron", "horse", "hound", "ibex", "iguana",
    "impala", "jackal", "jaguar", "jay", "kid", "kite", "kiwi", "koala", "lamb", "lark",
    "lemur", "leopard", "lion", "lizard", "llama", "lobster", "lynx", "macaw", "mole",
    "mongoose", "monkey", "moose", "mouse", "mule", "newt", "ocelot", "octopus", "orca",
    "oriole", "osprey", "otter", "owl", "ox", "panda", "panther", "parrot", "pelican",
    "penguin", "pig", "pony", "puma", "quail", "rabbit", "ram", "raven", "reindeer", "robin",
    "salmon", "seal", "shark", "sheep", "shrimp", "skunk", "sloth", "snail", "snake",
    "sparrow", "squid", "stag", "starling", "stork", "swan", "tapir", "terrier", "tiger",
    "toad", "trout", "turkey", "turtle", "viper", "vulture", "walrus", "wasp", "weasel",
    "whale", "wolf", "wombat", "wren", "yak", "zebra",
)


def pet_name(length: int, separator: str) -> str:
    """`length` random words: adverbs, then an adjective, then a name."""
    if length <= 0:
        return ""
    words = [secrets.choice(ADVERBS) for _ in range(max(length - 2, 0))]
    if length >= 2:
        words.append(secrets.choice(ADJECTIVES))
    words.append(secrets.choice(NAMES))
    return separator.join(words)


class RandomPet(Resource):
    type_name = "random_pet"
    description = (
        "The resource `random_pet` generates random pet names that are intended to be used as "
        "unique identifiers for other resources.\n\nThis resource can be used in conjunction "
        "with resources that have the `create_before_destroy` lifecycle flag set, to avoid "
        "conflicts with unique names during the brief period where both the old and new "
        "resources exist concurrently."
    )
    fields = {
        "keepers": KEEPERS,
        "length": Attr(NUMBER, description="The length (in words) of the pet name. Defaults "
                       "to 2", optional=True, computed=True, default=2, requires_replace=True),
        "prefix": Attr(STRING, description="A string to prefix the name with.", optional=True,
                       requires_replace=True),
        "separator": Attr(STRING, description="The character to separate words in the pet "
                          "name. Defaults to \"-\"", optional=True, computed=True, default="-",
                          requires_replace=True),
        "id": Attr(STRING, description="The random pet name.", computed=True,
                   use_state_for_unknown=True),
    }

    def create(self, planned: Obj) -> dict[str, Any]:
        sep = planned["separator"]
        name = pet_name(int(planned["length"]), sep)
        prefix = planned["prefix"]
        return {"id": f"{prefix}{sep}{name}" if prefix is not None else name}
