"""Meta-arguments shared by several block types: `depends_on` and `provider` references."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.configs.exprs import abs_traversal, expr_list, is_native_quoted_string
from engine.diags import Diagnostics, error
from engine.hcl.ast import Attribute, Expr, Traversal, TraverseAttr
from engine.source import Range


def decode_depends_on(attr: Attribute) -> tuple[list[Traversal], Diagnostics]:
    """The static references of a `depends_on` list."""
    exprs, diags = expr_list(attr.expr)
    out: list[Traversal] = []
    for e in exprs:
        t, d = abs_traversal(e)
        diags.extend(d)
        if t:
            out.append(t)
    return out, diags


_PART = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$", re.IGNORECASE)


def provider_part_problem(name: str) -> str | None:
    """Why a provider name part (local name, namespace, type) is invalid, or None."""
    if not name:
        return "must have at least one character"
    if "--" in name:
        return "cannot use multiple consecutive dashes"
    if not _PART.match(name):
        return (
            "must contain only letters, digits, and dashes, and may not use leading or "
            "trailing dashes"
        )
    return None


def check_provider_name_normalized(name: str, rng: Range) -> Diagnostics:
    """Terraform's checkProviderNameNormalized: local names must be valid and lower case."""
    diags = Diagnostics()
    problem = provider_part_problem(name)
    if problem:
        diags.append(
            error("Invalid provider local name", f"{name} is an invalid provider local name: {problem}", rng)
        )
    elif name != name.lower():
        diags.append(
            error(
                "Invalid provider local name",
                f'Provider names must be normalized. Replace "{name}" with "{name.lower()}" to '
                "fix this error.",
                rng,
            )
        )
    return diags


@dataclass(frozen=True, slots=True)
class ProviderConfigRef:
    """A reference to a provider configuration (`aws` or `aws.west`)."""

    name: str
    name_range: Range
    alias: str = ""
    alias_range: Range | None = None

    def __str__(self) -> str:
        return f"{self.name}.{self.alias}" if self.alias else self.name


def decode_provider_config_ref(expr: Expr, arg_name: str) -> tuple[ProviderConfigRef | None, Diagnostics]:
    """Decode the `provider = aws.west` meta-argument (or a `providers` map element)."""
    diags = Diagnostics()
    trav, tdiags = abs_traversal(expr)
    if not tdiags.has_errors:
        diags.extend(tdiags)
    if trav is None or len(trav) < 1 or len(trav) > 2:
        if is_native_quoted_string(expr):
            diags.append(
                error(
                    "Invalid provider configuration reference",
                    "A provider configuration reference must not be given in quotes.",
                    expr.range,
                )
            )
            return None, diags
        diags.append(
            error(
                "Invalid provider configuration reference",
                f"The {arg_name} argument requires a provider type name, optionally followed by "
                "a period and then a configuration alias.",
                expr.range,
            )
        )
        return None, diags
    name = trav[0].name  # type: ignore[union-attr]
    diags.extend(check_provider_name_normalized(name, trav[0].range))
    if diags.has_errors:
        return None, diags
    if len(trav) > 1:
        step = trav[1]
        if not isinstance(step, TraverseAttr):
            diags.append(
                error(
                    "Invalid provider configuration reference",
                    "Provider name must either stand alone or be followed by a period and then a "
                    "configuration alias.",
                    step.range,
                )
            )
            return ProviderConfigRef(name, trav[0].range), diags
        return ProviderConfigRef(name, trav[0].range, step.name, step.range), diags
    return ProviderConfigRef(name, trav[0].range), diags
