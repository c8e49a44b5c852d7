"""The in-process built-in `terraform` provider: `terraform_data`, `terraform_remote_state`."""

from __future__ import annotations

from engine.plugin.builtin.provider import PROVIDER_ADDRESS, TerraformProvider

__all__ = ["PROVIDER_ADDRESS", "TerraformProvider"]
