"""Run the time provider as a plugin process (started by terraform or groundplan)."""

from __future__ import annotations

import sys

from engine.plugin.sdk.server import serve
from providers.time.provider import TimeProvider

if __name__ == "__main__":
    sys.exit(serve(TimeProvider()))
