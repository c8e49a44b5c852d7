"""Built-in functions: collections (being written)."""

from __future__ import annotations

from engine.lang.functions.base import Function

FUNCTIONS: list[Function] = []
