"""A saved plan as people and tools read it: the text `show FILE` prints and the JSON
document `show -json FILE` prints, from the plan file and the providers' schemas.

The control plane stores both beside the plan file; a front end renders them as it likes."""

from __future__ import annotations

from typing import Any

from engine.addrs import AddressSyntaxError, parse_abs_provider_config
from engine.addrs import Provider as ProviderAddr
from engine.diags import Diagnostics
from engine.operations.planfiles import snapshot_configuration
from engine.plans.planfile import PlanFile, read_planfile
from engine.plugin.registry import ProviderRegistry


def plan_providers(pf: PlanFile) -> list[ProviderAddr]:
    """The providers whose schemas rendering `pf` needs, in first-seen order."""
    out: list[ProviderAddr] = [c.provider.provider for c in [*pf.plan.changes, *pf.plan.drift]]
    if pf.prior_state is not None:
        for rs in pf.prior_state.state.resources:
            try:
                out.append(parse_abs_provider_config(rs.provider).provider)
            except AddressSyntaxError:
                continue
    return list(dict.fromkeys(out))


def saved_plan_documents(
    plan: PlanFile | str, registry: ProviderRegistry
) -> tuple[str, dict[str, Any], Diagnostics]:
    """(`show FILE` text, `show -json FILE` document, diagnostics) of a saved plan; empty text
    and document when the plan or a provider schema cannot be read."""
    from engine.plans.render_human import render_plan
    from engine.plans.render_json import plan_to_json

    diags = Diagnostics()
    if isinstance(plan, PlanFile):
        pf: PlanFile | None = plan
    else:
        pf, diags = read_planfile(plan)
    if pf is None:
        return "", {}, diags
    schemas: dict[Any, Any] = {}
    for p in plan_providers(pf):
        resp, more = registry.schema(p)
        diags.extend(more)
        if resp is not None:
            schemas[p] = resp
    if diags.has_errors:
        return "", {}, diags
    config, cdiags = snapshot_configuration(pf)
    doc = plan_to_json(pf.plan, pf.prior_state, None if cdiags.has_errors else config, schemas)
    text = render_plan(pf.plan, schemas, pf.plan.relevant_attributes)
    return text, doc, diags


__all__ = ["plan_providers", "saved_plan_documents"]
