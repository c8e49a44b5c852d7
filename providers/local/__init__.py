"""hashicorp/local in Python: local_file, local_sensitive_file and their data sources."""

from __future__ import annotations

from providers.local.provider import LocalProvider

__all__ = ["LocalProvider"]
