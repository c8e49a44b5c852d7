"""The random provider, schema-compatible with hashicorp/random 3.6.x."""

from __future__ import annotations

from engine.plugin.sdk import Provider
from providers.random.id_ import RandomId
from providers.random.integer import RandomInteger
from providers.random.pet import RandomPet
from providers.random.shuffle import RandomShuffle
from providers.random.strings import RandomPassword, RandomString
from providers.random.uuid_ import RandomUuid


class RandomProvider(Provider):
    name = "random"
    version = "3.6.3"
    resources = (RandomId, RandomInteger, RandomPassword, RandomPet, RandomShuffle,
                 RandomString, RandomUuid)
