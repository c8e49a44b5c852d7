"""The time provider, schema-compatible with hashicorp/time 0.12.x."""

from __future__ import annotations

from engine.plugin.sdk import Provider
from providers.time.resources import TimeOffset, TimeRotating, TimeSleep, TimeStatic


class TimeProvider(Provider):
    name = "time"
    version = "0.12.1"
    resources = (TimeOffset, TimeRotating, TimeSleep, TimeStatic)
