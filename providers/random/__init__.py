"""hashicorp/random in Python: random_id, random_integer, random_password, random_pet,
random_shuffle, random_string and random_uuid."""

from __future__ import annotations

from providers.random.provider import RandomProvider

__all__ = ["RandomProvider"]
