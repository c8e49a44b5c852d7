"""Run the local provider as a plugin process (started by terraform or groundplan)."""

from __future__ import annotations

from engine.plugin.sdk.server import run
from providers.local.provider import LocalProvider

if __name__ == "__main__":
    run(LocalProvider())
