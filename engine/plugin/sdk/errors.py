"""How provider code reports problems.

Hooks raise `ProviderError` (one diagnostic, optionally about an attribute, named by a path of
attribute names and element keys) or return diagnostics built with `error`/`warning`. The SDK
turns both into protocol diagnostics; an uncaught exception of any other kind becomes an error
diagnostic naming it, so a bug in a provider never kills the provider process.
"""

from __future__ import annotations

from engine.diags import Diagnostic, Severity
from engine.plugin.paths import AttributePath
from engine.plugin.protocol import AttributeDiagnostic

__all__ = ["AttributePath", "Diagnostic", "ProviderError", "error", "path_of", "warning"]


def path_of(*parts: str | int) -> AttributePath:
    """An attribute path from names and list indexes: `path_of("keepers")`."""
    return AttributePath.of(*parts)


def error(summary: str, detail: str = "", *path: str | int) -> Diagnostic:
    """An error diagnostic, about the attribute at `path` when one is given."""
    if path:
        return AttributeDiagnostic(Severity.ERROR, summary, detail, attribute_path=path_of(*path))
    return Diagnostic(Severity.ERROR, summary, detail)


def warning(summary: str, detail: str = "", *path: str | int) -> Diagnostic:
    """A warning diagnostic, about the attribute at `path` when one is given."""
    if path:
        return AttributeDiagnostic(
            Severity.WARNING, summary, detail, attribute_path=path_of(*path)
        )
    return Diagnostic(Severity.WARNING, summary, detail)


class ProviderError(Exception):
    """Raised by a hook to fail the call with one error diagnostic."""

    def __init__(self, summary: str, detail: str = "", *path: str | int) -> None:
        super().__init__(summary)
        self.diagnostic = error(summary, detail, *path)
