"""Redaction of what the control plane stores: terraform's JSON plan by its own sensitivity
masks, and any text by a list of known secret values.

terraform's JSON plan carries sensitive values in the clear beside masks that say which they
are (`before_sensitive`, `after_sensitive`, `sensitive_values`, output `sensitive`, the
configuration's `sensitive` variables). `redact_plan` replaces every masked value with
`REDACTED`, keeping the document's shape so tools still read it. `scrub` is the second line:
it removes every occurrence of given secret strings (sensitive variable values, provider
credentials) from a text before it is stored or logged."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

REDACTED = "(sensitive value)"


def redact_value(value: Any, mask: Any) -> Any:
    """`value` with every part `mask` marks sensitive (True) replaced by REDACTED."""
    if mask is True:
        return None if value is None else REDACTED
    if isinstance(mask, dict) and isinstance(value, dict):
        return {k: redact_value(v, mask.get(k, False)) for k, v in value.items()}
    if isinstance(mask, list) and isinstance(value, list):
        return [redact_value(v, mask[i] if i < len(mask) else False)
                for i, v in enumerate(value)]
    return value


def _redact_module(mod: dict[str, Any]) -> None:
    for res in mod.get("resources", []) or []:
        if "values" in res:
            res["values"] = redact_value(res["values"], res.get("sensitive_values", {}))
    for child in mod.get("child_modules", []) or []:
        _redact_module(child)


def _redact_values_doc(doc: dict[str, Any] | None) -> None:
    if not doc:
        return
    for out in (doc.get("outputs") or {}).values():
        if out.get("sensitive"):
            out["value"] = REDACTED
    if "root_module" in doc:
        _redact_module(doc["root_module"])


def _sensitive_variables(config: dict[str, Any]) -> set[str]:
    root = (config.get("root_module") or {}).get("variables") or {}
    return {name for name, var in root.items() if var.get("sensitive")}


def redact_plan(doc: dict[str, Any]) -> dict[str, Any]:
    """A copy of terraform's JSON plan `doc` with every sensitive value replaced."""
    import copy

    out = copy.deepcopy(doc)
    secret_vars = _sensitive_variables(out.get("configuration") or {})
    for name, var in (out.get("variables") or {}).items():
        if name in secret_vars:
            var["value"] = REDACTED
    _redact_values_doc(out.get("planned_values"))
    prior = out.get("prior_state") or {}
    _redact_values_doc(prior.get("values"))
    for key in ("resource_changes", "resource_drift"):
        for rc in out.get(key, []) or []:
            change = rc.get("change") or {}
            for side in ("before", "after"):
                if side in change:
                    change[side] = redact_value(change[side], change.get(f"{side}_sensitive"))
    for change in (out.get("output_changes") or {}).values():
        for side in ("before", "after"):
            if change.get(f"{side}_sensitive") is True and side in change:
                change[side] = REDACTED
    return out


def scrub(text: str, secrets: Iterable[str]) -> str:
    """`text` with every occurrence of each secret (of 4+ characters) replaced."""
    for s in sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True):
        text = text.replace(s, "(redacted)")
    return text


def secret_strings(value: Any) -> list[str]:
    """Every string (and number as text) inside `value`: the candidates `scrub` removes."""
    found: list[str] = []
    if isinstance(value, str):
        found.append(value)
    elif isinstance(value, bool) or value is None:
        pass
    elif isinstance(value, int | float):
        found.append(str(value))
    elif isinstance(value, dict):
        for v in value.values():
            found.extend(secret_strings(v))
    elif isinstance(value, list):
        for v in value:
            found.extend(secret_strings(v))
    return found
