"""hashicorp/time in Python: time_static, time_sleep, time_offset and time_rotating."""

from __future__ import annotations

from providers.time.provider import TimeProvider

__all__ = ["TimeProvider"]
