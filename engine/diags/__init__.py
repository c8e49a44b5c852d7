"""Diagnostics: errors and warnings that carry the source range they point at.

Functions in the engine collect and return diagnostics; they raise only at the edges (the CLI
and the Lambda handlers), where `Diagnostics.raise_if_errors()` or the renderer takes over.
"""

from __future__ import annotations

from engine.diags.diagnostic import (
    Diagnostic,
    Diagnostics,
    DiagnosticsError,
    ExpressionValue,
    Severity,
    error,
    hcl_error_text,
    warning,
)
from engine.diags.render import render_diagnostic, render_diagnostics, terraform_order, to_json

__all__ = [
    "Diagnostic",
    "Diagnostics",
    "DiagnosticsError",
    "ExpressionValue",
    "Severity",
    "error",
    "hcl_error_text",
    "render_diagnostic",
    "render_diagnostics",
    "terraform_order",
    "to_json",
    "warning",
]
