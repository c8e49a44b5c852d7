"""hashicorp/null in Python: `null_resource` and the `null_data_source` data source."""

from __future__ import annotations

from providers.null.provider import NullProvider

__all__ = ["NullProvider"]
