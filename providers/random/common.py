"""Attributes the random resources share, and seeded randomness."""

from __future__ import annotations

import random
import secrets

from engine.plugin.sdk import Attr
from engine.values import STRING, MapType

KEEPERS = Attr(
    MapType(STRING),
    description="Arbitrary map of values that, when changed, will trigger recreation of "
    "resource. See [the main provider documentation](../index.html) for more information.",
    optional=True,
    requires_replace=True,
)


def rng(seed: str | None) -> random.Random:
    """A generator seeded by `seed` (same seed, same results), or an unpredictable one."""
    if seed:
        return random.Random(seed)
    return random.SystemRandom()


def token_bytes(n: int) -> bytes:
    return secrets.token_bytes(n)
