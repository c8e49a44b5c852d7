"""`show [-json] [PATH]`: the latest state, a state file or a saved plan.

Without PATH the local state is shown: "No state." when there is none, "The state file is
empty. No resources are represented." when it holds nothing, otherwise every resource
instance (engine.cli.state_view) and the outputs. With PATH, a saved plan is rendered as
`plan` renders it and a state file as the state; anything else is terraform's "Failed to
read the given file as a state or plan file". `-json` prints terraform's JSON state or plan
representation (engine.plans.render_json) on one line. Schemas come from the providers the
state or plan uses.
"""

from __future__ import annotations

import os
from typing import Any

from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.cli.state_view import Schemas, load_schemas, render_state, state_providers
from engine.diags import Diagnostics, error
from engine.gocompat import json as gojson
from engine.operations.planfiles import snapshot_configuration
from engine.plans.planfile import PlanFile, read_planfile
from engine.plans.render_json import plan_to_json
from engine.plans.render_json_state import state_to_json
from engine.plugin.loader import PluginRegistry
from engine.plugin.registry import ProviderRegistry
from engine.states import StateFile


def state_json(sf: StateFile | None, schemas: Schemas | None = None) -> dict[str, Any]:
    """Terraform's JSON representation of a state (`show -json`); numbers are exact."""
    return state_to_json(sf, schemas or {})


def _plan_providers(pf: PlanFile) -> list[Any]:
    out = [c.provider.provider for c in [*pf.plan.changes, *pf.plan.drift]]
    if pf.prior_state is not None:
        out.extend(state_providers(pf.prior_state.state))
    return list(dict.fromkeys(out))


def _show_plan(meta: Meta, pf: PlanFile, as_json: bool, registry: ProviderRegistry) -> int:
    ui = meta.ui
    schemas, diags = load_schemas(registry, _plan_providers(pf))
    if diags.has_errors:
        ui.diagnostics(diags)
        return 1
    if as_json:
        config, cdiags = snapshot_configuration(pf)
        doc = plan_to_json(pf.plan, pf.prior_state, None if cdiags.has_errors else config,
                           schemas)
        ui.raw(gojson.dumps(doc, indent=None) + "\n")
        return 0
    from engine.plans.render_human import render_plan

    ui.raw(render_plan(pf.plan, schemas, pf.plan.relevant_attributes))
    return 0


def _show_state(meta: Meta, sf: StateFile | None, as_json: bool,
                registry: ProviderRegistry) -> int:
    ui = meta.ui
    schemas: Schemas = {}
    if sf is not None and sf.state.resources:
        schemas, diags = load_schemas(registry, state_providers(sf.state))
        if diags.has_errors:
            ui.diagnostics(diags)
            return 1
    if as_json:
        ui.raw(gojson.dumps(state_json(sf, schemas), indent=None) + "\n")
        return 0
    if sf is None:
        ui.out("No state.")
        return 0
    if sf.state.is_empty:
        ui.out("The state file is empty. No resources are represented.")
        return 0
    ui.raw(render_state(sf, schemas))
    return 0


def _go_err(path: str, diags: Diagnostics) -> str:
    """terraform's "Error reading PATH as a statefile: ..." text for state read errors (Go's
    error of a diagnostics list: "Summary: detail", or "N problems:" and a bulleted list)."""
    errs = [f"{d.summary}: {d.detail}" if d.detail else d.summary for d in diags.errors]
    body = errs[0] if len(errs) == 1 else (
        f"{len(errs)} problems:\n\n" + "\n".join(f"- {e}" for e in errs))
    return f"Error reading {path} as a statefile: {body}"


def _read_path(meta: Meta, path: str) -> tuple[PlanFile | None, StateFile | None, Diagnostics]:
    """The plan or the state in `path`; neither: terraform's combined error, which names
    both reasons (an empty file is "no state")."""
    pf, pdiags = read_planfile(path, decrypt=meta.plan_encryption().decrypt)
    if pf is not None and not pdiags.has_errors:
        return pf, None, Diagnostics()
    exists = os.path.isfile(path)
    try:
        storage, sdiags = meta.state_storage(path)
        sf = None
        if storage is not None:
            sf, sdiags = storage.read()
    except (UnicodeDecodeError, ValueError) as exc:
        sf, sdiags = None, Diagnostics([error(
            "Unsupported state file format", f"Error reading {path} as a statefile: {exc}")])
    if exists and not sdiags.has_errors and sf is not None:
        return None, sf, Diagnostics()
    if not exists:
        missing = f"open {path}: no such file or directory"
        state_err = f"Error loading statefile: {missing}"
        plan_err = (f"couldn't load the provided path as either a local plan file ({missing}) "
                    f"or a saved cloud plan ({missing})")
    else:
        state_err = (_go_err(path, sdiags) if sdiags.has_errors
                     else f"Error reading {path} as a statefile: no state")
        plan_err = "; ".join(
            (d.detail or d.summary).removeprefix("Error: ") for d in pdiags.errors)
    return None, None, Diagnostics([error(
        "Failed to read the given file as a state or plan file",
        f"State read error: {state_err}\n\nPlan read error: {plan_err}")])


def run_show(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().boolean("json")
    rest = meta.parse_flags("show", fs, args)
    if rest is None:
        return 1
    ui = meta.ui
    as_json = bool(fs.get("json"))
    if len(rest) > 1:
        ui.diagnostics([error("Too many command line arguments",
                              "Expected at most one positional argument.")])
        ui.err("\nFor more help on using this command, run:\n  groundplan show -help")
        return 1
    registry: ProviderRegistry = PluginRegistry(meta.cwd)
    try:
        if rest:
            pf, sf, diags = _read_path(meta, rest[0])
            if diags.has_errors:
                ui.diagnostics(diags)
                return 1
            if pf is not None:
                return _show_plan(meta, pf, as_json, registry)
            return _show_state(meta, sf, as_json, registry)
        storage, diags = meta.state_storage()
        sf = None
        if storage is not None:
            sf, diags = storage.read()
        if diags.has_errors:
            ui.diagnostics(diags)
            return 1
        return _show_state(meta, sf, as_json, registry)
    finally:
        registry.close()
