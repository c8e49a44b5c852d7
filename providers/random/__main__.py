"""Run the random provider as a plugin process (started by terraform or groundplan)."""

from __future__ import annotations

import sys

from engine.plugin.sdk.server import serve
from providers.random.provider import RandomProvider

if __name__ == "__main__":
    sys.exit(serve(RandomProvider()))
